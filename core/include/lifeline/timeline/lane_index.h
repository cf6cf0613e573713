// An incremental index over the engine's event log, built by reading only what is new: for every message lane
// the chain of its events (4 bytes per event, 12 per lane), and for every actor (consumer, Lambda poller) the
// time-ordered steps of what it did (polls, processing, crashes), found by binary search and scanned in place.
//
// A run with a bounded history (EngineOptions::historyMs) releases old events; sync() then forgets with it: a lane's
// chain starts at its first event still held (the state before it is that event's `from`, stateBefore()), a live
// lane none of whose events is held keeps its state alone, a lane that ended with all its events gone is cleared
// (no chain, not alive in any window), and the index's own links, steps and marks before the boundary are released,
// so the index stays as bounded as the run.
#pragma once

#include "lifeline/run/run_view.h"
#include "lifeline/support/chunked_vector.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace lifeline {

inline constexpr uint32_t kNoEvent = UINT32_MAX;
// A live lane's last event when every event it had is forgotten (LaneChain::last): it is alive, with no chain.
inline constexpr uint32_t kForgottenEvents = UINT32_MAX - 1;

// One step of an actor's work, kept inline so the painter scans an actor's row without touching the log. It keeps
// which of the stored kinds of step it is, not the Cause's number, so the log's causes can grow without taking lane
// bits from it.
struct ActorStep {
    // The causes an actor step can have (a poll's start is kept as the open poll, not as a step); room for 32.
    static constexpr std::array kCauses { Cause::PollEnded, Cause::ProcessingStarted, Cause::ProcessingFinished,
        Cause::ProcessingFailed, Cause::ConsumerCrashed, Cause::ConsumerRestarted, Cause::ScriptedCall };
    static constexpr uint32_t kLaneBits = 27; // lanes up to 134 million; the step's kind in the 5 bits above
    static constexpr uint32_t kNoLane = (1u << kLaneBits) - 1;
    static_assert(kCauses.size() <= 32);
    uint32_t time; // virtual ms (runs up to 49 days)
    uint32_t laneAndKind;

