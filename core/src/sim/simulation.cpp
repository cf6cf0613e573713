// The simulation's clock loop, producers and operator actions. Consumers and Lambda pollers live in their own files.
#include "lifeline/sim/simulation.h"

#include "lifeline/sim/distribution_text.h"
#include "lifeline/support/duration.h"
#include "service_access.h"
#include "simulation_internal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::sim {

namespace {
// The scenario's queues, then their redrive policies (a DLQ may be listed after its source); validated by
// parseScenario, so nothing is refused.
void createQueues(Engine& engine, const std::vector<scenario::QueueSpec>& queues)
{
    for (const auto& q : queues) {
        AttributeMap attributes = q.attributes;
        if (q.fifo)
            attributes["FifoQueue"] = "true";
        (void)engine.createQueue(q.name, attributes);
    }
    for (const auto& q : queues) {
        if (!q.deadLetterQueue)
            continue;
        const std::string policy = "{\"deadLetterTargetArn\":\"" + engine.getQueueArn(*q.deadLetterQueue).value()
            + "\",\"maxReceiveCount\":" + std::to_string(q.maxReceiveCount) + "}";
        (void)engine.setQueueAttributes(q.name, { { "RedrivePolicy", policy } });
    }
}
} // namespace

Simulation::Simulation(scenario::Scenario scenario, std::optional<uint64_t> seed, int64_t historyMs)
    : m_scenario(std::move(scenario))
    , m_engine(EngineOptions { .seed = seed.value_or(m_scenario.seed),
          .keepEndedBodies = true,
          .bodyDigests = false,
          .idStrings = false,
          .historyMs = historyMs,
          .forgetsOnItsOwn = false,
          .quotas = m_scenario.quotas,
          .faults = m_scenario.faults })
    , m_random(seed.value_or(m_scenario.seed))
    , m_alarms(m_scenario.alarms)
{
    // Actors 0 and 1 are SQS itself and the operator (event_log.h); the scenario's actors follow.
    m_actorSlots.push_back({ ActorKind::Sqs, 0 }); // the run's actors 0 and 1
    m_actorSlots.push_back({ ActorKind::Operator, 0 });
    createQueues(m_engine, m_scenario.queues);
    for (size_t t = 0; t < m_scenario.topics.size(); ++t)
        m_topicActors.push_back(addActor("SNS topic " + m_scenario.topics[t].name, ActorKind::Topic, t));
    addSubscriptionPolicies();
    for (size_t i = 0; i < m_scenario.producers.size(); ++i) {
        const auto& spec = m_scenario.producers[i];
        auto producer = std::make_unique<Producer>(spec);
        producer->actor = addActor(spec.name, ActorKind::Producer, i);
        for (const scenario::TopicSpec& topic : m_scenario.topics)
            if (topic.name == spec.topic)
                producer->topic = &topic;
        producer->rate = spec.rate;
        producer->fifo = spec.queue.ends_with(".fifo");
        producer->rateOrigin = spec.start;
        m_producers.push_back(std::move(producer));
        if (spec.rate > 0)
            scheduleRate(i, 0);
        for (size_t b = 0; b < spec.bursts.size(); ++b)
            schedule(spec.bursts[b].first, ProducerBurst, uint32_t(i), b);
        for (size_t m = 0; m < spec.messages.size(); ++m)
            schedule(spec.messages[m].at, ProducerMessage, uint32_t(i), m);
    }
    for (size_t i = 0; i < m_scenario.alarms.size(); ++i)
        schedule(m_scenario.alarms[i].period, AlarmPeriod, uint32_t(i));
    for (size_t i = 0; i < m_scenario.consumers.size(); ++i) {
        const scenario::ConsumerSpec& spec = m_scenario.consumers[i];
        if (spec.scaling)
            schedule(spec.start + spec.scaling->every, ScalingPolicy, uint32_t(i));
        for (int64_t k = 1; k <= spec.count; ++k) {
            auto consumer = std::make_unique<Consumer>(spec);
            consumer->stats.name = spec.count == 1 ? spec.name : spec.name + "-" + std::to_string(k);
            const size_t index = m_consumers.size();
            consumer->actor = addActor(consumer->stats.name, ActorKind::Consumer, index, spec.name);
            m_consumers.push_back(std::move(consumer));
            schedule(spec.start, ConsumerPoll, uint32_t(index), 0);
            for (const auto& crash : spec.crashes) {
                schedule(crash.at, ConsumerCrash, uint32_t(index));
                if (crash.restartAt)
                    schedule(*crash.restartAt, ConsumerRestart, uint32_t(index));
            }
        }
    }
    setUpLambdas();
    for (size_t a = 0; a < m_scenario.actions.size(); ++a)
        schedule(m_scenario.actions[a].at, Action, uint32_t(a));
    setUpScript();
}

