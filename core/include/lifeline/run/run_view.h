// What happened in a run, read-only: its lanes, its event log, its queues and their counters. Every viewer (the
// timeline, exports, LaneIndex, the depth and density series, moments, summaries) reads a run through a
// `const RunView&`, whoever wrote it: the Engine as it applies SQS's rules, the run-file reader, the recording
// proxy's observer. Only a RunStore (run_store.h) writes one.
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/run/lane_times.h"
#include "lifeline/run/queue_attributes.h"
#include "lifeline/run/sqs_types.h"
#include "lifeline/support/chunked_vector.h"
#include "lifeline/support/compact_text.h"

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace lifeline {

// With EngineOptions::keepEndedBodies, bodies up to this size stay with a lane after its message ends.
inline constexpr size_t kKeptBodyBytes = 1024;

// A MessageId (a version 4 UUID) as two numbers; formatMessageId() writes it as SQS does.
struct MessageIdParts {
    uint64_t hi = 0, lo = 0;
    friend bool operator==(const MessageIdParts&, const MessageIdParts&) = default;
};
// 8-4-4-4-12 lower-case hex.
std::string formatMessageId(MessageIdParts id);
// A version 4 UUID (RFC 9562) from 128 random bits: the version and variant bits set.
inline MessageIdParts asUuid(uint64_t hi, uint64_t lo)
{
    return { (hi & 0xffffffffffff0fffULL) | 0x4000ULL, (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL };
}

// Who acted in a run; the log's events name an actor by its index (Event::actor).
struct Actor {
    std::string name; // "worker-2", "Boto3/1.34 AKIA12"
    // What it is one of: a simulation's consumer spec for each of its workers ("worker" for worker-1 and worker-2);
    // its own name for every other actor. The consumer tiles and the density rows gather actors by it.
    std::string group;
};

// Where a lane's MessageId comes from (RunView::messageIdParts): it is not kept in the lane, which a simulation holds
// millions of.
enum class IdSource : uint8_t {
    Lane, // drawn from the run's seed and the lane's index: every message the engine's own send starts
    Origin, // the same as the lane it continues (MessageExtra::origin): a dead-lettered message's new lane
    Kept, // kept beside the lanes: a run file's lanes, the recording proxy's, a dead-lettered one's new lane again
};

// One message lane. Fields stay valid after the message ends (the body may be released).
struct MessageRecord {
    CompactText body;
    // Its times, packed: read them with RunView::times(lane) (the enqueue alone is always here, whole).
    PackedLaneTimes packedTimes;
    uint32_t receiveCount = 0;
    uint32_t extra = UINT32_MAX; // index of MessageExtra, or none
    QueueIndex queue = kNoQueue;
    MessageState state = MessageState::None;
    IdSource idSource = IdSource::Lane;
};

// What few messages carry: attributes, FIFO ids, DLQ origin.
struct MessageExtra {
    std::vector<MessageAttribute> attributes;
    std::string md5OfAttributes;
    std::string groupId;
    std::string deduplicationId;
    std::string sequenceNumber;
    std::string awsTraceHeader;
    std::string deadLetterQueueSourceArn;
    MessageIndex origin = kNoMessage; // the lane this one continues (DLQ arrival), copies, or was redriven from
    bool copy = false; // an injected duplicate's copy of `origin`: the same message (docs/faults.md)
    std::string label; // what a scenario calls the message ("the retry"): the timeline names its lane so
    std::string bodyName; // the name its body gave its lane, kept when the body was freed at its end (laneName)
};

// A queue as a run knows it. Its counters follow its lanes' states (RunStore::transition keeps them).
struct QueueInfo {
    std::string name;
    std::string arn;
    bool alive = true;
    bool fifo = false;
    TimeMs createdAt = 0;
    TimeMs modifiedAt = 0;
    QueueAttributes attributes; // as they are now (for a deleted queue: as they were)
    QueueCounters counters;
};

class RunView {
public:
    RunView(const RunView&) = delete;
    RunView& operator=(const RunView&) = delete;

    // The run's clock: where it has got to.
    TimeMs now() const { return m_now; }
    const EventLog& log() const { return m_log; }

    size_t messageCount() const { return m_lanes.size(); }
    // A forgotten lane (see EngineOptions::historyMs) reads as an empty record in state None.
    const MessageRecord& message(MessageIndex lane) const
    {
        if (!m_lanes.released(lane))
            return m_lanes[lane];
        const auto survivor = m_survivors.find(lane);
        return survivor == m_survivors.end() ? kForgottenMessage : survivor->second;
    }
    // The lane ended longer ago than the history the run keeps, and its record was released.
    bool forgotten(MessageIndex lane) const { return m_lanes.released(lane) && !m_survivors.contains(lane); }
    // The chunk of lane records holding `lane` was released (the lane is forgotten or kept beside it as a survivor).
    bool recordChunkReleased(MessageIndex lane) const { return m_lanes.released(lane); }
    static constexpr size_t kLaneRecordChunk = size_t(1) << 12;
    // How long the run remembers what ended (EngineOptions::historyMs); negative: everything.
    TimeMs historyMs() const { return m_historyMs; }
    // The lane's times (a forgotten lane's read as an empty record's).
    LaneTimes times(MessageIndex lane) const
    {
        const PackedLaneTimes& packed = message(lane).packedTimes;
        return packed.wide() ? m_wideTimes.at(lane) : packed.unpack();
    }
    MessageIdParts messageIdParts(MessageIndex lane) const;
    std::string messageId(MessageIndex lane) const { return formatMessageId(messageIdParts(lane)); }
    const MessageExtra* extra(MessageIndex lane) const;
    // The lane where this message first appeared: a message moved to a DLQ continues in a new lane with the same
    // MessageId (a redriven one is a new message and is its own first lane).
    MessageIndex firstLaneOf(MessageIndex lane) const;

    size_t queueCount() const { return m_queues.size(); }
    const QueueInfo& queueInfo(QueueIndex index) const { return m_queues[index]; }
    // A queue that is alive, by name.
    std::optional<QueueIndex> queueIndex(const std::string& name) const;
    const QueueAttributes* queueAttributes(QueueIndex index) const
    {
        return index < m_queues.size() ? &m_queues[index].attributes : nullptr;
    }

    // The actors, by the index events name them with: 0 is SQS and 1 the operator (event_log.h); a simulation adds its
    // producers, consumers and pollers, a server its clients.
    size_t actorCount() const { return m_actors.size(); }
    // An actor the run does not know (a damaged file's) reads as "client N", its group its name.
    std::string actorName(uint32_t actor) const;
    std::string actorGroup(uint32_t actor) const;

    // Every lane's extras, by the index MessageRecord::extra holds (a run file writes them as one table).
    static constexpr size_t kExtraChunkBits = 8; // 256 extras a chunk: a run with few holds little
    const ChunkedVector<MessageExtra, kExtraChunkBits>& extras() const { return m_extras; }

    // Memory the run holds for lanes, extras and the log (an estimate from capacities and a running count of the
    // bodies, so it is cheap to ask every frame).
    size_t bytesUsed() const;
    // The heap the held lanes' long bodies take (part of bytesUsed()), counted as bodies are written and dropped.
    size_t bodyHeapBytes() const { return m_bodyHeapBytes; }
    // Lane records held (forgotten ones excluded).
    size_t heldMessageCount() const { return m_lanes.capacity() + m_survivors.size(); }

protected:
    static constexpr size_t kLaneChunkBits = 12; // smaller chunks: each is constructed when it is added
    // What a bounded history needs to know of each chunk of lane records to release it.
    struct LaneChunk {
        uint32_t live = 0; // lanes not yet ended
        TimeMs holdUntil = INT64_MIN; // the latest end plus the history kept, or a FIFO send's deduplication window
    };
    static const MessageRecord kForgottenMessage;

    RunView(uint64_t idSeed, TimeMs historyMs);
    ~RunView() = default;
    // The id of a lane the engine's send started, from the run's seed and the lane's index: the same run gives the
    // same ids, and no lane keeps 16 bytes for it.
    MessageIdParts laneUuid(MessageIndex lane) const;

    TimeMs m_now = 0;
    TimeMs m_historyMs; // negative: everything is kept
    uint64_t m_idKey; // laneUuid's key, from the seed
    EventLog m_log;
    ChunkedVector<MessageRecord, kLaneChunkBits> m_lanes;
    // The records of lanes still live when their chunk was released (a message left in a DLQ for days must not hold
    // its 4,095 neighbours): kept here until they end and their hold passes.
    std::unordered_map<MessageIndex, MessageRecord> m_survivors;
    std::deque<std::pair<TimeMs, MessageIndex>> m_survivorsEnded; // (forget at, lane), in time order
    std::unordered_map<MessageIndex, LaneTimes> m_wideTimes; // the lanes whose times do not pack (PackedLaneTimes)
    std::vector<MessageIdParts> m_keptIds; // by lane, for the lanes whose IdSource is Kept (zero for the others)
    ChunkedVector<MessageExtra, kExtraChunkBits> m_extras; // chunked: a run with many grows without moving them
    std::vector<uint32_t> m_freeExtras; // slots of forgotten lanes' extras
    size_t m_bodyHeapBytes = 0; // the heap of every held lane's body and malloc's header for it
    std::vector<Actor> m_actors { { "SQS", "SQS" }, { "operator", "operator" } }; // kSqsActor, kOperatorActor
    std::deque<QueueInfo> m_queues; // a deque: an entry stays where it is as queues are added (QueueState points to it)
    std::vector<LaneChunk> m_laneChunks; // with a bounded history only
    size_t m_firstHeldChunk = 0;
};

} // namespace lifeline
