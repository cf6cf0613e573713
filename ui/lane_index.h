// An incremental index over the engine's event log: for every message lane and every actor (consumer, Lambda
// poller) the chain of its events, built by reading only what is new. 8 bytes per event and 12 per lane; the
// painter walks a lane's chain instead of scanning the log.
#pragma once

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

    size_t actorCount() const { return m_actors.size(); } // actor ids 0..n-1 that appear in the log
    const LaneChain& actor(uint32_t actor) const { return m_actors[actor]; }
    uint32_t nextOfActor(uint32_t event) const { return m_nextOfActor[event]; }

    size_t eventsRead() const { return m_read; }
    size_t bytesUsed() const;

private:
    size_t m_read = 0;
    std::vector<LaneChain> m_lanes;
    std::vector<LaneChain> m_actors;
    std::vector<uint32_t> m_nextOfLane; // per event: the next event of the same lane
    std::vector<uint32_t> m_nextOfActor; // per event: the next event of the same actor
    std::vector<uint32_t> m_lastSyncOfLane; // the sync generation that last touched a lane (for unique changes)
    uint32_t m_generation = 0;
};

} // namespace lifeline::ui
