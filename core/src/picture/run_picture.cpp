#include "lifeline/picture/run_picture.h"

namespace lifeline::picture {

void RunPicture::setRun(const RunView* run, std::vector<analysis::MomentSpec> moments)
{
    m_run = run;
    m_index.clear();
    m_tenants.clear();
    m_density.clear();
    m_groups.clear();
    m_actors.clear();
    m_actorShown.clear();
    m_clearedDropped = 0;
    m_story = {};
    m_storyRead = 0;
    m_momentSpecs = std::move(moments);
    m_moments = analysis::MomentFinder(m_momentSpecs);
}

RunPicture::Changes RunPicture::sync()
{
    if (!m_run)
        return {};
    // A group for each new queue, in queue order.
    const size_t queues = m_run->queueCount();
    const bool newQueues = queues > m_groups.size();
    if (newQueues)
        m_groups.resize(queues);
    const auto result = m_index.sync(*m_run);
    m_tenants.sync(*m_run);
    const size_t momentsBefore = m_moments.moments().size();
    m_moments.advance(*m_run);
    for (size_t lane = result.firstNewLane; lane < m_index.laneCount(); ++lane)
        // Not one forgotten before it was read (the run no longer knows its queue).
        if (!m_index.cleared(MessageIndex(lane)) && !m_run->forgotten(MessageIndex(lane)))
            m_groups[m_run->message(MessageIndex(lane)).queue].push_back(MessageIndex(lane));
    const bool forgot = dropClearedLanes();
    // New actors: shown from their first step, or from the start of their first poll (a long poll runs for 20 s
    // before it is a step: its row is drawn, and clicked, as it runs).
    const size_t actorsBefore = m_actors.size();
    m_actorShown.resize(m_index.actorCount(), false);
    for (size_t a = 0; a < m_index.actorCount(); ++a) {
        const bool acted = !m_index.actorSteps(uint32_t(a)).empty() || m_index.openPollSince(uint32_t(a)) >= 0;
        if (!m_actorShown[a] && acted) {
            m_actors.push_back(uint32_t(a));
            m_actorShown[a] = true;
        }
    }
    readStory();
    Changes changes;
    changes.lanes = newQueues || result.firstNewLane < m_index.laneCount() || m_actors.size() > actorsBefore
        || !result.changedLanes.empty() || forgot;
    changes.moments = m_moments.moments().size() != momentsBefore;
    return changes;
}

void RunPicture::readStory()
{
    m_story = extendStory(m_story, m_run->log(), m_storyRead);
    m_storyRead = m_run->log().size();
}

bool RunPicture::dropClearedLanes()
{
    // Lanes the run forgot leave the groups' lists. Most leave from the front, in send order; the others are swept
    // once they are many (a long-lived lane at the front holds back those after it).
    const size_t cleared = m_index.clearedCount();
    if (cleared == m_clearedDropped)
        return false;
    size_t listed = 0;
    for (Lanes& lanes : m_groups) {
        while (!lanes.empty() && m_index.cleared(lanes.front()))
            lanes.pop_front();
        listed += lanes.size();
    }
    if (listed > m_index.laneCount() - cleared + cleared / 8 + 1024)
        for (Lanes& lanes : m_groups)
            std::erase_if(lanes, [this](MessageIndex lane) { return m_index.cleared(lane); });
    m_clearedDropped = cleared;
    return true;
}

const DensitySeries& RunPicture::density() const
{
    if (m_run)
        m_density.sync(*m_run); // returns at once when nothing is new
    return m_density;
}

size_t RunPicture::bytesUsed() const
{
    size_t bytes = m_index.bytesUsed() + m_tenants.bytesUsed();
    for (const Lanes& lanes : m_groups)
        bytes += sizeof(Lanes) + lanes.size() * sizeof(MessageIndex);
    return bytes + m_actors.capacity() * sizeof(uint32_t) + m_actorShown.capacity() / 8;
}

} // namespace lifeline::picture