Simulation::~Simulation() = default;

namespace {
// "six times your function timeout, plus the value of MaximumBatchingWindowInSeconds" (Lambda guide)
std::optional<std::string> sixTimesWarning(const scenario::LambdaSpec& spec, int64_t visibilitySeconds)
{
    const TimeMs recommended = 6 * spec.timeout + spec.batchingWindow;
    if (visibilitySeconds * 1000 >= recommended)
        return std::nullopt;
    const std::string window
        = spec.batchingWindow > 0 ? " plus the batching window (" + formatDuration(spec.batchingWindow) + ")" : "";
    return spec.name + ": the queue's visibility timeout (" + formatDuration(visibilitySeconds * 1000)
        + ") is under six times the function timeout (" + formatDuration(spec.timeout) + ")" + window
        + "; AWS recommends at least " + formatDuration(recommended) + ".";
}
} // namespace

void Simulation::setUpLambdas()
{
    m_lambdaRunning.assign(m_scenario.lambdas.size(), 0);
    m_lambdaWaiting.resize(m_scenario.lambdas.size());
    for (size_t l = 0; l < m_scenario.lambdas.size(); ++l) {
        const auto& spec = m_scenario.lambdas[l];
        const int64_t visibility = std::stoll(
            m_engine.getQueueAttributes(spec.queue, { "VisibilityTimeout" }).value().at("VisibilityTimeout"));
        uint32_t firstPoller = kSqsActor;
        m_mappingScalers.emplace_back(spec.pollers, spec.concurrency, spec.startingPollers(), spec.scaleUpEvery());
        for (int64_t k = 1; k <= spec.pollers; ++k) {
            auto poller = std::make_unique<Poller>(Poller { .lambda = l, .rank = k - 1 });
            const size_t index = m_pollers.size();
            poller->actor = addActor(
                spec.name + "/poller-" + std::to_string(k), ActorKind::LambdaPoller, index, spec.name + "/poller");
            if (k == 1)
                firstPoller = poller->actor;
            m_pollers.push_back(std::move(poller));
            schedule(0, PollerPoll, uint32_t(index));
        }
        // The warning concerns the event source mapping, so its first poller carries it.
        if (const auto warning = sixTimesWarning(spec, visibility)) {
            m_warnings.push_back(*warning);
            m_engine.recordActorEvent(
                Cause::Warning, firstPoller, kNoMessage, m_engine.queueIndex(spec.queue).value(), 0, &*warning);
        }
    }
}

uint32_t Simulation::addActor(const std::string& name, ActorKind kind, size_t slot, const std::string& group)
{
    m_actorSlots.push_back({ kind, slot });
    return m_engine.addActor(name, group);
}

void Simulation::schedule(TimeMs at, int kind, uint32_t index, uint64_t token)
{
    // Written field by field where the item stays (CalendarQueue::emplace says why).
    const auto fill = [&](Agenda& item) {
        item.at = at;
        item.seq = m_seq++;
        item.kind = kind;
        item.index = index;
        item.token = token;
    };
    if (at <= m_engine.now()) {
        at = m_engine.now();
        fill(m_present.emplace_back());
    } else {
        m_agenda.emplace(at, fill);
    }
}

void Simulation::scheduleRate(size_t index, int64_t k)
{
    const Producer& p = *m_producers[index];
    const TimeMs at = p.rateOrigin + TimeMs(std::llround(double(k - p.rateBase) * 1000.0 / p.rate));
    schedule(at, ProducerRate, uint32_t(index), (p.rateGeneration << kRateGenerationShift) | uint64_t(k));
}

TimeMs Simulation::nextEventTime()
{
    const TimeMs agenda = m_presentNext < m_present.size() ? m_engine.now()
        : m_agenda.empty()                                 ? INT64_MAX
                                                           : m_agenda.top().at;
    return std::min(agenda, m_engine.nextDueTime());
}