    ActorStep(uint32_t t, MessageIndex lane, Cause cause)
        : time(t)
        , laneAndKind((lane >= kNoLane ? kNoLane : lane) | kindOf(cause) << kLaneBits)
    {
    }
    ActorStep() = default;
    MessageIndex lane() const
    {
        const uint32_t l = laneAndKind & kNoLane;
        return l == kNoLane ? kNoMessage : l;
    }
    Cause cause() const { return kCauses[laneAndKind >> kLaneBits]; }

private:
    static constexpr uint32_t kindOf(Cause cause)
    {
        return uint32_t(std::find(kCauses.begin(), kCauses.end(), cause) - kCauses.begin());
    }
};
static_assert(sizeof(ActorStep) == 8);

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
    SyncResult sync(const RunView& run);
    void clear();

    size_t laneCount() const { return m_first.size(); }
    LaneChain lane(MessageIndex lane) const
    {
        if (gone(lane))
            return LaneChain {};
        const auto dup = m_duplicates.find(lane);
        return LaneChain { firstOf(lane), lastOf(lane), dup == m_duplicates.end() ? uint16_t(0) : dup->second,
            stateOf(lane), 0 };
    }
    uint32_t nextOfLane(uint32_t event) const { return m_links[rank(event)]; }
    // Events before this index are forgotten (the run's bounded history); 0 while everything is held.
    size_t firstEventHeld() const { return m_forgotten; }
    // The time before which the run is forgotten: the first held event's (0 while everything is held).
    TimeMs forgottenUntil() const { return m_forgottenUntil; }
    // The lane's state when the held history begins, if it had one then (its earlier events forgotten); None for a
    // lane born since.
    MessageState stateBefore(MessageIndex lane) const;
    // Every event of the lane is forgotten and it ended: it has no chain and is alive in no window.
    bool cleared(MessageIndex lane) const
    {
        return gone(lane)
            || (firstOf(lane) == kNoEvent && lastOf(lane) == kNoEvent && stateOf(lane) != MessageState::None);
    }
    size_t clearedCount() const { return m_clearedCount; }
    // A lane's life: born with its first event; ended (-1 while live) at its last event once it is in a terminal
    // state (that is its end, unless a late request that changed nothing, such as a second delete, came after it).
    TimeMs bornAt(MessageIndex lane) const;
    TimeMs endedAt(MessageIndex lane) const;
    // The lanes with a segment in [from, to] (born by `to`, not ended before `from`), ascending, into `out`. Lanes
    // are born in index order and summarised per block of 256 (first birth, lanes live, earliest and latest end),
    // so a binary search cuts off those born after the window, a block that all ended before it is skipped whole
    // and a block none of which ended before it is taken whole.
    void lanesAlive(TimeMs from, TimeMs to, std::vector<MessageIndex>& out) const;

    size_t actorCount() const { return m_actorSteps.size(); } // actor ids 0..n-1 seen so far
    // What an actor did (polls, processing, crashes and restarts), in time order; steps before firstStepHeld() are
    // forgotten with the run's history.
    const ChunkedVector<ActorStep, 12>& actorSteps(uint32_t actor) const { return *m_actorSteps[actor]; }
    size_t firstStepHeld(uint32_t actor) const { return actor < m_firstStep.size() ? m_firstStep[actor] : 0; }
    // The first held step at or after `time` (binary search).
    size_t firstStepAt(uint32_t actor, TimeMs time) const;
    // A poll is one step, PollEnded, whose lane field holds the poll's length in ms (a poll lasts at most 20 s);
    // the poll still waiting, if any, is here (or -1).
    TimeMs openPollSince(uint32_t actor) const { return actor < m_openPoll.size() ? m_openPoll[actor] : -1; }
    static bool isActorWork(Cause cause);
    // A Lambda poller's function timeout, as its invocations logged it (0: not a Lambda poller).
    TimeMs functionTimeout(uint32_t actor) const
    {
        return actor < m_functionTimeout.size() ? m_functionTimeout[actor] : 0;
    }
    // Whether the actor's invocation that ended at `time` was stopped by the function timeout.
    bool timedOutAt(uint32_t actor, TimeMs time) const;
    // What the run has shown so far: a state some lane entered, a cause some event had (the legend lists only
    // these), duplicate processing.
    bool stateOccurred(MessageState state) const { return (m_statesSeen >> unsigned(state)) & 1u; }
    bool causeOccurred(Cause cause) const { return m_causesSeen.test(size_t(cause)); }
    bool duplicatesOccurred() const { return !m_duplicates.empty(); }
    // An event `lifeline import` inferred from a queue's settings (Event::inferred).
    bool inferredOccurred() const { return m_inferredSeen; }

    // A script client's calls (log indexes of its ScriptedCall events, in time order): marks on its row, the call
    // and SQS's answer on hover.
    const std::vector<uint32_t>& scriptCalls(uint32_t actor) const
    {
        static const std::vector<uint32_t> none;
        const auto it = m_scriptCalls.find(actor);
        return it == m_scriptCalls.end() ? none : it->second;
    }
    // Refused requests per queue (log indexes): drawn as marks on the queue's row, with SQS's text on hover.
    const std::vector<uint32_t>& refusals(QueueIndex queue) const
    {
        static const std::vector<uint32_t> none;
        return queue < m_refusals.size() ? m_refusals[queue] : none;
    }
    // Operator actions (a slider moved, a message sent by hand) and warnings per queue (log indexes): marks on the
    // queue's row, their text on hover.
    const std::vector<uint32_t>& notes(QueueIndex queue) const
    {
        static const std::vector<uint32_t> none;
        return queue < m_notes.size() ? m_notes[queue] : none;
    }
    // Fair queues: a tenant turning noisy and quiet again, per queue (log indexes of TenantNoisy and TenantQuiet, in
    // time order): a band on the queue's row while a tenant is noisy.
    const std::vector<uint32_t>& tenantMarks(QueueIndex queue) const
    {
        static const std::vector<uint32_t> none;
        return queue < m_tenantMarks.size() ? m_tenantMarks[queue] : none;
    }

    // The queue's maxReceiveCount in force at `time` (0: no DLQ then), from the RedrivePolicy changes the log shows;
    // none when the log shows no change (the queue's current policy is the one there has been).
    std::optional<uint32_t> maxReceiveCountAt(QueueIndex queue, TimeMs time) const;

    size_t eventsRead() const { return m_read; }
    size_t bytesUsed() const;

