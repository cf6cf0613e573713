// The SQS engine: queues and messages on a virtual clock. No Qt, no wall clock, no threads.
// Every state change is appended to the event log; bad input returns SQS's error and changes nothing.
#pragma once

#include "lifeline/chunked_vector.h"
#include "lifeline/compact_text.h"
#include "lifeline/event_log.h"
#include "lifeline/lane_times.h"
#include "lifeline/queue_attributes.h"
#include "lifeline/result.h"
#include "lifeline/sqs_types.h"
#include "lifeline/timer_queue.h"

#include <array>
#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

namespace lifeline {

struct EngineOptions {
    std::string region = "us-east-1";
    std::string accountId = "000000000000";
    int64_t epochMs = 1767225600000; // wall-clock value of virtual time 0 (2026-01-01T00:00:00Z), for timestamps
    uint64_t seed = 1; // message ids and receipt handles derive from it
    AwsLimits limits = AwsLimits::Current;
    // A standard queue's DeleteMessage with an old receipt handle (the message was received again since):
    // AWS says it "might not" delete; the default deletes, as moto and LocalStack do (sqs-semantics.md 1.6).
    bool staleHandleDeletes = true;
    std::string senderId = "AIDAIT2UOQQY3AUEKVGXU";
    // Keep the body (up to kKeptBodyBytes) of a message that ended, so a viewer can show and search it. Off, the
    // engine frees every body when its message ends: the choice for throughput and memory at scale.
    bool keepEndedBodies = false;
    // MD5 of each body as it is sent (MD5OfMessageBody, MD5OfBody). A simulation turns it off: its consumers check
    // no digest, and MD5 is about a twentieth of a simulated message's cost. Off, the digests read as zeros.
    bool bodyDigests = true;
    // MessageId and receipt handle strings in send results and received messages. A simulation turns it off: it
    // knows messages by their lane and receipts by ReceivedMessage::receipt, and formatting (and parsing back) those
    // strings costs a sixth of a simulated message. Engine::messageId() and receiptHandle() always work.
    bool idStrings = true;
    // How long the engine remembers what ended: messages that ended and events that happened longer ago than this
    // are forgotten (released in whole chunks, a second of virtual time apart), so memory returns to its baseline
    // once messages end. Negative: remember everything (the window, simulations, recordings). A headless endpoint,
    // which nobody watches, sets it (`lifeline serve --headless --history`).
    int64_t historyMs = -1;
};

// With EngineOptions::keepEndedBodies, bodies up to this size stay with a lane after its message ends.
inline constexpr size_t kKeptBodyBytes = 1024;

// A MessageId (a version 4 UUID) as two numbers; formatMessageId() writes it as SQS does.
struct MessageIdParts {
    uint64_t hi = 0, lo = 0;
    friend bool operator==(const MessageIdParts&, const MessageIdParts&) = default;
};
// 8-4-4-4-12 lower-case hex.
std::string formatMessageId(MessageIdParts id);

// Where a lane's MessageId comes from (Engine::messageIdParts): it is not kept in the lane, which a simulation holds
// millions of.
enum class IdSource : uint8_t {
    Lane, // drawn from the run's seed and the lane's index: every message the engine's own send starts
    Origin, // the same as the lane it continues (MessageExtra::origin): a dead-lettered message's new lane
    Kept, // kept beside the lanes: a run file's lanes, the recording proxy's, a dead-lettered one's new lane again
};

// One message lane, readable by viewers. Fields stay valid after the message ends (the body may be released).
struct MessageRecord {
    CompactText body;
    // Its times, packed: read them with Engine::times(lane) (the enqueue alone is always here, whole).
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
    MessageIndex origin = kNoMessage; // the lane this one continues (DLQ arrival) or was redriven from
};

struct QueueInfo {
    std::string name;
    std::string arn;
    bool alive = true;
    bool fifo = false;
    TimeMs createdAt = 0;
};

struct QueueState; // engine-internal

class Engine {
public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // --- clock -------------------------------------------------------------------------------------------
    TimeMs now() const { return m_now; }
    // Fires every transition due up to `time`, in time order, then sets the clock to `time` (never backwards).
    void advanceTo(TimeMs time);
    void advanceBy(TimeMs delta) { advanceTo(m_now + delta); }
    // The time of the next transition the engine would fire by itself, or INT64_MAX.
    TimeMs nextDueTime();
    // Never later than nextDueTime(), and much cheaper: it may be earlier when the oldest messages ended, which
    // costs a loop that advances the clock one extra step with nothing due. For loops that advance the clock.
    TimeMs nextDueBound();

