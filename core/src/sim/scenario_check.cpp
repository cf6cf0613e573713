// The second pass of reading a scenario: references between its parts, and what only SQS can judge (attribute
// values, message timers), checked on a scratch engine once every field reads right. Problems are reported through
// the reader (scenario_reading.h), so they come with the first pass's, all at once.
#include "lifeline/engine.h"
#include "lifeline/sim/scenario.h"
#include "scenario_reading.h"

#include <set>

namespace lifeline::sim::reading {

namespace {

std::string listed(const std::set<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "\"" : ", \"") + n + "\"";
    return out.empty() ? "none" : out;
}

// Each attribute alone on a scratch queue, so a refusal names its attribute: unknown names get a did-you-mean,
// numbers out of range say the range, and SQS's own text follows.
void checkAttributes(Engine& scratch, const QueueSpec& q, const std::string& path)
{
    for (const auto& [name, value] : q.attributes) {
        const std::string p = path + ".attributes." + name;
        if (!isKnownAttributeName(name)) {
            const std::string guess = nearest(name, settableAttributeNames());
            report(p, "unknown attribute" + (guess.empty() ? std::string() : "; did you mean \"" + guess + "\"?"));
            continue;
        }
        AttributeMap one { { name, value } };
        if (q.fifo)
            one["FifoQueue"] = "true";
        const std::string probe = "probe-" + std::to_string(scratch.queueCount()) + (q.fifo ? ".fifo" : "");
        const auto created = scratch.createQueue(probe, one);
        if (created)
            continue;
        const auto range = attributeRange(name);
        report(p,
            (range ? value + " is out of range " + std::to_string(range->first) + "-" + std::to_string(range->second)
                   : "\"" + value + "\" is refused")
                + " (SQS: " + created.error().message + ")");
    }
}

// A send that SQS would refuse is a load error, unless the scenario says the refusal is the point.
void checkSend(Engine& scratch, const std::string& queue, const std::optional<int64_t>& delaySeconds, bool expected,
    const std::string& path)
{
    if (!delaySeconds || expected)
        return;
    SendMessageRequest probe;
    probe.queue = queue;
    probe.body = "probe";
    probe.delaySeconds = delaySeconds;
    if (queue.ends_with(".fifo")) {
        probe.messageGroupId = "probe";
        probe.messageDeduplicationId = "probe-" + std::to_string(scratch.messageCount());
    }
    const auto sent = scratch.sendMessage(probe);
    if (!sent)
        report(path + ".delaySeconds",
            std::to_string(*delaySeconds) + " would be refused (SQS: " + sent.error().message
                + "); set \"expectRefused\": true if the refusal is the point");
}

// Cross-references and what only SQS can judge (attribute values, sends): checked on a scratch engine once every
// field reads right.
} // namespace

void crossCheck(const Scenario& s)
{
    std::set<std::string> queues;
    for (size_t i = 0; i < s.queues.size(); ++i) {
        if (!queues.insert(s.queues[i].name).second)
            report(at("queues", i) + ".name", "another queue already has the name \"" + s.queues[i].name + "\"");
    }
    Engine scratch;
    for (size_t i = 0; i < s.queues.size(); ++i) {
        const size_t before = problemCount();
        checkAttributes(scratch, s.queues[i], at("queues", i));
        AttributeMap attributes = s.queues[i].attributes;
        if (s.queues[i].fifo)
            attributes["FifoQueue"] = "true";
        const auto created = scratch.createQueue(s.queues[i].name, attributes);
        // A refusal not already explained attribute by attribute (the name, or attributes that clash).
        if (!created && created.error().code != codes::QueueAlreadyExists && problemCount() == before)
            report(at("queues", i), created.error().message);
    }
    const auto known = [&](const std::string& name, const std::string& path) {
        if (queues.count(name))
            return true;
        std::vector<std::string> names(queues.begin(), queues.end());
        const std::string guess = nearest(name, names);
        report(path,
            "no queue is named \"" + name + "\""
                + (guess.empty() ? "; the queues are " + listed(queues) : "; did you mean \"" + guess + "\"?"));
        return false;
    };
    for (size_t i = 0; i < s.queues.size(); ++i) {
        const auto& q = s.queues[i];
        if (!q.deadLetterQueue || !known(*q.deadLetterQueue, at("queues", i) + ".deadLetter.queue"))
            continue;
        const auto arn = scratch.getQueueArn(*q.deadLetterQueue);
        if (!arn || !scratch.queueIndex(q.name))
            continue; // the queue itself was refused: reported above
        const std::string policy = "{\"deadLetterTargetArn\":\"" + arn.value()
            + "\",\"maxReceiveCount\":" + std::to_string(q.maxReceiveCount) + "}";
        const auto set = scratch.setQueueAttributes(q.name, { { "RedrivePolicy", policy } });
        if (!set)
            report(at("queues", i) + ".deadLetter", set.error().message);
    }
    for (size_t i = 0; i < s.producers.size(); ++i) {
        const auto& p = s.producers[i];
        const std::string path = at("producers", i);
        if (!known(p.queue, path + ".queue") || !scratch.queueIndex(p.queue))
            continue;
        checkSend(scratch, p.queue, p.delaySeconds, p.expectRefused, path);
        for (size_t m = 0; m < p.messages.size(); ++m)
            checkSend(scratch, p.queue, p.messages[m].delaySeconds, p.expectRefused || p.messages[m].expectRefused,
                at(path + ".messages", m));
    }
    // Consumers are named as the simulation names them: the name alone for one, name-1, name-2 ... for several.
    std::set<std::string> consumers;
    for (size_t i = 0; i < s.consumers.size(); ++i) {
        known(s.consumers[i].queue, at("consumers", i) + ".queue");
        if (s.consumers[i].count == 1)
            consumers.insert(s.consumers[i].name);
        else
            for (int64_t k = 1; k <= s.consumers[i].count; ++k)
                consumers.insert(s.consumers[i].name + "-" + std::to_string(k));
    }
    for (size_t i = 0; i < s.lambdas.size(); ++i)
        known(s.lambdas[i].queue, at("lambdas", i) + ".queue");
    for (size_t i = 0; i < s.actions.size(); ++i) {
        const auto& a = s.actions[i];
        const std::string p = at("actions", i);
        switch (a.kind) {
        case ActionSpec::Kind::SetAttributes:
            known(a.queue, p + ".setAttributes.queue");
            break;
        case ActionSpec::Kind::Purge:
            known(a.queue, p + ".purge");
            break;
        case ActionSpec::Kind::Redrive:
            known(a.queue, p + ".redrive.source");
            if (a.destination)
                known(*a.destination, p + ".redrive.destination");
            break;
        case ActionSpec::Kind::Send:
            if (known(a.queue, p + ".send.queue") && scratch.queueIndex(a.queue))
                checkSend(scratch, a.queue, a.message.delaySeconds, a.message.expectRefused, p + ".send");
            break;
        case ActionSpec::Kind::Crash:
        case ActionSpec::Kind::Restart:
            if (!consumers.count(a.consumer))
                report(p + (a.kind == ActionSpec::Kind::Crash ? ".crash" : ".restart"),
                    "no consumer is named \"" + a.consumer + "\"; the consumers are " + listed(consumers));
            break;
        }
    }
}

} // namespace lifeline::sim::reading