private:
    struct LaneHead {
        uint32_t first, last;
        MessageState state;
    };
    // A lane's columns, in its chunk or, once the chunk is released, beside it (a survivor).
    uint32_t& firstOf(MessageIndex lane)
    {
        return m_first.released(lane) ? m_laneSurvivors.at(lane).first : m_first[lane];
    }
    uint32_t& lastOf(MessageIndex lane) { return m_last.released(lane) ? m_laneSurvivors.at(lane).last : m_last[lane]; }
    MessageState& stateOf(MessageIndex lane)
    {
        return m_state.released(lane) ? m_laneSurvivors.at(lane).state : m_state[lane];
    }
    uint32_t firstOf(MessageIndex lane) const
    {
        return m_first.released(lane) ? m_laneSurvivors.at(lane).first : m_first[lane];
    }
    uint32_t lastOf(MessageIndex lane) const
    {
        return m_last.released(lane) ? m_laneSurvivors.at(lane).last : m_last[lane];
    }
    MessageState stateOf(MessageIndex lane) const
    {
        return m_state.released(lane) ? m_laneSurvivors.at(lane).state : m_state[lane];
    }
    // Its chunk was released and it did not survive: cleared, with nothing kept.
    bool gone(MessageIndex lane) const { return m_first.released(lane) && !m_laneSurvivors.contains(lane); }
    // Releases what the index holds of events before `firstHeld` (the log's firstRetained()).
    void forget(const RunView& run, size_t firstHeld);
    void advanceHeads(size_t firstHeld); // each chain to its first held event
    void clearLane(MessageIndex lane);
    // A lane the log named only after its first events were released unread.
    void adoptUnread(const RunView& run, MessageIndex lane);
    void noteHead(MessageIndex lane, uint32_t event) { headsIn(event).push_back(lane); }
    std::vector<MessageIndex>& headsIn(uint32_t event);
    void indexQueueMark(const Event& e, uint32_t index); // refusals, operator actions, warnings, noisy tenants
    void indexActorStep(const Event& e); // polls, processing, crashes; Lambda function timeouts
    void indexRedriveChange(const Event& e, const std::string& text);
    // The position of a lane event among all lane events: a bit per log event plus a count per 64 of them.
    size_t rank(uint32_t event) const
    {
        const size_t word = event / 64;
        const uint64_t below = m_isLaneEvent[word] & ((uint64_t(1) << (event % 64)) - 1);
        return m_wordRank[word] + size_t(std::popcount(below));
    }

    struct LaneBlock {
        TimeMs born = 0; // of its first lane
        TimeMs lastEnd = 0; // the latest event of its lanes not live
        uint32_t live = 0; // lanes live
        // The earliest, after `born` (none yet: UINT32_MAX; past 49 days, no later than it was): a window from
        // before it lists every lane of the block. 32 bits keep the block 24 bytes.
        uint32_t firstEndAfterBorn = UINT32_MAX;
    };
    static constexpr unsigned kBlockBits = 8;
    void trackLife(const Event& e, MessageState before); // the lane's block summary

    size_t m_read = 0;
    const EventLog* m_log = nullptr; // the log read (the engine's, alive as long as this index is used)
    std::vector<LaneBlock> m_blocks;
    // Chain heads as separate columns (9 bytes a lane); duplicates are rare, so they live in a map. A chunk of lanes
    // all cleared is released.
    static constexpr unsigned kLaneChunkBits = 14;
    ChunkedVector<uint32_t, kLaneChunkBits> m_first;
    ChunkedVector<uint32_t, kLaneChunkBits> m_last;
    ChunkedVector<MessageState, kLaneChunkBits> m_state;
    std::unordered_map<MessageIndex, uint16_t> m_duplicates;
    // Links only for events that belong to a lane: the next event of the same lane, by the event's rank.
    ChunkedVector<uint64_t, 10> m_isLaneEvent;
    ChunkedVector<uint32_t, 10> m_wordRank;
    ChunkedVector<uint32_t, 14> m_links;
    // Forgetting: the lanes whose chain starts in each span of 1,024 events (advanced when the span is forgotten),
    // the cleared lanes per chunk of lanes, the steps held per actor.
    static constexpr unsigned kHeadSpanBits = 10;
    std::deque<std::vector<MessageIndex>> m_heads; // from span m_headSpansDone on
    size_t m_headSpansDone = 0;
    std::vector<uint32_t> m_clearedInChunk;
    std::map<MessageIndex, LaneHead> m_laneSurvivors; // ordered: a released block's survivors are a range
    size_t m_clearedCount = 0;
    size_t m_forgotten = 0;
    TimeMs m_forgottenUntil = 0;
    std::vector<size_t> m_firstStep;
    size_t m_laneEvents = 0;
    std::vector<std::unique_ptr<ChunkedVector<ActorStep, 12>>> m_actorSteps; // chunked: no growth slack
    std::vector<std::vector<uint32_t>> m_refusals;
    std::vector<std::vector<uint32_t>> m_notes;
    std::vector<std::vector<uint32_t>> m_tenantMarks;
    std::vector<std::vector<std::pair<TimeMs, uint32_t>>> m_redrive; // per queue: (when, maxReceiveCount) changes
    std::vector<TimeMs> m_openPoll;
    std::vector<TimeMs> m_functionTimeout; // per actor
    uint32_t m_statesSeen = 0; // bit per MessageState
    std::bitset<kCauseCapacity> m_causesSeen; // bit per Cause
    bool m_inferredSeen = false;
    std::unordered_map<uint32_t, std::vector<TimeMs>> m_timedOut;
    std::unordered_map<uint32_t, std::vector<uint32_t>>
        m_scriptCalls; // per client actor // per actor: ends of timed-out invocations, sorted
};

} // namespace lifeline
