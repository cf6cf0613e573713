// The engine's one seam to the outside: an append-only log of every state change and every refused request.
// A viewer draws every lane from this log alone, reading only what is new (events are never rewritten).
#pragma once

#include "lifeline/support/chunked_vector.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lifeline {

using TimeMs = int64_t; // virtual milliseconds since the run started
using MessageIndex = uint32_t; // a lane: index into Engine::message(); never reused
using QueueIndex = uint16_t; // index into Engine::queueInfo(); never reused, even after DeleteQueue

inline constexpr MessageIndex kNoMessage = UINT32_MAX;
inline constexpr QueueIndex kNoQueue = UINT16_MAX;
// Who caused an event. Actor 0 is SQS itself: a delay or visibility timeout that ends, retention, a move task's
// steps. Actor 1 is the operator: a person at the controls, a hand-sent message, a scenario's timed action, any
// API call that names nobody. Producers, consumers, Lambda pollers and endpoint clients come after.
inline constexpr uint32_t kSqsActor = 0;
inline constexpr uint32_t kOperatorActor = 1;
inline constexpr uint32_t kFirstActor = 2; // the first actor that is neither SQS nor the operator

enum class MessageState : uint8_t {
    None, // before the send
    Delayed, // waiting out the queue's DelaySeconds or its own timer
    Visible, // available to ReceiveMessage
    InFlight, // received, visibility timeout running
    Deleted, // terminal: DeleteMessage
    DeadLettered, // terminal in the source queue: moved to the DLQ (the DLQ holds a new lane, same MessageId)
    Expired, // terminal: retention period passed
    Purged, // terminal: PurgeQueue
    Redriven, // terminal in the DLQ: moved back by a message move task (a new message in the destination)
    Count
};

enum class Cause : uint8_t {
    Send, // None -> Delayed|Visible
    DelayEnded, // Delayed -> Visible
    Receive, // Visible -> InFlight; detail = receive number (ApproximateReceiveCount)
    VisibilityTimeout, // InFlight -> Visible
    VisibilityChanged, // InFlight -> InFlight (extended) or -> Visible (0); detail = new seconds
    Delete, // -> Deleted; detail = the receive number of the handle used
    MoveToDlq, // Visible -> DeadLettered in the source; actor = whose receive moved it; detail = DLQ queue index
    ArriveFromDlqSource, // None -> Visible in the DLQ; detail = source lane (MessageIndex)
    Expiry, // -> Expired
    Purge, // -> Purged
    Redrive, // Visible -> Redriven in the DLQ; detail = new lane in the destination
    ArriveFromRedrive, // None -> Visible|Delayed in the destination; detail = DLQ lane
    DelayChanged, // Delayed -> Delayed|Visible: a FIFO queue's DelaySeconds changed (retroactive); detail = old, new
    RequestRefused, // no state change; detail = index into Engine::errorText(); message may be kNoMessage
    QueueCreated, // queue events carry kNoMessage
    QueueDeleted,
    AttributesChanged, // detail = index into Engine::errorText() holding "Name=value" text
    PollStarted, // a long poll began waiting; actor = the caller; detail = poll id
    PollEnded, // a receive returned; detail = number of messages (0 = empty receive)
    // Actor events (the simulation's decisions; no state change). actor = who; message = the lane if any.
    ProcessingStarted, // detail: bit 0 = duplicate processing; above it a Lambda invocation's function timeout (ms)
    ProcessingFinished,
    ProcessingFailed, // detail = FailureKind
    ConsumerCrashed, // detail = messages it held
    ConsumerRestarted,
    Warning, // detail = index into EventLog::text()
    OperatorAction, // detail = index into EventLog::text()
    // Appended after the first run-file version; a cause's number never changes.
    NoEffect, // SQS answered OK and changed nothing (a delete of an ended message, ...); detail = NoEffectKind
    ReceivedByNobody, // a receive answered to a crashed consumer or a closed connection: back after the timeout
    ScriptedCall, // a scenario's scripted step and SQS's answer; actor = its client; detail = index into text()
    // The recording proxy's first sighting of a message it did not see sent (None -> Visible, then its receive at
    // the same instant): the lane's time before it, from MessageRecord::sentAt, was not observed.
    FirstSeen,
    // Fair queues: a standard queue's tenant (a MessageGroupId) turns noisy, and quiet again; no state change, message
    // kNoMessage; detail = index into EventLog::text() holding the tenant's MessageGroupId.
    TenantNoisy,
    TenantQuiet,
    // A scenario's CloudWatch alarm on a queue's metric goes to ALARM, and back to OK; no state change, message
    // kNoMessage, queue = the queue it watches; detail = index into EventLog::text() holding what it saw
    // ("dlq-not-empty: ALARM, ApproximateNumberOfMessagesVisible 2 > 0 for 1 min").
    AlarmFired,
    AlarmOk,
    // Faults SQS really has, injected on purpose (lifeline/engine/faults.h, docs/faults.md). InjectedCopy: None ->
    // Visible, a standard queue's second copy of a message (same MessageId), left by a receive; detail = the lane it
    // copies. FaultInjected: no state change; queue = the queue (kNoQueue for none); detail = FaultKind (a short
    // poll sampled, a call refused: its RequestRefused follows at the same instant).
    InjectedCopy,
    FaultInjected,
    Count
};
// Room for this many causes: the log's table of kinds and every reader that keeps a flag per cause are sized by it,
// so a new cause needs no other change there (HACKING.md, Conventions: "Events").
inline constexpr uint32_t kCauseCapacity = 128;
static_assert(uint32_t(Cause::Count) <= kCauseCapacity);