TimeMs Simulation::nextStepBound()
{
    const TimeMs agenda = m_presentNext < m_present.size() ? m_engine.now()
        : m_agenda.empty()                                 ? INT64_MAX
                                                           : m_agenda.top().at;
    return std::min(agenda, m_engine.nextDueBound());
}

void Simulation::advanceTo(TimeMs time)
{
    if (m_stall)
        return;
    for (;;) {
        const TimeMs next = nextStepBound();
        if (next > time)
            break;
        m_engine.advanceTo(next);
        dispatchPolls();
        for (;;) {
            Agenda item {};
            if (!m_agenda.empty() && m_agenda.top().at <= m_engine.now()) {
                item = m_agenda.top();
                m_agenda.pop();
            } else if (m_presentNext < m_present.size()) {
                item = m_present[m_presentNext++];
            } else {
                break;
            }
            if (!progressing(item))
                return;
            run(item);
            dispatchPolls();
        }
        m_present.clear();
        m_presentNext = 0;
    }
    m_engine.advanceTo(time);
    dispatchPolls();
}

namespace {
// A send's MessageGroupId: the message's own, else the producer's one group (a tenant on a standard queue), else on
// FIFO its groups g1..gN in turn; none on a standard queue.
std::optional<std::string> groupIdFor(
    const scenario::ProducerSpec& spec, int64_t n, bool fifo, const std::optional<std::string>& own)
{
    if (own)
        return own;
    if (!spec.groupId.empty())
        return spec.groupId;
    if (fifo)
        return "g" + std::to_string((n - 1) % spec.groups + 1);
    return std::nullopt;
}

std::string withThousands(uint64_t n) // 1,000,001
{
    std::string digits = std::to_string(n);
    for (size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, ",");
    return digits;
}
} // namespace

bool Simulation::progressing(const Agenda& item)
{
    const size_t events = m_engine.log().size();
    if (m_engine.now() != m_stepInstant) {
        m_stepInstant = m_engine.now();
        m_stepsAtInstant = 0;
        m_eventsBeforeInstant = events;
    }
    if (++m_stepsAtInstant <= kStallSteps && events - m_eventsBeforeInstant <= kStallEvents)
        return true;
    char at[32];
    std::snprintf(at, sizeof at, "%.3f s", double(m_stepInstant) / 1000.0);
    m_stall = std::string("the run loops at ") + at + ": " + withThousands(m_stepsAtInstant) + " steps and "
        + withThousands(events - m_eventsBeforeInstant)
        + " events without the clock moving (the last: " + describeStep(item) + "); it was stopped there";
    return false;
}

std::string Simulation::describeStep(const Agenda& item) const
{
    const auto consumer = [&] { return m_consumers[item.index]->stats.name; };
    const auto poller = [&] { return m_engine.run().actorName(m_pollers[item.index]->actor); };
    switch (item.kind) {
    case ProducerRate:
    case ProducerBurst:
    case ProducerMessage:
        return "producer " + m_producers[item.index]->spec->name + " sends to "
            + (m_producers[item.index]->topic ? "topic " + m_producers[item.index]->spec->topic
                                              : m_producers[item.index]->spec->queue);
    case ConsumerPoll:
        return "consumer " + consumer() + " polls " + m_consumers[item.index]->spec->queue;
    case ConsumerWorkDone:
    case ConsumerHeartbeat:
    case ConsumerSettle:
        return "consumer " + consumer() + " works";
    case ConsumerCrash:
    case ConsumerRestart:
        return "consumer " + consumer() + " crashes or restarts";
    case PollerPoll:
    case HeldBatchExpires:
        return "Lambda poller " + poller() + " receives from "
            + m_scenario.lambdas[m_pollers[item.index]->lambda].queue;
    case InvocationDone:
        return "Lambda poller " + poller() + " finishes an invocation";
    case Action:
        return "an operator action";
    case ScriptCall:
        return "script step " + std::to_string(item.index + 1);
    case ScalingPolicy:
        return "the scaling policy of " + m_scenario.consumers[item.index].name;
    case AlarmPeriod:
        return "the alarm " + m_scenario.alarms[item.index].name;
    }
    return "a step";
}

