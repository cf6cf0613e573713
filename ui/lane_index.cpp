#include "lane_index.h"

#include <algorithm>

namespace lifeline::ui {

bool LaneIndex::isActorWork(Cause cause)
{
    switch (cause) {
    case Cause::PollStarted:
    case Cause::PollEnded:
    case Cause::ProcessingStarted:
    case Cause::ProcessingFinished:
    case Cause::ProcessingFailed:
    case Cause::ConsumerCrashed:
    case Cause::ConsumerRestarted:
        return true;
    default:
        return false;
    }
}

LaneIndex::SyncResult LaneIndex::sync(const Engine& engine)
{
    SyncResult result;
    result.firstNewLane = m_lanes.size();
    result.firstNewActor = m_actorSteps.size();
    const EventLog& log = engine.log();
    const size_t end = log.size();
    while (m_nextOfLane.size() < end)
        m_nextOfLane.push_back(kNoEvent);
    for (; m_read < end; ++m_read) {
        const Event& e = log[m_read];
        const uint32_t index = uint32_t(m_read);
        if (e.message != kNoMessage) {
            if (e.message >= m_lanes.size())
                m_lanes.resize(e.message + 1);
            LaneChain& chain = m_lanes[e.message];
            if (chain.last == kNoEvent)
                chain.first = index;
            else
                m_nextOfLane[chain.last] = index;
            chain.last = index;
            if (e.cause != Cause::RequestRefused)
                chain.state = e.to;
            if (e.cause == Cause::ProcessingStarted && e.detail == 1)
                ++chain.duplicates;
            if (e.message < result.firstNewLane)
                result.changedLanes.push_back(e.message);
        }
        if (e.cause == Cause::RequestRefused && e.queue != kNoQueue) {
            if (e.queue >= m_refusals.size())
                m_refusals.resize(e.queue + 1);
            m_refusals[e.queue].push_back(index);
        }
        if (e.actor != kNoActor && isActorWork(e.cause)) {
            while (m_actorSteps.size() <= e.actor)
                m_actorSteps.push_back(std::make_unique<ChunkedVector<ActorStep, 12>>());
            if (m_openPoll.size() <= e.actor)
                m_openPoll.resize(e.actor + 1, -1);
            const uint32_t time = uint32_t(std::min<TimeMs>(e.time, UINT32_MAX));
            if (e.cause == Cause::PollStarted) {
                m_openPoll[e.actor] = e.time; // stored as a step only when it ends
            } else if (e.cause == Cause::PollEnded) {
                if (m_openPoll[e.actor] >= 0) {
                    const TimeMs length = std::min<TimeMs>(e.time - m_openPoll[e.actor], ActorStep::kNoLane - 1);
                    m_actorSteps[e.actor]->push_back(ActorStep(time, MessageIndex(length), e.cause));
                }
                m_openPoll[e.actor] = -1;
            } else {
                m_actorSteps[e.actor]->push_back(ActorStep(time, e.message, e.cause));
            }
        }
        ++result.newEvents;
    }
    std::sort(result.changedLanes.begin(), result.changedLanes.end());
    result.changedLanes.erase(
        std::unique(result.changedLanes.begin(), result.changedLanes.end()), result.changedLanes.end());
    return result;
}

size_t LaneIndex::firstStepAt(uint32_t actor, TimeMs time) const
{
    const auto& steps = *m_actorSteps[actor];
    size_t low = 0, high = steps.size();
    while (low < high) {
        const size_t mid = (low + high) / 2;
        if (TimeMs(steps[mid].time) < time)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

void LaneIndex::clear()
{
    *this = LaneIndex();
}

size_t LaneIndex::bytesUsed() const
{
    size_t bytes = m_lanes.capacity() * sizeof(LaneChain) + m_nextOfLane.capacity() * sizeof(uint32_t);
    bytes += m_openPoll.capacity() * sizeof(TimeMs);
    for (const auto& steps : m_actorSteps)
        bytes += sizeof(*steps) + steps->capacity() * sizeof(ActorStep);
    return bytes;
}

} // namespace lifeline::ui
