#include "lane_index.h"

#include <algorithm>

namespace lifeline::ui {

namespace {
void link(std::vector<LaneChain>& chains, std::vector<uint32_t>& next, size_t owner, uint32_t event)
{
    if (owner >= chains.size())
        chains.resize(owner + 1);
    LaneChain& chain = chains[owner];
    if (chain.last == kNoEvent)
        chain.first = event;
    else
        next[chain.last] = event;
    chain.last = event;
}
} // namespace

LaneIndex::SyncResult LaneIndex::sync(const Engine& engine)
{
    SyncResult result;
    result.firstNewLane = m_lanes.size();
    result.firstNewActor = m_actors.size();
    ++m_generation;
    const EventLog& log = engine.log();
    const size_t end = log.size();
    m_nextOfLane.resize(end, kNoEvent);
    m_nextOfActor.resize(end, kNoEvent);
    for (; m_read < end; ++m_read) {
        const Event& e = log[m_read];
        const uint32_t index = uint32_t(m_read);
        if (e.message != kNoMessage) {
            const bool existing = e.message < result.firstNewLane;
            link(m_lanes, m_nextOfLane, e.message, index);
            LaneChain& chain = m_lanes[e.message];
            if (e.cause != Cause::RequestRefused)
                chain.state = e.to;
            if (e.cause == Cause::ProcessingStarted && e.detail == 1)
                ++chain.duplicates;
            if (m_lastSyncOfLane.size() < m_lanes.size())
                m_lastSyncOfLane.resize(m_lanes.size(), 0);
            if (existing && m_lastSyncOfLane[e.message] != m_generation)
                result.changedLanes.push_back(e.message);
            m_lastSyncOfLane[e.message] = m_generation;
        }
        if (e.actor != kNoActor)
            link(m_actors, m_nextOfActor, e.actor, index);
        ++result.newEvents;
    }
    std::sort(result.changedLanes.begin(), result.changedLanes.end());
    return result;
}

void LaneIndex::clear()
{
    *this = LaneIndex();
}

size_t LaneIndex::bytesUsed() const
{
    return m_lanes.capacity() * sizeof(LaneChain) + m_actors.capacity() * sizeof(LaneChain)
        + (m_nextOfLane.capacity() + m_nextOfActor.capacity() + m_lastSyncOfLane.capacity()) * sizeof(uint32_t);
}

} // namespace lifeline::ui
