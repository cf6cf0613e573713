#include "timeline/lane_model.h"

#include <algorithm>

namespace lifeline::ui {

LaneModel::LaneModel(QObject* parent)
    : QObject(parent)
{
}

void LaneModel::setEngine(const RunView* engine)
{
    m_engine = engine;
    m_index.clear();
    m_tenants.clear();
    m_density.clear();
    m_groups.clear();
    m_actors.clear();
    m_actorShown.clear();
    m_clearedDropped = 0;
    m_moments = sim::MomentFinder(m_momentSpecs);
    emit runReset();
    sync();
    emit momentsChanged();
}

void LaneModel::sync()
{
    if (!m_engine)
        return;
    // A group for each new queue, in queue order.
    const size_t queues = m_engine->queueCount();
    const bool newQueues = queues > m_groups.size();
    if (newQueues)
        m_groups.resize(queues);
    const auto result = m_index.sync(*m_engine);
    m_tenants.sync(*m_engine);
    const size_t momentsBefore = m_moments.moments().size();
    m_moments.advance(*m_engine);
    for (size_t lane = result.firstNewLane; lane < m_index.laneCount(); ++lane)
        // Not one forgotten before it was read (the run no longer knows its queue).
        if (!m_index.cleared(MessageIndex(lane)) && !m_engine->forgotten(MessageIndex(lane)))
            m_groups[m_engine->message(MessageIndex(lane)).queue].lanes.push_back(MessageIndex(lane));
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
    if (newQueues || result.firstNewLane < m_index.laneCount() || m_actors.size() > actorsBefore
        || !result.changedLanes.empty() || forgot)
        emit lanesChanged();
    if (m_moments.moments().size() != momentsBefore)
        emit momentsChanged();
}

bool LaneModel::dropClearedLanes()
{
    // Lanes the run forgot leave the groups' lists. Most leave from the front, in send order; the others are swept
    // once they are many (a long-lived lane at the front holds back those after it).
    const size_t cleared = m_index.clearedCount();
    if (cleared == m_clearedDropped)
        return false;
    size_t listed = 0;
    for (Group& g : m_groups) {
        while (!g.lanes.empty() && m_index.cleared(g.lanes.front()))
            g.lanes.pop_front();
        listed += g.lanes.size();
    }
    if (listed > m_index.laneCount() - cleared + cleared / 8 + 1024)
        for (Group& g : m_groups)
            std::erase_if(g.lanes, [this](MessageIndex lane) { return m_index.cleared(lane); });
    m_clearedDropped = cleared;
    return true;
}

const DensitySeries& LaneModel::density() const
{
    if (m_engine)
        m_density.sync(*m_engine); // returns at once when nothing is new
    return m_density;
}

QString LaneModel::actorName(uint32_t actor) const
{
    return m_engine ? QString::fromStdString(m_engine->actorName(actor)) : tr("client %1").arg(actor);
}

size_t LaneModel::bytesUsed() const
{
    size_t bytes = m_index.bytesUsed() + m_tenants.bytesUsed();
    for (const auto& g : m_groups)
        bytes += sizeof(Group) + g.lanes.size() * sizeof(MessageIndex);
    return bytes + m_actors.capacity() * sizeof(uint32_t) + m_actorShown.capacity() / 8;
}

} // namespace lifeline::ui
