// The SQS engine: queues and messages on a virtual clock. No Qt, no wall clock, no threads.
// Every state change is appended to the event log; bad input returns SQS's error and changes nothing.
#pragma once

#include "lifeline/engine/faults.h"
#include "lifeline/run/queue_attributes.h"
#include "lifeline/run/run_store.h"
#include "lifeline/run/sqs_types.h"
#include "lifeline/support/result.h"
#include "lifeline/support/timer_queue.h"

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
    // are forgotten (released in whole chunks, a quarter of a second of virtual time apart), so memory returns to its
    // baseline once messages end. Negative: remember everything (the window, simulations, recordings). A headless
    // endpoint, which nobody watches, sets it (`lifeline serve --headless --history`).
    int64_t historyMs = -1;
    // Whether the engine forgets on its own as its clock moves (a headless endpoint), or only when forgetHistory() is
    // called (the window: between frames, so nothing on screen still points into what is released).
    bool forgetsOnItsOwn = true;
    // SQS's quotas (engine_quotas.cpp; docs/decisions.md, "Quotas"): at most 120,000 messages in flight on a queue
    // (a standard queue's short poll answers OverLimit, a FIFO queue's receive returns fewer), and a FIFO queue's
    // 300 SendMessage, ReceiveMessage and DeleteMessage calls each a second (70,000 in high-throughput mode) before
    // ThrottlingException. Off by default so lessons stay simple: `lifeline serve --quotas`, a scenario's "quotas".
    bool quotas = false;
    // SQS's own faults, injected (faults.h, docs/faults.md): a scenario's "faults". None by default; setFaults()
    // changes them while the engine runs.
    std::optional<FaultPlan> faults = std::nullopt;
};

struct QueueState; // engine-internal

class Engine {
public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // --- clock -------------------------------------------------------------------------------------------
    TimeMs now() const { return m_run.now(); }
    // Fires every transition due up to `time`, in time order, then sets the clock to `time` (never backwards).
    void advanceTo(TimeMs time);
    // Forgets ended lanes and events older than the history kept (historyMs; nothing when it is negative). The
    // engine calls it itself every 250 ms of virtual time unless forgetsOnItsOwn is false.
    void forgetHistory();
    void advanceBy(TimeMs delta) { advanceTo(now() + delta); }
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
    // A statement in the queue's Policy allowing `actions` ("SendMessage") to `accounts`, labelled; and its removal
    // (the last one removes the Policy). Kept and given back as AWS writes it; nothing is enforced (no IAM).
    Status addPermission(const std::string& name, const std::string& label, const std::vector<std::string>& accounts,
        const std::vector<std::string>& actions, uint32_t actor = kOperatorActor);
    Status removePermission(const std::string& name, const std::string& label, uint32_t actor = kOperatorActor);
    Result<QueueCounters> counters(const std::string& name) const;

    // --- messages ----------------------------------------------------------------------------------------
    Result<SendMessageResult> sendMessage(const SendMessageRequest& request);
    // SendMessage for a caller that wants no answer (the simulation's producers): the same checks, refusals and
    // log, without handing back the answer. The lane the message lives in, or kNoMessage when refused.
    MessageIndex send(const SendMessageRequest& request);
    // What a scenario calls the message in this lane ("the retry"): not SQS's, only the timeline's name for it.
    void labelLane(MessageIndex lane, std::string label);
    Result<BatchResult<SendMessageResult>> sendMessageBatch(
        const std::string& queue, const std::vector<SendMessageBatchEntry>& entries, uint32_t actor = kOperatorActor);
    Result<ReceiveOutcome> receiveMessage(const ReceiveMessageRequest& request);
    // A look inside a queue that changes nothing (a test's, the endpoint's /_aws/sqs/messages): its messages' lanes
    // without their bodies, the in-flight ones first when asked, then the visible, then the delayed when asked; each
    // kind in send order, with its state. Then each one as a receive would describe it, without receiving it (no
    // receive counted, no visibility changed), one at a time: a peek at a hundred 1 MiB messages holds one of them.
    struct PeekedLane {
        MessageIndex lane;
        QueueIndex queue;
        MessageState state;
    };
    Result<std::vector<PeekedLane>> peekLanes(const std::string& queue, bool inFlight, bool delayed) const;
    // Nothing once the message has left the queue or the state it was peeked in (received, deleted, moved since).
    std::optional<ReceivedMessage> describePeeked(const PeekedLane& peeked) const;
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
    // A new actor in the run's table (RunStore::addActor): its index is what events name it by.
    uint32_t addActor(std::string name, std::string group = {})
    {
        return m_run.addActor(std::move(name), std::move(group));
    }