// Why processing failed (ProcessingFailed's detail).
enum class FailureKind : uint8_t {
    Threw, // the consumer's work failed (its failure probability)
    Poison, // a poison message: its processing always fails
    TimedOut, // a Lambda function ran out of its timeout
    Throttled, // a Lambda batch waited for a free concurrency slot until its visibility timeout ended: never invoked
    InProgressElsewhere, // an idempotent consumer found the message being processed by another: left to come back
};

// What a request that changed nothing found (NoEffect's detail).
enum class NoEffectKind : uint8_t {
    DeleteOfEndedMessage, // DeleteMessage: the message was already deleted, expired or moved
    DeleteWithStaleHandle, // DeleteMessage with the handle of an earlier receive, not honoured (staleHandleDeletes off)
    VisibilityChangeAfterTimeout, // ChangeMessageVisibility: the handle's timeout already ended
    VisibilityChangeWithStaleHandle, // ChangeMessageVisibility on a FIFO queue with an earlier receive's handle
    DeduplicatedSend, // SendMessage to a FIFO queue repeating a deduplication id of the last 5 minutes: on the first
                      // lane
};

// Delayed, visible or in flight: the message is still in its queue.
inline bool isLive(MessageState state)
{
    return state == MessageState::Delayed || state == MessageState::Visible || state == MessageState::InFlight;
}

const char* toString(MessageState state);
const char* toString(Cause cause);

// 32 bytes as readers see it (the log keeps it in 8); a lane's history is the subsequence with its MessageIndex.
// A plain aggregate (no default member values): the log's storage is allocated without being written first.
// `detail` means something else for each cause: read it through the typed accessor for the event's cause.
struct Event {
    TimeMs time;
    MessageIndex message; // kNoMessage for queue and actor events
    uint32_t actor; // who caused it: kSqsActor, kOperatorActor, or a consumer / producer / client
    uint32_t detail; // cause-specific: use the accessors below
    QueueIndex queue;
    MessageState from;
    MessageState to;
    Cause cause;

