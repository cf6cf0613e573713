// Live changes by the operator while a simulation runs: what the window's sliders, send dialog and consumer tiles do.
// Each is noted on the queue's row (an OperatorAction event) before it takes effect, so the timeline shows who changed
// what and when; the engine refuses what SQS refuses, with SQS's text, and then nothing changes.
#include "lifeline/sim/distribution_text.h"
#include "lifeline/support/duration.h"
#include "simulation_internal.h"

#include <cmath>

namespace lifeline::sim {

void Simulation::noteOperator(const std::string& queue, const std::string& what)
{
    m_engine.recordActorEvent(
        Cause::OperatorAction, kOperatorActor, kNoMessage, m_engine.queueIndex(queue).value_or(kNoQueue), 0, &what);
}

Status Simulation::setQueueAttributes(const std::string& queue, const AttributeMap& attributes)
{
    std::string what = "set";
    for (const auto& [name, value] : attributes)
        what += " " + name + "=" + (value.empty() ? "(none)" : value);
    noteOperator(queue, what + " on " + queue);
    return m_engine.setQueueAttributes(queue, attributes);
}

Result<SendMessageResult> Simulation::sendMessage(const std::string& queue, const scenario::TimedMessage& message)
{
    noteOperator(queue, "send \"" + message.body.substr(0, 40) + "\" to " + queue);
    m_requests.count(message.body.size());
    auto sent = m_engine.sendMessage(
        sendRequest(queue, message, kOperatorActor)); // a refusal is logged by the engine with SQS's text
    if (sent && sent->messageId.empty()) // the simulation's engine leaves ids unformatted; the operator sees one
        sent.value().messageId = m_engine.messageId(sent->lane);
    if (sent)
        m_engine.labelLane(sent->lane, message.label);
    return sent;
}

Result<std::string> Simulation::createQueue(const std::string& name, const AttributeMap& attributes)
{
    auto created = m_engine.createQueue(name, attributes);
    if (created) // noted on the new queue's row, so after it exists
        noteOperator(name, "create queue " + name);
    return created;
}

size_t Simulation::addConsumer(const std::string& queue)
{
    const scenario::ConsumerSpec* spec = nullptr;
    for (const auto& c : m_consumers)
        if (c->spec->queue == queue) {
            spec = c->spec;
            break;
        }
    if (!spec) {
        scenario::ConsumerSpec added;
        added.name = "worker";
        added.queue = queue;
        spec = &m_addedSpecs.emplace_back(std::move(added));
    }
    noteOperator(queue, "add consumer " + spec->name + "-" + std::to_string(siblingsOf(*spec) + 1));
    return spawnConsumer(*spec, m_engine.now());
}

size_t Simulation::spawnConsumer(const scenario::ConsumerSpec& spec, TimeMs firstPoll)
{
    // Named after its spec, numbered past every consumer that spec ever had.
    auto consumer = std::make_unique<Consumer>(spec);
    consumer->stats.name = spec.name + "-" + std::to_string(siblingsOf(spec) + 1);
    const size_t index = m_consumers.size();
    consumer->actor = addActor(consumer->stats.name, ActorKind::Consumer, index, spec.name);
    m_consumers.push_back(std::move(consumer));
    schedule(firstPoll, ConsumerPoll, uint32_t(index), 0);
    return index;
}

size_t Simulation::siblingsOf(const scenario::ConsumerSpec& spec) const
{
    size_t siblings = 0;
    for (const auto& c : m_consumers)
        siblings += c->spec->name == spec.name ? 1 : 0;
    return siblings;
}

bool Simulation::removeConsumer(size_t index)
{
    if (index >= m_consumers.size() || m_consumers[index]->removed)
        return false;
    Consumer& c = *m_consumers[index];
    noteOperator(c.spec->queue, "remove consumer " + c.stats.name);
    if (c.state != ConsumerState::Crashed)
        crashConsumer(index);
    c.removed = true;
    return true;
}

void Simulation::setProcessingTime(const std::string& queue, const scenario::Distribution& processing)
{
    noteOperator(queue, "processing time of " + queue + "'s consumers: " + describe(processing));
    for (auto& spec : m_scenario.consumers)
        if (spec.queue == queue)
            spec.processing = processing;
    for (auto& spec : m_addedSpecs)
        if (spec.queue == queue)
            spec.processing = processing;
}

bool Simulation::setProducerRate(size_t index, double rate)
{
    if (index >= m_producers.size() || !std::isfinite(rate) || rate < 0)
        return false;
    Producer& p = *m_producers[index];
    noteOperator(p.spec->queue, "rate of " + p.spec->name + ": " + formatNumber(rate) + " per second");
    // The rate-driven messages sent so far keep their numbers; the next one is due one new interval from now (or at
    // the producer's start, when that is still ahead).
    ++p.rateGeneration;
    p.rate = rate;
    p.userRate = true;
    if (rate > 0) {
        const TimeMs now = m_engine.now();
        p.rateOrigin = now < p.spec->start ? p.spec->start : now + TimeMs(std::llround(1000.0 / rate));
        p.rateBase = p.rateSent;
        scheduleRate(index, p.rateSent);
    }
    return true;
}

double Simulation::producerRate(size_t index) const
{
    if (index >= m_producers.size())
        return 0;
    // What it sends now: nothing once its scenario's count or stop ended it (until the user sets a rate).
    const Producer& p = *m_producers[index];
    const scenario::ProducerSpec& spec = *p.spec;
    const bool ended = (spec.count && p.rateSent >= *spec.count) || (spec.stop && m_engine.now() >= *spec.stop);
    return ended && !p.userRate ? 0 : p.rate;
}

} // namespace lifeline::sim
