// Consumers: a poll loop, processing one message at a time, delete on success, heartbeats, crashes.
#include "simulation_internal.h"

#include <algorithm>

namespace lifeline::sim {

namespace {

// A consumer's call meets the fault plan first, as a call through `serve` does (Engine::injectedRefusal).
bool faultRefuses(Engine& engine, const std::string& queue, uint32_t actor, std::string_view action)
{
    return engine.injectedRefusal(action, queue, actor).has_value();
}

} // namespace

size_t bodyBytes(const std::vector<ReceivedMessage>& messages)
{
    size_t bytes = 0;
    for (const ReceivedMessage& m : messages)
        bytes += m.body.size();
    return bytes;
}

size_t deliveredBytes(const RunView& run, const DeliveryList& messages)
{
    size_t bytes = 0;
    for (const Delivery& d : messages)
        bytes += run.message(d.lane).body.size();
    return bytes;
}

void Simulation::forgetHistory()
{
    m_engine.forgetHistory();
    m_ledger.forget(m_engine.run());
}

bool Simulation::startProcessing(MessageIndex lane, uint32_t actor, TimeMs functionTimeout)
{
    const bool duplicate = m_ledger.start(m_engine.firstLaneOf(lane));
    m_engine.recordActorEvent(
        Cause::ProcessingStarted, actor, lane, kNoQueue, Event::processingStart(duplicate, functionTimeout));
    return duplicate;
}

void Simulation::consumerPoll(size_t index)
{
    Consumer& c = *m_consumers[index];
    if (c.state == ConsumerState::Crashed)
        return;
    if (c.retiring) { // scaled in: it leaves between two receives, holding nothing
        c.state = ConsumerState::Crashed;
        c.removed = true;
        return;
    }
    const scenario::ConsumerSpec& spec = *c.spec;
    ReceiveMessageRequest& request = c.request;
    request.maxNumberOfMessages = spec.maxMessages;
    request.waitTimeSeconds = spec.waitTimeSeconds;
    request.visibilityTimeout = spec.visibilityTimeout;
    request.actor = c.actor;
    // A refused receive is retried after a back-off; given up, it polls again as after an empty one.
    if (faultRefuses(m_engine, spec.queue, c.actor, "ReceiveMessage")) {
        const auto wait = nextRetry(c.tries, spec.retries, m_random);
        schedule(m_engine.now() + wait.value_or(spec.idleDelay), ConsumerPoll, uint32_t(index), c.generation);
        return;
    }
    c.tries = 0;
    auto result = m_engine.receiveMessage(request);
    if (!result) { // the queue is gone, or was deleted and comes back: try again later
        schedule(m_engine.now() + c.spec->idleDelay, ConsumerPoll, uint32_t(index), c.generation);
        return;
    }
    if (result->pending) {
        c.state = ConsumerState::Polling;
        c.poll = result->poll;
        return;
    }
    consumerReceived(index, result.value().deliveries, false, 0);
}

void Simulation::consumerReceived(size_t index, const DeliveryList& messages, bool wasLongPoll, PollId poll)
{
    Consumer& c = *m_consumers[index];
    c.stats.received += int64_t(messages.size());
    m_requests.count(deliveredBytes(m_engine.run(), messages));
    if (wasLongPoll && (c.state != ConsumerState::Polling || c.poll != poll)) {
        // It crashed while polling. Its poll went on, as a dead client's request does at SQS (docs/decisions.md):
        // what it received is in flight for nobody until its timeout, and the log says so.
        for (const auto& m : messages)
            m_engine.recordActorEvent(Cause::ReceivedByNobody, c.actor, m.lane);
        return;
    }
    c.poll = 0;
    c.state = ConsumerState::Idle;
    if (messages.empty()) {
        // A long poll that ran out polls again at once; an empty short poll waits a little first.
        schedule(m_engine.now() + (wasLongPoll ? 0 : c.spec->idleDelay), ConsumerPoll, uint32_t(index), c.generation);
        return;
    }
    const auto poisoned = [&](const Delivery& m) {
        const MessageRecord& record = m_engine.message(m.lane);
        const std::string_view body = record.body.view(); // in flight: the body is there
        const auto has = [&](const std::vector<std::string>& markers) {
            return std::any_of(markers.begin(), markers.end(),
                [&](const std::string& marker) { return body.find(marker) != std::string_view::npos; });
        };
        if (has(c.spec->poison))
            return Fate::Poison;
        return record.receiveCount <= 1 && has(c.spec->flaky) ? Fate::FailsOnce : Fate::Works;
    };
    if (!c.batch.empty()) { // not expected; kept in order all the same
        for (const auto& m : messages)
            c.batch.push_back(HeldMessage { m.lane, m.receipt, poisoned(m) });
        consumerStartNext(index);
        return;
    }
    // A consumer polls only once its batch is done, so the batch is empty here: the first message starts now and
    // the others wait in the batch.
    for (size_t i = 1; i < messages.size(); ++i)
        c.batch.push_back(HeldMessage { messages[i].lane, messages[i].receipt, poisoned(messages[i]) });
    consumerStart(index, messages[0].lane, messages[0].receipt, poisoned(messages[0]));
}

void Simulation::consumerStartNext(size_t index)
{
    Consumer& c = *m_consumers[index];
    if (c.batch.empty()) {
        c.current.reset();
        c.state = ConsumerState::Idle;
        schedule(m_engine.now(), ConsumerPoll, uint32_t(index), c.generation);
        return;
    }
    const HeldMessage& next = c.batch.front();
    consumerStart(index, next.lane, next.receipt, next.fate);
    c.batch.pop_front();
}

void Simulation::consumerStart(size_t index, MessageIndex lane, const Receipt& receipt, Fate fate)
{
    Consumer& c = *m_consumers[index];
    if (c.spec->idempotent && !idempotentCheck(index, lane, receipt))
        return; // nothing to do for it: the next one starts
    HeldMessage& held = c.current.emplace();
    held.lane = lane;
    held.receipt = receipt;
    held.fate = fate;
    c.state = ConsumerState::Working;
    startProcessing(lane, c.actor);
    // Work takes a millisecond at least: with VisibilityTimeout 0, work of no length would receive, fail and
    // receive again at one instant for ever, and virtual time would never move.
    schedule(m_engine.now() + std::max<TimeMs>(1, drawFrom(c.spec->processing, m_random)), ConsumerWorkDone,
        uint32_t(index), c.generation);
    if (c.spec->heartbeatEvery)
        schedule(m_engine.now() + *c.spec->heartbeatEvery, ConsumerHeartbeat, uint32_t(index), c.generation);
}

bool Simulation::idempotentCheck(size_t index, MessageIndex lane, const Receipt& receipt)
{
    // The record the consumers of a queue share, as AWS Lambda Powertools' idempotency utility keeps one: a message
    // processed already is a repeat (skipped, and deleted so it stops coming back); one still being processed by
    // another is left alone, in flight under this receive, to come back when its timeout ends.
    Consumer& c = *m_consumers[index];
    const ProcessingLedger::Processing& p = m_ledger.of(m_engine.firstLaneOf(lane));
    if (!p.completed && p.active == 0)
        return true;
    if (p.completed) {
        m_engine.recordActorEvent(Cause::ProcessingFinished, c.actor, lane, kNoQueue, 1); // a repeat, skipped
        if (!faultRefuses(
                m_engine, c.spec->queue, c.actor, "DeleteMessage")) { // a refused one comes back, to be skipped again
            m_requests.count(0);
            (void)m_engine.deleteMessage(c.spec->queue, receipt, c.actor); // a refusal is logged by the engine
        }
    } else {
        m_engine.recordActorEvent(
            Cause::ProcessingFailed, c.actor, lane, kNoQueue, uint32_t(FailureKind::InProgressElsewhere));
    }
    consumerStartNext(index);
    return false;
}

void Simulation::consumerHeartbeat(size_t index)
{
    Consumer& c = *m_consumers[index];
    if (c.state != ConsumerState::Working || !c.current)
        return;
    if (faultRefuses(m_engine, c.spec->queue, c.actor, "ChangeMessageVisibility")) {
        if (const auto wait = nextRetry(c.heartbeatTries, c.spec->retries, m_random)) {
            schedule(m_engine.now() + *wait, ConsumerHeartbeat, uint32_t(index), c.generation);
            return;
        }
    } else { // refused by the 12-hour cap: not renewed, and the engine logs why; it then times out as SQS would
        c.heartbeatTries = 0;
        m_requests.count(0);
        (void)m_engine.changeMessageVisibility(
            c.spec->queue, c.current->receipt, c.spec->heartbeatVisibilityTimeout, c.actor);
    }
    schedule(m_engine.now() + *c.spec->heartbeatEvery, ConsumerHeartbeat, uint32_t(index), c.generation);
}

void Simulation::consumerWorkDone(size_t index)
{
    Consumer& c = *m_consumers[index];
    if (c.state != ConsumerState::Working || !c.current)
        return;
    c.generation++; // drops the pending heartbeat of this message
    HeldMessage& m = *c.current;
    const bool poison = m.fate == Fate::Poison;
    // The dice are thrown only for a message with no fate of its own, so runs without flaky markers are unchanged.
    m.failed = m.fate != Fate::Works || m_random.chance(c.spec->failureProbability);
    if (m.failed) {
        ++c.stats.failed;
        m_engine.recordActorEvent(Cause::ProcessingFailed, c.actor, m.lane, kNoQueue,
            uint32_t(poison ? FailureKind::Poison : FailureKind::Threw));
    } else {
        ++c.stats.finished;
        m_engine.recordActorEvent(Cause::ProcessingFinished, c.actor, m.lane);
    }
    m_ledger.end(m_engine.firstLaneOf(m.lane), !m.failed);
    consumerSettle(index);
}

void Simulation::consumerSettle(size_t index)
{
    Consumer& c = *m_consumers[index];
    const HeldMessage& m = *c.current;
    // Deleted once done; failed, released at once (fail fast: back in the queue now, not when its timeout ends).
    if (m.failed ? c.spec->releaseOnFailure : c.spec->deletes) {
        if (faultRefuses(m_engine, c.spec->queue, c.actor, m.failed ? "ChangeMessageVisibility" : "DeleteMessage")) {
            if (const auto wait = nextRetry(c.tries, c.spec->retries, m_random)) {
                schedule(m_engine.now() + *wait, ConsumerSettle, uint32_t(index), c.generation);
                return;
            }
        } else {
            m_requests.count(0);
            if (m.failed)
                (void)m_engine.changeMessageVisibility(c.spec->queue, m.receipt, 0, c.actor);
            else // a refusal (its queue deleted) is logged by the engine
                (void)m_engine.deleteMessage(c.spec->queue, m.receipt, c.actor);
        }
    }
    c.tries = 0;
    consumerStartNext(index);
}

bool Simulation::crashConsumer(size_t index)
{
    if (index >= m_consumers.size() && index - m_consumers.size() < m_pollers.size()) {
        Poller& p = *m_pollers[index - m_consumers.size()];
        if (p.failNext)
            return false;
        p.failNext = true;
        const std::string note = m_engine.run().actorName(p.actor) + ": its next invocation fails";
        m_engine.recordActorEvent(Cause::OperatorAction, kOperatorActor, kNoMessage,
            m_engine.queueIndex(m_scenario.lambdas[p.lambda].queue).value_or(kNoQueue), 0, &note);
        return true;
    }
    if (index >= m_consumers.size())
        return false;
    Consumer& c = *m_consumers[index];
    if (c.state == ConsumerState::Crashed)
        return false;
    const int64_t held = int64_t(c.batch.size()) + (c.current ? 1 : 0);
    c.stats.heldAtCrash += held;
    if (c.current)
        m_ledger.end(
            m_engine.firstLaneOf(c.current->lane), false); // its work is lost; nothing is deleted on its behalf
    m_engine.recordActorEvent(Cause::ConsumerCrashed, c.actor, c.current ? c.current->lane : kNoMessage,
        m_engine.queueIndex(c.spec->queue).value_or(kNoQueue), uint32_t(held));
    c.current.reset();
    c.batch.clear();
    c.poll = 0;
    c.tries = c.heartbeatTries = 0;
    c.state = ConsumerState::Crashed;
    ++c.generation;
    return true;
}

bool Simulation::restartConsumer(size_t index)
{
    if (index >= m_consumers.size() && index - m_consumers.size() < m_pollers.size()) {
        Poller& p = *m_pollers[index - m_consumers.size()];
        const bool was = p.failNext;
        p.failNext = false;
        return was;
    }
    if (index >= m_consumers.size() || m_consumers[index]->state != ConsumerState::Crashed
        || m_consumers[index]->removed)
        return false;
    Consumer& c = *m_consumers[index];
    c.state = ConsumerState::Idle;
    ++c.generation;
    m_engine.recordActorEvent(
        Cause::ConsumerRestarted, c.actor, kNoMessage, m_engine.queueIndex(c.spec->queue).value_or(kNoQueue));
    schedule(m_engine.now(), ConsumerPoll, uint32_t(index), c.generation);
    return true;
}

std::optional<TimeMs> nextRetry(uint32_t& tries, const scenario::RetrySpec& spec, Random& random)
{
    if (int64_t(++tries) >= spec.attempts) {
        tries = 0;
        return std::nullopt;
    }
    constexpr TimeMs kMaxBackoff = 20000; // the SDKs' standard mode's cap
    const TimeMs longest = std::min<TimeMs>(kMaxBackoff, spec.backoff << std::min<uint32_t>(tries - 1, 20));
    return TimeMs(random.uniform() * double(longest));
}

namespace {

// When a held message's visibility ends for the consumer's own receipt. Received again by another since (its timeout
// ended while this one worked), the receipt has no time left, whatever the message's new timeout says: 0, long past.
TimeMs receiptDeadline(const Engine& engine, const HeldMessage& held)
{
    const bool superseded = engine.run().message(held.lane).receiveCount > held.receipt.receiveCount;
    return superseded ? 0 : engine.times(held.lane).dueAt;
}

} // namespace

std::vector<ConsumerStatus> Simulation::consumers() const
{
    std::vector<ConsumerStatus> out;
    for (const auto& c : m_consumers) {
        ConsumerStatus status;
        status.name = c->stats.name;
        status.group = m_engine.run().actorGroup(c->actor);
        status.queue = c->spec->queue;
        status.actor = c->actor;
        status.state = c->state;
        status.waiting = c->batch.size();
        status.removed = c->removed;
        if (c->current) {
            status.holding = c->current->lane;
            status.visibleAgainAt = receiptDeadline(m_engine, *c->current);
        }
        out.push_back(status);
    }
    for (const auto& p : m_pollers) {
        ConsumerStatus status { .name = m_engine.run().actorName(p->actor),
            .group = m_engine.run().actorGroup(p->actor),
            .queue = m_scenario.lambdas[p->lambda].queue,
            .actor = p->actor,
            .lambda = true,
            .throttled = p->held,
            .backedOff
            = p->batch.empty() && m_mappingScalers[p->lambda].backedOffUntil(p->rank, m_engine.now()).has_value(),
            .notScaledUp = m_mappingScalers[p->lambda].notScaledUpTo(p->rank, m_engine.now()) };
        const bool invoked = !p->batch.empty() && !p->held;
        status.state = p->failNext ? ConsumerState::Crashed
            : invoked              ? ConsumerState::Working
            : p->poll != 0         ? ConsumerState::Polling
                                   : ConsumerState::Idle;
        if (invoked) {
            status.holding = p->batch.front().lane;
            status.visibleAgainAt = m_engine.times(status.holding).dueAt;
            status.waiting = p->batch.size() - 1; // the rest of the batch, in the same invocation
        } else {
            status.waiting = p->batch.size();
        }
        out.push_back(status);
    }
    return out;
}

} // namespace lifeline::sim