    // --- faults SQS really has, injected (docs/faults.md) ------------------------------------------------
    // The faults from now on (none: off, the default); the dice start again from the plan's seed.
    void setFaults(std::optional<FaultPlan> plan);
    const FaultDice* faults() const { return m_faults.get(); }
    // A call `action` on `queue` (a name; empty for none) meets a refusing fault: SQS's error for it, logged on the
    // queue's row as injected. The endpoint asks before each call, a simulation's consumers before theirs.
    std::optional<SqsError> injectedRefusal(std::string_view action, const std::string& queue, uint32_t actor);
    // How much later a call is answered when a latency fault strikes it (logged on the queue's row as injected). The
    // call takes effect now; the endpoint holds its answer back (docs/faults.md).
    std::optional<TimeMs> injectedLatency(std::string_view action, const std::string& queue, uint32_t actor);

    // --- what viewers read -------------------------------------------------------------------------------
    // The run so far: every viewer reads it through this (the forwards below are for the rules' own callers).
    const RunView& run() const { return m_run; }
    const EventLog& log() const { return m_run.log(); }
    size_t messageCount() const { return m_run.messageCount(); }
    const MessageRecord& message(MessageIndex lane) const { return m_run.message(lane); }
    bool forgotten(MessageIndex lane) const { return m_run.forgotten(lane); }
    LaneTimes times(MessageIndex lane) const { return m_run.times(lane); }
    MessageIdParts messageIdParts(MessageIndex lane) const { return m_run.messageIdParts(lane); }
    std::string messageId(MessageIndex lane) const { return m_run.messageId(lane); }
    const MessageExtra* extra(MessageIndex lane) const { return m_run.extra(lane); }
    MessageIndex firstLaneOf(MessageIndex lane) const { return m_run.firstLaneOf(lane); }
    size_t queueCount() const { return m_run.queueCount(); }
    const QueueInfo& queueInfo(QueueIndex index) const { return m_run.queueInfo(index); }
    std::optional<QueueIndex> queueIndex(const std::string& name) const { return m_run.queueIndex(name); }
    // A standard queue's noisy tenants (fair queues), by MessageGroupId, sorted; none for an unknown queue.
    std::vector<std::string> noisyTenants(const std::string& queue) const;
    const QueueAttributes* queueAttributes(QueueIndex index) const { return m_run.queueAttributes(index); }
    const EngineOptions& options() const { return m_options; }
    // Memory the engine holds for messages, queues and the log (an estimate from capacities and a running count of
    // the bodies, so it is cheap to ask every frame).
    size_t bytesUsed() const;
    size_t bodyHeapBytes() const { return m_run.bodyHeapBytes(); }
    size_t heldMessageCount() const { return m_run.heldMessageCount(); }

private:
    struct Timer {
        TimeMs at;
        uint64_t seq;
        uint32_t target;
        uint8_t kind;
        bool operator>(const Timer& other) const { return at != other.at ? at > other.at : seq > other.seq; }
    };
    enum TimerKind : uint8_t { DelayEnd, VisibilityEnd, PollTimeout, MoveTaskTick };
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
    void addTimer(TimeMs at, TimerKind kind, uint32_t target);
    MessageIdParts newUuid();