    // --- queues ------------------------------------------------------------------------------------------
    // Every call that changes something takes the actor that makes it (the operator when none is named); refusals and
    // the events a call causes carry it.
    Result<std::string> createQueue(const std::string& name, const AttributeMap& attributes = {},
        const std::map<std::string, std::string>& tags = {}, uint32_t actor = kOperatorActor);
    Result<std::string> getQueueArn(const std::string& name) const;
    std::vector<std::string> listQueues(const std::string& prefix = {}) const;
    Status deleteQueue(const std::string& name, uint32_t actor = kOperatorActor);
    Status purgeQueue(const std::string& name, uint32_t actor = kOperatorActor);
    Result<AttributeMap> getQueueAttributes(const std::string& name, const std::vector<std::string>& names) const;
    Status setQueueAttributes(const std::string& name, const AttributeMap& attributes, uint32_t actor = kOperatorActor);
    Result<std::vector<std::string>> listDeadLetterSourceQueues(const std::string& name) const;
    Status tagQueue(
        const std::string& name, const std::map<std::string, std::string>& tags, uint32_t actor = kOperatorActor);
    Status untagQueue(const std::string& name, const std::vector<std::string>& keys, uint32_t actor = kOperatorActor);
    Result<std::map<std::string, std::string>> listQueueTags(const std::string& name) const;
    Result<QueueCounters> counters(const std::string& name) const;

    // --- messages ----------------------------------------------------------------------------------------
    Result<SendMessageResult> sendMessage(const SendMessageRequest& request);
    // SendMessage for a caller that wants no answer (the simulation's producers): the same checks, refusals and
    // log, without handing back the answer. The lane the message lives in, or kNoMessage when refused.
    MessageIndex send(const SendMessageRequest& request);
    Result<BatchResult<SendMessageResult>> sendMessageBatch(
        const std::string& queue, const std::vector<SendMessageBatchEntry>& entries, uint32_t actor = kOperatorActor);
    Result<ReceiveOutcome> receiveMessage(const ReceiveMessageRequest& request);
    std::vector<CompletedPoll> takeCompletedPolls();
    // The same into `out` (cleared first), trading buffers with it: a caller that keeps `out` allocates nothing.
    void takeCompletedPolls(std::vector<CompletedPoll>& out);
    bool hasCompletedPolls() const { return !m_completed.empty(); }
    // The client of a waiting long poll went away (a closed connection): the poll ends now, with nothing, so no
    // message is received on behalf of nobody. False when the poll is not waiting.
    bool cancelPoll(PollId poll);
    size_t pendingPollCount() const;
    Status deleteMessage(const std::string& queue, const std::string& receiptHandle, uint32_t actor = kOperatorActor);
    // The same with the receipt a ReceivedMessage carries: what the handle string would say, without the string.
    Status deleteMessage(const std::string& queue, const Receipt& receipt, uint32_t actor = kOperatorActor);
    Result<BatchResult<bool>> deleteMessageBatch(
        const std::string& queue, const std::vector<DeleteMessageBatchEntry>& entries, uint32_t actor = kOperatorActor);
    Status changeMessageVisibility(const std::string& queue, const std::string& receiptHandle,
        int64_t visibilityTimeout, uint32_t actor = kOperatorActor);
    Status changeMessageVisibility(
        const std::string& queue, const Receipt& receipt, int64_t visibilityTimeout, uint32_t actor = kOperatorActor);
    // The handle string of a receipt (what a ReceivedMessage's receiptHandle holds with idStrings on).
    std::string receiptHandle(const Receipt& receipt) const;
    Result<BatchResult<bool>> changeMessageVisibilityBatch(const std::string& queue,
        const std::vector<ChangeVisibilityBatchEntry>& entries, uint32_t actor = kOperatorActor);

    // --- redrive (message move tasks) --------------------------------------------------------------------
    Result<std::string> startMessageMoveTask(const std::string& sourceArn,
        const std::optional<std::string>& destinationArn, std::optional<int64_t> maxNumberOfMessagesPerSecond,
        uint32_t actor = kOperatorActor);
    Result<std::vector<MoveTaskInfo>> listMessageMoveTasks(const std::string& sourceArn, int64_t maxResults = 1) const;
    Result<int64_t> cancelMessageMoveTask(const std::string& taskHandle, uint32_t actor = kOperatorActor);