    // Send: the delay it was sent with, in seconds (0 to 900), and whether its own message timer (SendMessage's
    // DelaySeconds) set it rather than the queue's DelaySeconds. A delayed send with 0 comes from a run file written
    // before sends kept their delay: how long, and why, is not known.
    uint32_t sentDelaySeconds() const { return detail >> 1; }
    bool sentWithTimer() const { return (detail & 1) != 0; }
    static uint32_t sendDelay(int64_t seconds, bool timer) { return uint32_t(seconds) << 1 | (timer ? 1u : 0u); }
    // Receive: the receive's number (ApproximateReceiveCount). Delete: the number of the receive whose handle it used.
    uint32_t receiveNumber() const { return detail; }
    // VisibilityChanged: the new timeout in seconds, counted from the call (0: visible at once).
    uint32_t visibilitySeconds() const { return detail; }
    // MoveToDlq: the dead-letter queue.
    QueueIndex deadLetterQueue() const { return QueueIndex(detail); }
    // DelayEnded, VisibilityTimeout, Expiry and MoveToDlq written by `lifeline import`: what SQS's rules say happened
    // between the traced calls, never seen in a trace (docs/import.md). The bit sits above a MoveToDlq's queue index.
    static constexpr uint32_t kInferred = 1u << 16;
    // ArriveFromDlqSource written by `lifeline import`: the dead-letter queue's lane of an inferred move. The bit sits
    // above the source lane's index.
    static constexpr uint32_t kInferredArrival = 1u << 31;
    bool inferred() const
    {
        if (cause == Cause::ArriveFromDlqSource)
            return (detail & kInferredArrival) != 0;
        return (cause == Cause::DelayEnded || cause == Cause::VisibilityTimeout || cause == Cause::Expiry
                   || cause == Cause::MoveToDlq)
            && (detail & kInferred) != 0;
    }
    // InjectedCopy: the lane it copies.
    // ArriveFromDlqSource: the source lane. Redrive: the new lane in the destination. ArriveFromRedrive: the DLQ lane.
    MessageIndex linkedLane() const { return detail & ~kInferredArrival; }
    // RequestRefused, AttributesChanged, Warning, OperatorAction, TenantNoisy, TenantQuiet: the index of the event's
    // text in EventLog::text().
    uint32_t textIndex() const { return detail; }
    // PollStarted: the poll's number.
    uint32_t pollNumber() const { return detail; }
    // PollEnded: how many messages the receive returned (0: an empty receive).
    uint32_t messagesReturned() const { return detail; }
    // ProcessingStarted: another processing of the same message is going on or already completed it.
    bool duplicate() const { return (detail & 1) != 0; }
    // ProcessingStarted by a Lambda invocation: the function's timeout, when the invocation is stopped (0: not a
    // Lambda invocation, or a run file written before the timeout was logged).
    TimeMs functionTimeout() const { return TimeMs(detail >> 1); }
    static uint32_t processingStart(bool duplicate, TimeMs functionTimeout)
    {
        return uint32_t(functionTimeout) << 1 | (duplicate ? 1u : 0u);
    }
    // ProcessingFailed.
    FailureKind failure() const { return FailureKind(detail); }
    // ProcessingFinished: an idempotent consumer found the message already processed and skipped the work.
    bool repeatSkipped() const { return detail == 1; }
    // ConsumerCrashed: the messages it held (received, not yet deleted).
    uint32_t heldMessages() const { return detail; }
    // DelayChanged: the queue's DelaySeconds before and after the change.
    uint32_t oldDelaySeconds() const { return detail >> 16; }
    uint32_t newDelaySeconds() const { return detail & 0xffff; }
    static uint32_t delayChange(uint32_t oldSeconds, uint32_t newSeconds) { return oldSeconds << 16 | newSeconds; }
    // NoEffect.
    NoEffectKind noEffect() const { return NoEffectKind(detail); }
    // The causes whose detail indexes EventLog::text().
    bool hasText() const
    {
        return cause == Cause::RequestRefused || cause == Cause::AttributesChanged || cause == Cause::Warning
            || cause == Cause::OperatorAction || cause == Cause::ScriptedCall || cause == Cause::TenantNoisy
            || cause == Cause::TenantQuiet;
    }
};
static_assert(sizeof(Event) == 32 && std::is_trivial_v<Event>);