void Simulation::dispatchPolls()
{
    if (!m_engine.hasCompletedPolls()) // most steps answer none: called after every one of them
        return;
    // The buffer is taken, not used in place: an actor that handles a poll may complete another one.
    std::vector<CompletedPoll> completed;
    completed.swap(m_completedPolls);
    m_engine.takeCompletedPolls(completed);
    for (auto& done : completed) {
        // The poll's caller is its owner: only the simulation's own actors poll with a consumer's, a poller's or a
        // script client's actor.
        if (done.actor >= m_actorSlots.size())
            continue;
        const auto [kind, slot] = m_actorSlots[done.actor];
        if (kind == ActorKind::Consumer)
            consumerReceived(slot, done.deliveries, true, done.poll);
        else if (kind == ActorKind::LambdaPoller)
            pollerReceived(slot, std::move(done.messages), done.poll);
        else if (kind == ActorKind::ScriptClient)
            if (const auto step = m_scriptPolls.find(done.poll); step != m_scriptPolls.end()) {
                const size_t index = step->second;
                m_scriptPolls.erase(step);
                scriptReceived(index, done.messages);
            }
    }
    completed.clear();
    m_completedPolls.swap(completed);
}

void Simulation::run(const Agenda& item)
{
    switch (item.kind) {
    case ProducerRate: {
        Producer& p = *m_producers[item.index];
        const scenario::ProducerSpec& spec = *p.spec;
        if (item.token >> kRateGenerationShift != p.rateGeneration)
            return; // planned at a rate the operator has since changed
        const int64_t k = int64_t(item.token & ((uint64_t(1) << kRateGenerationShift) - 1));
        if (!p.userRate && ((spec.count && k >= *spec.count) || (spec.stop && item.at >= *spec.stop)))
            return;
        produce(item.index);
        m_requests.closeBatch();
        p.rateSent = k + 1;
        scheduleRate(item.index, k + 1);
        return;
    }
    case ProducerBurst: {
        const scenario::ProducerSpec& spec = *m_producers[item.index]->spec;
        for (int64_t i = 0; i < spec.bursts[item.token].second; ++i)
            produce(item.index);
        m_requests.closeBatch();
        return;
    }
    case ProducerMessage:
        produce(item.index, m_producers[item.index]->spec->messages[item.token]);
        m_requests.closeBatch();
        return;
    case ConsumerPoll:
    case ConsumerWorkDone:
    case ConsumerHeartbeat:
    case ConsumerSettle:
        if (m_consumers[item.index]->generation != item.token)
            return; // planned before a crash or restart
        if (item.kind == ConsumerPoll)
            consumerPoll(item.index);
        else if (item.kind == ConsumerWorkDone)
            consumerWorkDone(item.index);
        else if (item.kind == ConsumerSettle)
            consumerSettle(item.index);
        else
            consumerHeartbeat(item.index);
        return;
    case ConsumerCrash:
        crashConsumer(item.index);
        return;
    case ConsumerRestart:
        restartConsumer(item.index);
        return;
    case PollerPoll:
        pollerPoll(item.index);
        return;
    case InvocationDone:
        invocationDone(item.index);
        return;
    case Action:
        runAction(item.index);
        return;
    case HeldBatchExpires:
        heldBatchExpires(item.index, item.token);
        return;
    case ScriptCall:
        runScriptStep(item.index);
        return;
    case ScalingPolicy:
        applyScalingPolicy(item.index);
        return;
    case AlarmPeriod:
        m_alarms.evaluate(item.index, m_engine);
        schedule(m_engine.now() + m_scenario.alarms[item.index].period, AlarmPeriod, item.index);
        return;
    }
}

void expandBody(std::string& out, std::string_view body, int64_t n)
{
    out.assign(body);
    const std::string number = std::to_string(n);
    for (size_t at = out.find("{n}"); at != std::string::npos; at = out.find("{n}", at + number.size()))
        out.replace(at, 3, number);
}

void Simulation::produce(size_t index, const scenario::TimedMessage& message)
{
    Producer& p = *m_producers[index];
    const int64_t n = ++p.sent;
    expandBody(p.request.body, message.body, n);
    if (p.topic) {
        publish(index, n, message.attributes, message.label);
        return;
    }
    if (!p.spec->s3Bucket.empty()) {
        (void)sendS3Event(index, message.label);
        return;
    }
    p.request.attributes = stringAttributes(message.attributes);
    const MessageIndex lane = sendProduced(index, n, message.delaySeconds, message.groupId, message.deduplicationId);
    if (lane != kNoMessage)
        m_engine.labelLane(lane, message.label);
}