    // --- actors ------------------------------------------------------------------------------------------
    // Appends an actor's decision (processing, crash, warning, ...) to the log at the current time. `text`, when
    // given, is stored and its index becomes the event's detail.
    void recordActorEvent(Cause cause, uint32_t actor, MessageIndex lane = kNoMessage, QueueIndex queue = kNoQueue,
        uint32_t detail = 0, const std::string* text = nullptr);

    // --- what viewers read -------------------------------------------------------------------------------
    const EventLog& log() const { return m_log; }
    size_t messageCount() const { return m_messages.size(); }
    // A forgotten lane (see EngineOptions::historyMs) reads as an empty record in state None.
    const MessageRecord& message(MessageIndex lane) const
    {
        return m_messages.released(lane) ? kForgottenMessage : m_messages[lane];
    }
    // The lane ended longer ago than the history the engine keeps, and its record was released.
    bool forgotten(MessageIndex lane) const { return m_messages.released(lane); }
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
    size_t queueCount() const { return m_queueInfo.size(); }
    const QueueInfo& queueInfo(QueueIndex index) const { return m_queueInfo[index]; }
    std::optional<QueueIndex> queueIndex(const std::string& name) const;
    // The queue's attributes as they are now (also for a deleted queue: as they were).
    const QueueAttributes* queueAttributes(QueueIndex index) const;
    const EngineOptions& options() const { return m_options; }
    // Memory the engine holds for messages, queues and the log (an estimate from capacities and a running count of
    // the bodies, so it is cheap to ask every frame).
    size_t bytesUsed() const;
    // The heap the held lanes' long bodies take (part of bytesUsed()), counted as bodies are written and dropped.
    size_t bodyHeapBytes() const { return m_bodyHeapBytes; }
    // Lane records held (forgotten ones excluded).
    size_t heldMessageCount() const { return m_messages.capacity(); }

private:
    friend struct EngineAccess;
    friend struct ObservedRunAccess; // observe/observer.cpp: lanes written from what the recording proxy saw
    struct Timer {
        TimeMs at;
        uint64_t seq;
        uint32_t target;
        uint8_t kind;
        bool operator>(const Timer& other) const { return at != other.at ? at > other.at : seq > other.seq; }
    };
    enum TimerKind : uint8_t { DelayEnd, VisibilityEnd, PollTimeout, MoveTaskTick };
    // What a bounded history needs to know of each chunk of lane records to release it.
    struct LaneChunk {
        uint32_t live = 0; // lanes not yet ended
        TimeMs holdUntil = INT64_MIN; // the latest end plus the history kept, or a FIFO send's deduplication window
    };
    static const MessageRecord kForgottenMessage;
    static constexpr size_t kLaneChunkBits = 12;
    struct PendingPoll;
    struct MoveTask;

    QueueState* findQueue(const std::string& name) const;
    QueueState* findQueueByArn(const std::string& arn) const;
    Result<QueueState*> requireQueue(const std::string& name) const;
    std::string arnFor(const std::string& name) const;
    SqsError refuse(QueueIndex queue, SqsError error, uint32_t actor, MessageIndex lane = kNoMessage);
    // A request SQS answers OK without changing anything: logged on the message's lane, so a viewer shows it.
    void noEffect(MessageIndex lane, NoEffectKind kind, uint32_t actor);
    void noEffect(MessageIndex lane, QueueIndex queue, NoEffectKind kind, uint32_t actor); // a forgotten lane
    void logEvent(TimeMs time, MessageIndex lane, QueueIndex queue, MessageState from, MessageState to, Cause cause,
        uint32_t actor = kSqsActor, uint32_t detail = 0);
    void setState(MessageIndex lane, MessageState to, Cause cause, uint32_t actor = kSqsActor, uint32_t detail = 0);
    void addTimer(TimeMs at, TimerKind kind, uint32_t target);
    MessageExtra& extraFor(MessageIndex lane);
    // Packs the lane's times into its record, or keeps them whole in m_wideTimes when they do not pack.
    void setTimes(MessageIndex lane, const LaneTimes& times)
    {
        PackedLaneTimes& packed = m_messages[lane].packedTimes;
        const bool wasWide = packed.wide();
        if (!packed.pack(times))
            m_wideTimes[lane] = times;
        else if (wasWide)
            m_wideTimes.erase(lane);
    }
    // Every write of a held lane's body goes through these, so bytesUsed() keeps a running count of the bodies' heap.
    void setBody(MessageIndex lane, std::string_view body);
    void clearBody(MessageIndex lane);
    // A long body's heap block and malloc's header for it (0: kept inline).
    static size_t bodyHeapCost(const CompactText& body) { return body.heapBytes() > 0 ? body.heapBytes() + 16 : 0; }
    MessageIdParts newUuid();
    // The id of a lane the engine's send started, from the run's seed and the lane's index: the same run gives the
    // same ids, and no lane keeps 16 bytes for it.
    MessageIdParts laneUuid(MessageIndex lane) const;
    void keepMessageId(MessageIndex lane, MessageIdParts id);