// Stored in fixed chunks (ChunkedVector): appending never moves what was written, so a reader's references stay
// valid while the engine appends. An engine with a bounded history (EngineOptions::historyMs) releases old chunks:
// events before firstRetained() and the texts they named are gone, their indices stay.
//
// An event is kept in 8 bytes, not Event's 32. Events go in groups of 256, each group noting its first event's
// time and, once its events need them, a base message and a base for large details. An event keeps its time as 14
// bits past its group's time, its message as a signed 16-bit offset from its group's base message, its detail in
// 11 bits (a small value as it is; a large one, such as a poll's number, as an offset of up to 1,023 from its
// group's base), its actor in 11 bits, its queue in 5, and its cause and states as one of 127 kinds the log
// numbers as it first meets them. The few that do not fit (an actor above 2,047, a queue above 30, 16 seconds
// without events inside a group, a message or detail far from its group's others, an earlier time, a cause or state
// no engine writes) are kept whole beside the others. Readers get an Event by value, decoded in a few instructions;
// the hour's benchmark run holds 25 million events.
class EventLog {
public:
    void append(const Event& event);
    size_t size() const { return m_packed.size(); }
    Event operator[](size_t i) const;
    // Texts referenced by RequestRefused / AttributesChanged events.
    uint32_t addText(std::string text)
    {
        m_texts.push_back(std::move(text));
        return uint32_t(m_texts.size() - 1);
    }
    // A released or unknown text reads as empty.
    const std::string& text(uint32_t index) const
    {
        static const std::string kNone;
        return index < m_texts.size() && !m_texts.released(index) ? m_texts[index] : kNone;
    }
    size_t textCount() const { return m_texts.size(); }
    size_t bytesUsed() const;
    // What the events alone hold (without their texts).
    size_t eventBytes() const;
    // How many events did not fit in 8 bytes and are kept whole (a figure for the benchmarks and tests).
    size_t keptWhole() const { return m_wide.size(); }

    // The first event still held: 0 unless history was released.
    size_t firstRetained() const { return m_firstRetained; }
    // Forgets every whole chunk of events that all happened before `cutoff`, and the texts only they named (each
    // text is named by the one event appended after it, so texts go in the same order as events).
    void releaseBefore(TimeMs cutoff);

private:
    // kind (7, kWide: in m_wide) | queue + 1 (5, 0: none) | actor (11) | detail (11) | message (16) | time (14).
    using Packed = uint64_t;
    struct Group {
        TimeMs time; // its first event's time
        MessageIndex messageBase; // its first event's message that is one
        uint32_t detailBase; // its first event's detail from kBased on
        bool messageBased, detailBased;
    };
    static constexpr int kChunkBits = 14; // 128 KiB chunks: what a bounded history holds beyond its window
    static constexpr int kGroupBits = 8;
    static constexpr uint32_t kBased = 1024; // a detail from here on is an offset from its group's base
    static constexpr uint32_t kNoMessageOffset = 0xffff;
    static constexpr uint32_t kWide = 127; // the kind of an event kept whole: its index in m_wide above the kind
    static constexpr int kQueueShift = 7, kActorShift = 12, kDetailShift = 23, kMessageShift = 34, kTimeShift = 50;
    static_assert(uint32_t(MessageState::Count) <= 16);

    // The kind of (cause, from, to), numbered as first met; kWide when 127 are taken or the triple is out of range.
    uint32_t kindOf(const Event& event);
    Event wide(Packed packed) const { return m_wide[packed >> kQueueShift]; }
    // Out of line: an event append's inline path does not take (a group's first, a new base or kind, a wide one).
    void appendGeneral(const Event& event);