void Simulation::produce(size_t index)
{
    static const std::optional<std::string> kNone;
    Producer& p = *m_producers[index];
    const int64_t n = ++p.sent;
    expandBody(p.request.body, p.spec->body, n);
    p.request.attributes.clear();
    if (p.topic) {
        publish(index, n, {}, {});
        return;
    }
    if (!p.spec->s3Bucket.empty()) {
        (void)sendS3Event(index, {});
        return;
    }
    (void)sendProduced(index, n, p.spec->delaySeconds, kNone, kNone);
}

MessageIndex Simulation::sendProduced(size_t index, int64_t n, const std::optional<int64_t>& delaySeconds,
    const std::optional<std::string>& groupId, const std::optional<std::string>& deduplicationId)
{
    shapeBody(*m_producers[index]->spec, m_producers[index]->request.body, n);
    Producer& p = *m_producers[index];
    const scenario::ProducerSpec& spec = *p.spec;
    SendMessageRequest& request = p.request;
    m_requests.batchEntry(request.body.size(), spec.sendBatch);
    if (!spec.account.empty() && !letIn(index, callerOf(spec.account), request.body))
        return kNoMessage;
    request.delaySeconds = delaySeconds;
    request.actor = p.actor;
    const bool fifo = p.fifo;
    request.messageGroupId = groupIdFor(spec, n, fifo, groupId);
    if (deduplicationId)
        request.messageDeduplicationId = deduplicationId;
    else if (fifo)
        request.messageDeduplicationId = spec.name + "-" + std::to_string(n);
    else
        request.messageDeduplicationId.reset();
    return m_engine.send(request); // a refused send (kNoMessage) is logged by the engine where it happened
}

void shapeBody(const scenario::ProducerSpec& spec, std::string& body, int64_t n)
{
    if (spec.poisonEvery > 0 && n % spec.poisonEvery == 0)
        body.insert(0, "poison ");
    if (spec.bodyBytes && body.size() < size_t(*spec.bodyBytes))
        body.resize(size_t(*spec.bodyBytes), ' '); // a large message: its words, then spaces
}

void Simulation::runAction(size_t index)
{
    const scenario::ActionSpec& a = m_scenario.actions[index];
    std::string what;
    // Every operator action is an event on its queue's row before it takes effect.
    const auto note = [&] {
        m_engine.recordActorEvent(Cause::OperatorAction, kOperatorActor, kNoMessage,
            m_engine.queueIndex(a.queue).value_or(kNoQueue), 0, &what);
    };
    switch (a.kind) {
    case scenario::ActionSpec::Kind::SetAttributes:
        what = "set";
        for (const auto& [k, v] : a.attributes)
            what += " " + k + "=" + v;
        what += " on " + a.queue;
        note();
        (void)m_engine.setQueueAttributes(
            a.queue, a.attributes); // a refusal is logged by the engine on the queue's row
        return;
    case scenario::ActionSpec::Kind::Purge:
        what = "purge " + a.queue;
        note();
        (void)m_engine.purgeQueue(a.queue); // a refusal (within 60 s of the last purge) is logged by the engine
        return;
    case scenario::ActionSpec::Kind::Redrive: {
        what = "redrive " + a.queue + (a.destination ? " to " + *a.destination : " to its sources");
        note();
        const auto source = m_engine.getQueueArn(a.queue);
        std::optional<std::string> destination;
        if (a.destination)
            if (auto arn = m_engine.getQueueArn(*a.destination))
                destination = arn.value();
        if (source)
            (void)m_engine.startMessageMoveTask(
                source.value(), destination, std::nullopt); // a refusal is logged by the engine
        return;
    }
    case scenario::ActionSpec::Kind::Send: {
        what = "send \"" + a.message.body + "\" to " + a.queue;
        note();
        // A refusal is logged by the engine where it happened.
        if (const auto sent = m_engine.sendMessage(sendRequest(a.queue, a.message, kOperatorActor)))
            m_engine.labelLane(sent->lane, a.message.label);
        return;
    }
    case scenario::ActionSpec::Kind::Crash:
    case scenario::ActionSpec::Kind::Restart:
        for (size_t i = 0; i < m_consumers.size(); ++i) {
            const auto& c = *m_consumers[i];
            const bool named = c.stats.name == a.consumer || c.spec->name == a.consumer;
            if (!named)
                continue;
            if (a.kind == scenario::ActionSpec::Kind::Crash)
                crashConsumer(i);
            else
                restartConsumer(i);
        }
        return;
    }
}

} // namespace lifeline::sim