    std::optional<SqsError> validateRedrive(const QueueState& queue, const QueueAttributes& attributes) const;
    std::optional<SqsError> validateSend(const QueueState& queue, const std::string& body,
        const std::optional<int64_t>& delaySeconds, const std::vector<MessageAttribute>& attributes,
        const std::optional<std::string>& groupId, const std::optional<std::string>& dedupId, bool inBatch) const;
    // The queue a SendMessage goes to, or the error it is refused with (logged on the queue's row).
    Result<QueueState*> admitSend(const SendMessageRequest& request);
    SendMessageResult enqueue(QueueState& queue, const SendMessageRequest& request);
    SendMessageResult enqueue(QueueState& queue, const std::string& body, std::optional<int64_t> delaySeconds,
        const std::vector<MessageAttribute>& attributes, const std::optional<std::string>& groupId,
        const std::optional<std::string>& dedupId, const std::optional<std::string>& traceHeader, uint32_t actor);
    MessageIndex newLane(QueueState& queue, TimeMs delayMs, Cause cause, uint32_t actor, uint32_t detail);
    void makeVisible(QueueState& queue, MessageIndex lane);
    // Receives up to `max` messages into `out`: a std::vector<ReceivedMessage> or a DeliveryList.
    template <class Out>
    void collect(QueueState& queue, size_t max, int64_t visibilitySeconds, uint32_t actor, Out& out);
    bool takeOrDeadLetter(QueueState& queue, MessageIndex lane, uint32_t receiver); // false: moved to the DLQ
    // The receive itself: the lane in flight, its timer set and logged. Returns its times after.
    LaneTimes deliver(QueueState& queue, MessageIndex lane, int64_t visibilitySeconds, uint32_t actor);
    void deliverTo(std::vector<ReceivedMessage>& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds,
        uint32_t actor);
    void deliverTo(DeliveryList& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds, uint32_t actor);
    void describe(ReceivedMessage& m, const QueueState& queue, MessageIndex lane, const LaneTimes& times) const;
    void moveToDeadLetterQueue(QueueState& source, MessageIndex lane, uint32_t receiver);
    void endMessage(QueueState& queue, MessageIndex lane, MessageState to, Cause cause, uint32_t actor = kSqsActor,
        uint32_t detail = 0);
    void leaveCounters(QueueState& queue, MessageState state);
    void enterCounters(QueueState& queue, MessageState state);
    void markAvailable(QueueState& queue, MessageIndex lane);
    void flushWakeups();
    void settlePresent(); // flushWakeups() once something is due now or woken
    void servePolls(QueueState& queue);
    // Ends a waiting poll with `count` messages: logged, its slot freed, its answer (filled by the caller) queued.
    CompletedPoll& completePoll(size_t pollSlot, size_t count, bool queueDeleted);
    template <class Out> bool servePoll(QueueState& queue, size_t slot, Out& out); // false: nothing to receive
    void freePollSlot(size_t slot);
    TimeMs nextExpiry(QueueState& queue);
    void lowerExpiryBound(QueueState& queue, TimeMs enqueuedAt);
    void fire(const Timer& timer);
    void expireDue(QueueState& queue, TimeMs time);
    void tickMoveTask(uint32_t task);
    std::optional<Receipt> parseReceipt(const std::string& handle) const;
    bool isIssued(const Receipt& receipt) const; // a receipt this engine gave out (for any queue)
    // Handle strings are parsed into receipts first. Error texts quote the handle as the client sent it (`text`),
    // or as formatted from the receipt when there was no string.
    std::optional<SqsError> deleteOne(QueueState& queue, const std::string& handle, uint32_t actor);
    std::optional<SqsError> deleteOne(
        QueueState& queue, const Receipt& receipt, uint32_t actor, const std::string* text = nullptr);
    std::optional<SqsError> changeVisibilityOne(
        QueueState& queue, const std::string& handle, int64_t seconds, uint32_t actor);
    std::optional<SqsError> changeVisibilityOne(
        QueueState& queue, const Receipt& receipt, int64_t seconds, uint32_t actor, const std::string* text = nullptr);
    void applyFifoDelayChange(QueueState& queue, int64_t oldDelaySeconds, uint32_t actor);
    void addToGroup(QueueState& queue, MessageIndex lane, const std::string& groupId);
    static std::string nextSequenceNumber(QueueState& queue);
    void redriveOne(MoveTask& task, QueueState& source, MessageIndex lane);
    void purgeDeduplication(QueueState& queue);
    void endAllMessages(QueueState& queue, MessageState to, Cause cause, uint32_t actor);
    // Appends an empty lane record in `queue` (a new message, a DLQ arrival) and counts it live in its chunk.
    MessageIndex addLane(QueueIndex queue);
    uint32_t addExtra(MessageExtra extra); // reuses the slot of a forgotten lane's extra
    // Without a bounded history nothing is released: the first test spares the hot paths the chunk lookup.
    bool gone(MessageIndex lane) const { return m_options.historyMs >= 0 && m_messages.released(lane); }
    // Drops ended lanes from the fronts of a queue's lazy lists, and empty FIFO groups.
    void trimLazyLists(QueueState& queue);
    // The lane no longer counts in `queue`: forgotten, ended, or moved elsewhere (what the lazy lists skip).
    bool endedIn(const QueueState& queue, MessageIndex lane) const;
    // The retention lists (byEnqueue, lateArrivals) without their ended fronts, compacted when mostly ended.
    void trimRetentionLists(QueueState& queue);
    // Forgets ended lanes and events older than the history kept (historyMs), once a second of virtual time.
    void forgetHistory();
    bool staleTimer(const Timer& timer) const; // firing it would do nothing (what fire() checks first)