    ChunkedVector<Packed, kChunkBits> m_packed;
    ChunkedVector<Group, kChunkBits - kGroupBits> m_groups; // a chunk of groups for each chunk of events
    // The group being filled (chunks never move). Only a chunk of whole groups is released, so the next append
    // starts a new group before this is read again.
    Group* m_group = nullptr;
    ChunkedVector<Event, 10> m_wide;
    ChunkedVector<std::string, 10> m_texts;
    // (cause, from, to) -> its kind + 1, 0: not met yet.
    std::array<uint8_t, size_t(kCauseCapacity * 16 * 16)> m_kindNumber {};
    std::array<uint16_t, kWide> m_kinds {}; // kind -> cause << 8 | from << 4 | to
    uint32_t m_kindCount = 0;
    size_t m_firstRetained = 0;
    size_t m_textsNamedBefore = 0; // texts below this index were named by released events only
    size_t m_firstTextRetained = 0;
};

inline void EventLog::append(const Event& event)
{
    // The common case, inline: inside a group whose bases are set, an event near them of a kind already met.
    // Everything else (a group's first event, setting a base, a new kind, an event kept whole) is appendGeneral's.
    const size_t index = m_packed.size();
    if ((index & ((size_t(1) << kGroupBits) - 1)) != 0) {
        const Group& group = *m_group;
        const uint64_t time = uint64_t(event.time) - uint64_t(group.time); // an earlier time wraps: not here
        // Past the 16-bit offset's range, or no base yet: UINT32_MAX, which the test below sends to the general path.
        uint32_t message = kNoMessageOffset;
        if (event.message != kNoMessage) {
            message = group.messageBased ? uint32_t(event.message - group.messageBase + 0x8000) : UINT32_MAX;
            if (message >= kNoMessageOffset)
                message = UINT32_MAX;
        }
        const uint32_t detail = event.detail < kBased ? event.detail
                                                      : (group.detailBased && event.detail - group.detailBase < kBased
                                                              ? kBased | (event.detail - group.detailBase)
                                                              : UINT32_MAX);
        const uint32_t queue = uint32_t(uint16_t(event.queue + 1)); // kNoQueue (0xffff) wraps to 0
        const uint32_t triple = uint32_t(event.cause) << 8 | uint32_t(event.from) << 4 | uint32_t(event.to);
        const uint32_t number = triple < m_kindNumber.size() ? m_kindNumber[triple] : 0;
        // One test for every reason to leave it to the general path (the common case is none of them).
        if (((time >> 14) | (message == UINT32_MAX) | (detail == UINT32_MAX) | (event.actor >> 11) | (queue >> 5)
                | (number == 0) | (uint32_t(event.from) >> 4) | (uint32_t(event.to) >> 4))
            == 0) {
            m_packed.push_back(time << kTimeShift | Packed(message) << kMessageShift | Packed(detail) << kDetailShift
                | Packed(event.actor) << kActorShift | Packed(queue) << kQueueShift | (number - 1u));
            return;
        }
    }
    appendGeneral(event);
}

inline Event EventLog::operator[](size_t i) const
{
    const Packed p = m_packed[i];
    const uint32_t kind = uint32_t(p & 0x7f);
    if (kind == kWide)
        return wide(p);
    const Group& group = m_groups[i >> kGroupBits];
    const uint32_t queue = uint32_t(p >> kQueueShift & 0x1f);
    const uint32_t detail = uint32_t(p >> kDetailShift & 0x7ff);
    const uint32_t message = uint32_t(p >> kMessageShift & 0xffff);
    const uint32_t triple = m_kinds[kind];
    return Event { group.time + TimeMs(p >> kTimeShift),
        message == kNoMessageOffset ? kNoMessage : group.messageBase + message - 0x8000,
        uint32_t(p >> kActorShift & 0x7ff), detail < kBased ? detail : group.detailBase + (detail - kBased),
        queue == 0 ? kNoQueue : QueueIndex(queue - 1), MessageState(triple >> 4 & 0xf), MessageState(triple & 0xf),
        Cause(triple >> 8) };
}

} // namespace lifeline
