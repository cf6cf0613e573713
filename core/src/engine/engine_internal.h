// Engine-internal state of one queue, a pending long poll and a message move task.
#pragma once

#include "fair_tenants.h"
#include "lifeline/engine/engine.h"
#include "queue_policies.h"

#include <array>
#include <deque>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <utility>

namespace lifeline {

// A FIFO queue remembers each deduplication id this long after the send that brought it (AWS-doc).
inline constexpr TimeMs kDeduplicationWindowMs = TimeMs(5) * 60 * 1000;
// How far a queue's retention list (byEnqueue) may outgrow twice its live messages before ended lanes are dropped.
inline constexpr size_t kRetentionListSlack = 4096;

// A FIFO message group: its live messages in send order (terminal ones are dropped lazily).
struct FifoGroup {
    std::string id;
    std::deque<MessageIndex> messages;
    bool queued = false; // in QueueState::candidates
};

// What the rules keep of a queue beside the run's entry for it (QueueInfo: its name, attributes, counters).
struct QueueState {
    QueueIndex index = kNoQueue;
    const QueueInfo* info = nullptr; // the run's entry, written through the RunStore
    uint32_t uid = 0; // distinguishes a queue from a later one with the same name (receipt handles)
    std::map<std::string, std::string> tags;
    TimeMs lastPurgeAt = INT64_MIN;

    // Standard queues: visible messages in the order they became visible. Lazy: an entry whose message is no
    // longer Visible in this queue is skipped when popped.
    std::deque<MessageIndex> ready;
    // Every message that entered this queue, in enqueue-time order (lazy like `ready`): retention expires the front.
    std::deque<MessageIndex> byEnqueue;
    // Arrivals older than byEnqueue's back (a standard DLQ keeps the original enqueue time): a min-heap.
    std::priority_queue<std::pair<TimeMs, MessageIndex>, std::vector<std::pair<TimeMs, MessageIndex>>, std::greater<>>
        lateArrivals;
    size_t liveMessages = 0; // non-terminal messages (for compacting byEnqueue)
    // Never later than the queue's next retention expiry (nextDueTime's shortcut: the exact time is recomputed only
    // once the clock reaches this). Lowered by every arrival; INT64_MIN (recompute) when the retention changes.
    TimeMs expiryBound = INT64_MIN;

    // FIFO queues.
    bool deduplicateByGroup = false; // DeduplicationScope as created: later changes have no effect (AWS-snap)
    std::unordered_map<std::string, uint32_t> groupByName;
    std::vector<FifoGroup> groups;
    std::deque<uint32_t> candidates; // groups whose head may be receivable
    std::vector<uint32_t> freeGroups; // slots of groups emptied and dropped (a bounded history reuses them)
    std::unordered_map<std::string, std::pair<TimeMs, MessageIndex>> dedup; // key -> (expires, first lane)
    std::deque<std::pair<TimeMs, std::string>> dedupOrder;
    uint64_t sequence = 0;
    ReceiveAttempts receiveAttempts; // what each ReceiveRequestAttemptId got, for a retry within 5 minutes

    std::optional<FairTenants> fair; // standard queues with tenants

    FifoCallRate callRate; // with EngineOptions::quotas, its calls this virtual second, per QuotaAction

    std::deque<size_t> polls; // pending long polls (slots), oldest first
    bool wakeQueued = false;

    const std::string& name() const { return info->name; }
    const std::string& arn() const { return info->arn; }
    bool alive() const { return info->alive; }
    const QueueAttributes& attributes() const { return info->attributes; }
    const QueueCounters& counters() const { return info->counters; }
    TimeMs createdAt() const { return info->createdAt; }
    TimeMs modifiedAt() const { return info->modifiedAt; }
    bool fifo() const { return info->fifo; }
};

struct Engine::PendingPoll {
    PollId id = 0;
    QueueIndex queue = kNoQueue;
    size_t max = 1;
    int64_t visibilitySeconds = 30;
    uint32_t actor = kOperatorActor;
    TimeMs deadline = 0;
    bool deliveriesOnly = false; // ReceiveMessageRequest::deliveriesOnly
    std::string attemptId; // FIFO ReceiveRequestAttemptId: its answer is kept for a retry
};

struct Engine::MoveTask {
    std::string handle;
    QueueIndex source = kNoQueue;
    std::optional<QueueIndex> destination; // none: each message back to its own source
    std::string destinationArn;
    std::optional<int64_t> rate;
    int64_t moved = 0;
    int64_t toMove = 0;
    std::string status = "RUNNING";
    std::string failureReason;
    TimeMs startedAt = 0;
};

// SQS's NonExistentQueue error.
SqsError nonExistentQueue();

// Inline, both: most requests name their queue (docs/decisions.md, "The simulation's work per message").
inline QueueState* Engine::findQueue(const std::string& name) const
{
    for (const auto& q : m_queues)
        if (q->alive() && q->name() == name)
            return q.get();
    return nullptr;
}

inline TimeMs Engine::holdUntil(const QueueState& queue) const
{
    return queue.fifo() ? now() + kDeduplicationWindowMs : INT64_MIN;
}

inline Result<QueueState*> Engine::requireQueue(const std::string& name) const
{
    if (QueueState* q = findQueue(name))
        return q;
    return nonExistentQueue();
}

} // namespace lifeline