    EngineOptions m_options;
    TimeMs m_now = 0;
    uint64_t m_rng;
    uint64_t m_idKey; // laneUuid's key, from the seed
    std::vector<MessageIdParts> m_keptIds; // by lane, for the lanes whose IdSource is Kept (zero for the others)
    std::unordered_map<MessageIndex, LaneTimes> m_wideTimes; // the lanes whose times do not pack (PackedLaneTimes)
    uint64_t m_timerSeq = 0;
    uint32_t m_nextQueueUid = 1;
    EventLog m_log;
    ChunkedVector<MessageRecord, kLaneChunkBits> m_messages; // smaller chunks: each is constructed when it is added
    size_t m_bodyHeapBytes = 0; // bodyHeapCost of every held lane's body
    std::vector<MessageExtra> m_extras;
    std::vector<uint32_t> m_freeExtras; // slots of forgotten lanes' extras
    std::vector<LaneChunk> m_laneChunks; // with a bounded history only
    size_t m_firstHeldChunk = 0;
    TimeMs m_nextForget = 0;
    std::vector<QueueInfo> m_queueInfo;
    std::vector<std::unique_ptr<QueueState>> m_queues; // parallel to m_queueInfo
    TimerQueue<Timer> m_timers;
    std::vector<PendingPoll> m_polls; // slots; id 0 when free
    std::vector<size_t> m_freePollSlots;
    PollId m_nextPoll = 1;
    std::vector<CompletedPoll> m_completed;
    std::vector<QueueIndex> m_wakeups;
    std::vector<std::unique_ptr<MoveTask>> m_moveTasks;
    std::map<std::string, TimeMs> m_recentlyDeleted; // queue name -> when it was deleted
};

// Inline, its test only: most calls find nothing due now or woken.
inline void Engine::flushWakeups()
{
    if (!m_wakeups.empty() || m_timers.earliest(INT64_MAX) <= m_now)
        settlePresent();
}

// Inline: most of a run's events come through here.
inline void Engine::logEvent(TimeMs time, MessageIndex lane, QueueIndex queue, MessageState from, MessageState to,
    Cause cause, uint32_t actor, uint32_t detail)
{
    m_log.append(Event { time, lane, actor, detail, queue, from, to, cause });
}

} // namespace lifeline