    // The queue a RedrivePolicy names as its DLQ, when one has its ARN.
    const QueueState* deadLetterTarget(const QueueAttributes& attributes) const;
    // The queue a SendMessage goes to, or the error it is refused with (logged on the queue's row).
    Result<QueueState*> admitSend(const SendMessageRequest& request);
    SendMessageResult enqueue(QueueState& queue, const SendMessageRequest& request);
    SendMessageResult enqueue(QueueState& queue, const std::string& body, std::optional<int64_t> delaySeconds,
        const std::vector<MessageAttribute>& attributes, const std::optional<std::string>& groupId,
        const std::optional<std::string>& dedupId, const std::optional<std::string>& traceHeader, uint32_t actor);
    MessageIndex newLane(QueueState& queue, TimeMs delayMs, Cause cause, uint32_t actor, uint32_t detail);
    // How long a bounded history must keep a new lane of `queue`: a FIFO queue's for its deduplication window (a later
    // send with the same id is answered with this lane's MessageId).
    TimeMs holdUntil(const QueueState& queue) const;
    void makeVisible(QueueState& queue, MessageIndex lane);
    // Receives up to `max` messages into `out`: a std::vector<ReceivedMessage> or a DeliveryList.
    template <class Out>
    void collect(QueueState& queue, size_t max, int64_t visibilitySeconds, uint32_t actor, Out& out);
    bool takeOrDeadLetter(QueueState& queue, MessageIndex lane, uint32_t receiver); // false: moved to the DLQ
    // The receive itself: the lane in flight, its timer set and logged. Returns its times after.
    LaneTimes deliver(MessageIndex lane, int64_t visibilitySeconds, uint32_t actor);
    void deliverTo(std::vector<ReceivedMessage>& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds,
        uint32_t actor);
    void deliverTo(DeliveryList& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds, uint32_t actor);
    void describe(ReceivedMessage& m, const QueueState& queue, MessageIndex lane, const LaneTimes& times) const;
    // FIFO ReceiveRequestAttemptId (engine_receive_attempts.cpp): what a receive with one got is kept for 5 minutes;
    // a retry with the same id gets the same messages and receipt handles while none was changed (deleted, its
    // visibility changed, received again), their visibility timeouts starting again.
    void rememberAttempt(QueueState& queue, const std::string& attemptId, const std::vector<ReceivedMessage>& got);
    std::optional<ReceiveOutcome> replayAttempt(
        QueueState& queue, const std::string& attemptId, int64_t visibilitySeconds, uint32_t actor);
    void moveToDeadLetterQueue(QueueState& source, MessageIndex lane, uint32_t receiver);
    // A lane that arrived in `queue` with an older enqueue time (a DLQ's arrival, a duplicate's copy): ordered for
    // retention, counted live and made available.
    void admitArrival(QueueState& queue, MessageIndex lane, TimeMs enqueuedAt);
    // The second copies the receives just made struck with (FaultKind::Duplicate): visible now, same MessageId.
    void makeDueCopies();
    // What a receive may take: all `max`, or fewer when a ShortPollSample fault strikes a short poll (`wait` 0).
    size_t sampledMax(QueueState& queue, int64_t wait, int64_t max, uint32_t actor);
    // Quotas (engine_quotas.cpp), with EngineOptions::quotas: a FIFO queue's calls a second per action (the call is
    // counted unless it is refused), and how many more messages the queue can hold in flight.
    enum class QuotaAction : uint8_t { Send, Receive, Delete };
    std::optional<SqsError> throttle(QueueState& queue, QuotaAction action);
    size_t inFlightRoom(const QueueState& queue) const;
    // Fair queues (engine_fair.cpp): a standard queue's tenants, counted as their messages arrive (a send counts as
    // the tenant's latest) and change state; a receive takes quiet tenants' messages first while any is noisy.
    void enterTenant(QueueState& queue, MessageIndex lane, bool sent);
    void countTenant(QueueState& queue, MessageIndex lane, MessageState from, MessageState to);
    void setNoisy(QueueState& queue, uint32_t tenant, bool noisy);
    template <class Out>
    void collectFair(QueueState& queue, size_t max, int64_t visibilitySeconds, uint32_t actor, Out& out);
    void endMessage(QueueState& queue, MessageIndex lane, MessageState to, Cause cause, uint32_t actor = kSqsActor,
        uint32_t detail = 0);
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
    // Without a bounded history nothing is released: the first test spares the hot paths the chunk lookup.
    bool gone(MessageIndex lane) const { return m_options.historyMs >= 0 && m_run.forgotten(lane); }
    // Drops ended lanes from the fronts of a queue's lazy lists, and empty FIFO groups.
    void trimLazyLists(QueueState& queue);
    // The lane no longer counts in `queue`: forgotten, ended, or moved elsewhere (what the lazy lists skip).
    bool endedIn(const QueueState& queue, MessageIndex lane) const;
    // The retention lists (byEnqueue, lateArrivals) without their ended fronts, compacted when mostly ended.
    void trimRetentionLists(QueueState& queue);
    bool staleTimer(const Timer& timer) const; // firing it would do nothing (what fire() checks first)

    EngineOptions m_options;
    uint64_t m_rng;
    uint64_t m_timerSeq = 0;
    uint32_t m_nextQueueUid = 1;
    RunStore m_run; // what happened: every lane, event and queue counter is written through it
    std::unique_ptr<FaultDice> m_faults; // none: no faults (the default)
    std::vector<MessageIndex> m_copiesDue; // received lanes a duplicate fault struck, copied once the receive is done
    TimeMs m_nextForget = 0;
    std::vector<std::unique_ptr<QueueState>> m_queues; // parallel to the run's queue table
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
    if (!m_wakeups.empty() || m_timers.earliest(INT64_MAX) <= now())
        settlePresent();
}

} // namespace lifeline
