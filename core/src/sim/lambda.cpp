// The Lambda trigger: event-source-mapping pollers hand batches to a function limited by its concurrency.
// A batch that waits for a free slot keeps its visibility timeout running (Lambda retries throttled invokes
// until the timeout expires), which is why AWS asks for a visibility timeout of six times the function timeout.
// When the timeout ends first, the batch is given up: its messages are back in the queue for any poller, and the
// invoke never happens (docs/decisions.md, "A throttled Lambda batch").
#include "simulation_internal.h"

#include <algorithm>

namespace lifeline::sim {

namespace {
constexpr size_t kPayloadBytes = size_t(6) * 1024 * 1024; // a Lambda invocation's payload
} // namespace

void Simulation::pollerPoll(size_t index)
{
    Poller& p = *m_pollers[index];
    const scenario::LambdaSpec& spec = m_scenario.lambdas[p.lambda];
    // The mapping backs off from its throttled function, or has not scaled up to this poller: woken when no batch waits
    // or at the mapping's first batch (wakeParkedPollers), or in its turn.
    if (const auto until = m_mappingScalers[p.lambda].backedOffUntil(p.rank, m_engine.now());
        until && p.batch.empty()) {
        p.parked = *until == MappingScaler::kWhileThrottled;
        if (!p.parked)
            schedule(*until, PollerPoll, uint32_t(index));
        return;
    }
    // The mapping's maximum concurrency: with that many batches invoked or waiting to be, its pollers receive
    // nothing more (so no message waits in flight for a slot) until one ends.
    if (p.batch.empty() && spec.maximumConcurrency
        && m_lambdaRunning[p.lambda] + int64_t(m_lambdaWaiting[p.lambda].size()) >= *spec.maximumConcurrency) {
        p.parked = true;
        return;
    }
    ReceiveMessageRequest request;
    request.queue = spec.queue;
    request.maxNumberOfMessages = std::min<int64_t>(10, spec.batchSize - int64_t(p.batch.size()));
    constexpr int64_t kLongPoll = 20; // event source mappings long-poll
    request.waitTimeSeconds = kLongPoll;
    if (p.gatheringSince >= 0) // a batching window: wait no longer than what is left of it
        request.waitTimeSeconds
            = std::clamp<int64_t>((p.gatheringSince + spec.batchingWindow - m_engine.now()) / 1000, 0, kLongPoll);
    request.actor = p.actor;
    auto result = m_engine.receiveMessage(request);
    if (!result) {
        schedule(m_engine.now() + 1000, PollerPoll, uint32_t(index));
        return;
    }
    if (result->pending) {
        p.poll = result->poll;
        return;
    }
    pollerReceived(index, std::move(result.value().messages), 0);
}

void Simulation::pollerReceived(size_t index, std::vector<ReceivedMessage> messages, PollId)
{
    Poller& p = *m_pollers[index];
    const scenario::LambdaSpec& spec = m_scenario.lambdas[p.lambda];
    p.poll = 0;
    if (!messages.empty() && m_mappingScalers[p.lambda].received(m_engine.now()))
        wakeParkedPollers(p.lambda); // a mapping starting from idle scales up from its first batch
    m_requests.count(bodyBytes(messages));
    for (auto& m : messages) {
        p.batchBytes += m.body.size();
        p.batch.push_back(std::move(m));
    }
    if (p.batch.empty()) {
        schedule(m_engine.now(), PollerPoll, uint32_t(index));
        return;
    }
    // A batching window: the poller goes on receiving until the batch is full, its payload reaches 6 MB or less
    // than a second of the window is left (a long poll waits whole seconds).
    if (spec.batchingWindow > 0) {
        if (p.gatheringSince < 0)
            p.gatheringSince = m_engine.now();
        const bool full = int64_t(p.batch.size()) >= spec.batchSize || p.batchBytes >= kPayloadBytes;
        if (!full && m_engine.now() - p.gatheringSince + 1000 <= spec.batchingWindow) {
            schedule(m_engine.now(), PollerPoll, uint32_t(index));
            return;
        }
    }
    p.gatheringSince = -1;
    p.batchBytes = 0;
    if (m_lambdaRunning[p.lambda] < spec.concurrency) {
        invoke(index);
        return;
    }
    // Throttled: it runs when a slot frees, or is given up when the first of its visibility timeouts ends.
    m_mappingScalers[p.lambda].throttled(m_engine.now());
    m_lambdaWaiting[p.lambda].push_back(index);
    p.held = true;
    TimeMs ends = INT64_MAX;
    for (const auto& m : p.batch)
        ends = std::min(ends, m_engine.times(m.lane).dueAt);
    schedule(ends, HeldBatchExpires, uint32_t(index), ++p.heldToken);
}

void Simulation::heldBatchExpires(size_t index, uint64_t token)
{
    Poller& p = *m_pollers[index];
    if (!p.held || token != p.heldToken)
        return; // invoked meanwhile
    std::erase(m_lambdaWaiting[p.lambda], index);
    p.held = false;
    for (const auto& m : p.batch)
        m_engine.recordActorEvent(Cause::ProcessingFailed, p.actor, m.lane, kNoQueue, uint32_t(FailureKind::Throttled));
    p.batch.clear();
    schedule(m_engine.now(), PollerPoll, uint32_t(index));
    wakeParkedPollers(p.lambda);
}

void Simulation::wakeParkedPollers(size_t lambda)
{
    if (m_lambdaWaiting[lambda].empty())
        m_mappingScalers[lambda].noneWaiting(m_engine.now());
    for (size_t i = 0; i < m_pollers.size(); ++i) {
        Poller& parked = *m_pollers[i];
        if (parked.lambda == lambda && parked.parked) {
            parked.parked = false;
            schedule(m_engine.now(), PollerPoll, uint32_t(i));
        }
    }
}

void Simulation::invoke(size_t index)
{
    Poller& p = *m_pollers[index];
    const scenario::LambdaSpec& spec = m_scenario.lambdas[p.lambda];
    p.held = false;
    ++m_lambdaRunning[p.lambda];
    for (const auto& m : p.batch)
        startProcessing(m.lane, p.actor, spec.timeout);
    const TimeMs runs
        = std::max<TimeMs>(1, drawFrom(spec.processing, m_random)); // a millisecond at least, as consumers' work
    p.timedOut = runs > spec.timeout;
    const bool forced = p.failNext; // the operator's click; drawn after the dice, so runs without clicks are unchanged
    p.failNext = false;
    p.failed = p.timedOut || m_random.chance(spec.failureProbability) || forced;
    schedule(m_engine.now() + std::min(runs, spec.timeout), InvocationDone, uint32_t(index));
}

void Simulation::invocationDone(size_t index)
{
    Poller& p = *m_pollers[index];
    const scenario::LambdaSpec& spec = m_scenario.lambdas[p.lambda];
    std::vector<DeleteMessageBatchEntry> deletes;
    // A poison item (its body says "poison") always fails: the function throws on it, which fails the whole batch,
    // unless it reports batch item failures, which returns that item only.
    const auto poisoned = [](const ReceivedMessage& m) { return m.body.find("poison") != std::string::npos; };
    const bool batchThrows = !spec.reportBatchItemFailures && std::any_of(p.batch.begin(), p.batch.end(), poisoned);
    for (size_t i = 0; i < p.batch.size(); ++i) {
        const ReceivedMessage& m = p.batch[i];
        // A thrown error or a timeout returns the whole batch; ReportBatchItemFailures returns only the items named.
        const bool poison = poisoned(m);
        const bool failed = p.failed || batchThrows || poison
            || (spec.reportBatchItemFailures && m_random.chance(spec.itemFailureProbability));
        if (failed) {
            m_engine.recordActorEvent(Cause::ProcessingFailed, p.actor, m.lane, kNoQueue,
                uint32_t(p.timedOut ? FailureKind::TimedOut
                        : poison    ? FailureKind::Poison
                                    : FailureKind::Threw));
        } else {
            m_engine.recordActorEvent(Cause::ProcessingFinished, p.actor, m.lane);
            deletes.push_back(DeleteMessageBatchEntry { "m" + std::to_string(i), m_engine.receiptHandle(m.receipt) });
        }
        m_ledger.end(m_engine.firstLaneOf(m.lane), !failed);
    }
    // Ten entries a DeleteMessageBatch at most (SQS's limit): a batch above ten is deleted in several calls.
    for (size_t from = 0; from < deletes.size(); from += 10) {
        const std::vector<DeleteMessageBatchEntry> entries(
            deletes.begin() + ptrdiff_t(from), deletes.begin() + ptrdiff_t(std::min(deletes.size(), from + 10)));
        m_requests.count(0);
        (void)m_engine.deleteMessageBatch(spec.queue, entries,
            p.actor); // per-entry failures are logged by the engine; the mapping does not retry deletes
    }
    p.batch.clear();
    --m_lambdaRunning[p.lambda];
    auto& waiting = m_lambdaWaiting[p.lambda];
    if (!waiting.empty()) {
        const size_t next = waiting.front();
        waiting.pop_front();
        invoke(next);
    }
    schedule(m_engine.now(), PollerPoll, uint32_t(index));
    wakeParkedPollers(p.lambda);
}

} // namespace lifeline::sim
