// A lesson's key moments: patterns over a run's events ("the first visibility timeout of a message whose consumer
// is still working"), not fixed times. Found in the run itself, they stay true when a slider changes the run and
// disappear when the fix removes the problem.
#pragma once

#include "lifeline/run/run_view.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace lifeline::analysis {

// What a moment looks for (the lesson file's "when"; docs/scenario-format.md lists them with their meaning).
enum class MomentKind : uint8_t {
    Send, // a message is sent (its lane starts)
    DelayEnds, // a delay (the queue's or the message's timer) ends: the message turns visible
    DelayChanged, // a FIFO queue's new DelaySeconds moves a waiting message's end
    Receive, // a receive (with "receive": N, the receive with that number)
    VisibleAgain, // a visibility timeout ends: the message is visible again
    VisibleWhileWorking, // a visibility timeout ends while a consumer is still working on the message
    BackAfterCrash, // a visibility timeout ends on a message its consumer held when it crashed
    DuplicateProcessing, // a consumer starts work on a message another one is on or has finished
    Crash, // a consumer crashes
    Failed, // processing fails (with "failure": threw, poison, timed-out, throttled or in-progress, that kind only)
    Extended, // ChangeMessageVisibility extends an in-flight message's timeout (a heartbeat)
    EmptyReceive, // a receive returns no message
    Refused, // SQS refuses a request
    DeadLettered, // a message moves to its dead-letter queue
    Expired, // retention ends a message
    Purged, // PurgeQueue ends a message
    Redriven, // a move task takes a message out of the DLQ
    Deleted, // DeleteMessage ends a message
    NoEffect, // SQS answers OK and changes nothing (a late delete, a deduplicated send)
    RepeatSkipped, // an idempotent consumer finds a message it already processed and skips the work
    TenantNoisy, // fair queues: a tenant (a MessageGroupId) of a standard queue turns noisy (on the queue's row)
    AlarmFired, // a scenario's CloudWatch alarm goes to ALARM (on its queue's row)
    Copy, // an injected duplicate: a standard queue's second copy of a message turns visible (docs/faults.md)
    Fault, // another injected fault: a short poll sampled, a call refused (on its queue's row)
    Count
};

const char* toString(MomentKind kind); // its "when" name: "visible-while-working"
std::optional<MomentKind> momentKindNamed(const std::string& name);
std::vector<std::string> momentKindNames();

struct MomentSpec {
    MomentKind kind = MomentKind::Send;
    // Filled in from the run at the moment's event (docs/scenario-format.md lists them): {consumer} (who it is
    // about), {queue}, {receive} and {ordinal} (the message's receive count: 5, 5th), {age} (since its send),
    // {sinceReceive}, {sentAt}, {time}, {body}, {dlq} (where a move took it), {reason} (a refusal's), {tenant} (a
    // noisy tenant's MessageGroupId), {alarm} (what an alarm saw as it fired), and the queue's {maxReceiveCount} and
    // {retention} in force.
    std::string caption;
    std::optional<std::string> queue; // only on this queue
    std::optional<uint32_t> receive; // Receive: only the receive with this number
    std::optional<FailureKind> failure; // Failed: only this kind
    std::optional<std::string> body; // only messages whose body contains this text
    std::optional<MessageState> to; // only events that leave the message in this state (a send: delayed or visible)
    std::optional<TimeMs> minAge, maxAge; // only while the message's age (since its send) is in this range
    // Only while the queue has (true) or has no (false) RedrivePolicy in force: a caption whose words assume either
    // ("with no dead-letter queue ...") is not told once the user has given the queue one.
    std::optional<bool> deadLetterQueue;
    int64_t limit = 1; // how many occurrences to show, the earliest first
};

struct Moment {
    TimeMs at = 0;
    MessageIndex lane = kNoMessage; // the message it is about, when there is one
    QueueIndex queue = kNoQueue; // the queue row, for a moment with no message (a refused send)
    uint32_t actor = kSqsActor; // the consumer it is about
    bool onActorRow = false; // drawn on the consumer's row (a crash, an empty receive), not on a message's lane
    size_t spec = 0; // which MomentSpec found it
    std::string caption; // placeholders filled in
};

// Finds moments incrementally: advance() reads only the events appended since the last call, so a live run pays
// for each event once. Moments come out in time order (each spec's earliest, up to its limit).
class MomentFinder {
public:
    explicit MomentFinder(std::vector<MomentSpec> specs = {});

    const std::vector<MomentSpec>& specs() const { return m_specs; }
    void advance(const RunView& run);
    const std::vector<Moment>& moments() const { return m_moments; }

private:
    void read(const RunView& run, const Event& e);
    void found(const RunView& run, MomentKind kind, const Event& e, uint32_t about);
    bool matches(const RunView& engine, const MomentSpec& spec, const Event& e) const;
    std::string caption(
        const RunView& engine, std::string text, const Event& e, QueueIndex queue, const std::string& consumer) const;

    struct LaneWork {
        std::vector<uint32_t> working; // actors on it now
        uint32_t receiver = kSqsActor; // who received it last
        TimeMs receivedAt = 0;
        uint32_t receives = 0; // its receive count
        bool receivedByNobody = false; // the last receive went to a crashed consumer
    };
    std::vector<MomentSpec> m_specs;
    std::vector<int64_t> m_found; // per spec
    std::vector<Moment> m_moments;
    std::unordered_map<MessageIndex, LaneWork> m_lanes; // live lanes only
    std::unordered_map<uint32_t, TimeMs> m_crashedAt; // actors down now
    size_t m_next = 0; // the next event to read
    bool m_done = false; // every spec has reached its limit
};

// Every moment of a finished (or recorded) run at once.
std::vector<Moment> findMoments(const RunView& run, const std::vector<MomentSpec>& specs);

} // namespace lifeline::analysis
