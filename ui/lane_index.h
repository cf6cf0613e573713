// An incremental index over the engine's event log, built by reading only what is new: for every message lane
// the chain of its events (4 bytes per event, 12 per lane), and for every actor (consumer, Lambda poller) the
// time-ordered list of what it did (polls, processing, crashes), so the painter finds a window by binary search.
#pragma once

#include "lifeline/chunked_vector.h"
#include "lifeline/engine.h"

#include <cstdint>
#include <vector>

namespace lifeline::ui {

inline constexpr uint32_t kNoEvent = UINT32_MAX;

struct LaneChain {
    uint32_t first = kNoEvent;
    uint32_t last = kNoEvent;
    uint16_t duplicates = 0; // duplicate-processing starts seen on this lane
    MessageState state = MessageState::None; // from the log, as of the last sync
    uint8_t flags = 0;
};

class LaneIndex {
public:
    struct SyncResult {
        size_t firstNewLane = 0; // lanes [firstNewLane, laneCount()) are new
        std::vector<MessageIndex> changedLanes; // existing lanes with new events, ascending, unique
        size_t firstNewActor = 0;
        size_t newEvents = 0;
    };

    // Reads the log from where the last call stopped.
    SyncResult sync(const Engine& engine);
    void clear();

    size_t laneCount() const { return m_lanes.size(); }
    const LaneChain& lane(MessageIndex lane) const { return m_lanes[lane]; }
    uint32_t nextOfLane(uint32_t event) const { return m_nextOfLane[event]; }

    size_t actorCount() const { return m_actorEvents.size(); } // actor ids 0..n-1 seen so far
    // The events (log indexes, in time order) of an actor's work: polls, processing, crashes and restarts.
    const std::vector<uint32_t>& actorEvents(uint32_t actor) const { return m_actorEvents[actor]; }
    static bool isActorWork(Cause cause);

    size_t eventsRead() const { return m_read; }
    size_t bytesUsed() const;

private:
    size_t m_read = 0;
    std::vector<LaneChain> m_lanes;
    ChunkedVector<uint32_t, 13> m_nextOfLane; // per event: the next event of the same lane (chunked: no slack)
    std::vector<std::vector<uint32_t>> m_actorEvents;
};

} // namespace lifeline::ui
