// The second pass of reading a scenario: references between its parts, and what only SQS can judge (attribute
// values, message timers), checked on a scratch engine once every field reads right. Problems are reported through
// the reader (scenario_reading.h), so they come with the first pass's, all at once.
#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"
#include "scenario_reading.h"

#include <algorithm>
#include <set>

namespace lifeline::scenario::reading {

namespace {

std::string listed(const std::set<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "\"" : ", \"") + n + "\"";
    return out.empty() ? "none" : out;
}

// Whether SQS takes the queue's attributes together.
bool createsWithTheOthers(Engine& scratch, const QueueSpec& q)
{
    AttributeMap all = q.attributes;
    if (q.fifo)
        all["FifoQueue"] = "true";
    const std::string probe = "probe-" + std::to_string(scratch.queueCount()) + (q.fifo ? ".fifo" : "");
    return scratch.createQueue(probe, all).ok();
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
        if (created || createsWithTheOthers(scratch, q))
            continue; // refused alone only for lack of another (FifoThroughputLimit perMessageGroupId needs
                      // DeduplicationScope messageGroup): what the queue's attributes say together is checked there
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
class CrossCheck {
public:
    explicit CrossCheck(const Scenario& s)
        : m_s(s)
    {
    }
    void run()
    {
        createQueues();
        checkDeadLetters();
        checkTopics();
        checkProducers();
        const std::set<std::string> consumers = consumerNames();
        checkLambdas();
        for (size_t i = 0; i < m_s.alarms.size(); ++i)
            (void)known(m_s.alarms[i].queue, at("alarms", i) + ".queue");
        checkActions(consumers);
        checkMoments();
    }

private:
    // A queue the scenario names exists, or the path is reported with the nearest name.
    bool known(const std::string& name, const std::string& path)
    {
        if (m_queues.count(name))
            return true;
        std::vector<std::string> names(m_queues.begin(), m_queues.end());
        const std::string guess = nearest(name, names);
        report(path,
            "no queue is named \"" + name + "\""
                + (guess.empty() ? "; the queues are " + listed(m_queues) : "; did you mean \"" + guess + "\"?"));
        return false;
    }

    void createQueues()
    {
        for (size_t i = 0; i < m_s.queues.size(); ++i) {
            if (!m_queues.insert(m_s.queues[i].name).second)
                report(at("queues", i) + ".name", "another queue already has the name \"" + m_s.queues[i].name + "\"");
        }
        for (size_t i = 0; i < m_s.queues.size(); ++i) {
            const size_t before = problemCount();
            checkAttributes(m_scratch, m_s.queues[i], at("queues", i));
            AttributeMap attributes = m_s.queues[i].attributes;
            if (m_s.queues[i].fifo)
                attributes["FifoQueue"] = "true";
            const auto created = m_scratch.createQueue(m_s.queues[i].name, attributes);
            // A refusal not already explained attribute by attribute (the name, or attributes that clash).
            if (!created && created.error().code != codes::QueueAlreadyExists && problemCount() == before)
                report(at("queues", i), created.error().message);
        }
    }

    // A moment may name a queue that its lesson's fix turns FIFO or back (lesson 17): that moment just finds nothing
    // in the fixed run. A name that is neither a queue nor one's twin is a typo.
    void checkMoments()
    {
        if (!m_s.lesson)
            return;
        for (size_t i = 0; i < m_s.lesson->moments.size(); ++i) {
            const auto& queue = m_s.lesson->moments[i].queue;
            if (!queue)
                continue;
            const std::string twin = queue->ends_with(".fifo") ? queue->substr(0, queue->size() - 5) : *queue + ".fifo";
            if (!m_queues.count(twin))
                known(*queue, at("lesson.moments", i) + ".queue");
        }
    }

    void checkDeadLetters()
    {
        for (size_t i = 0; i < m_s.queues.size(); ++i) {
            const auto& q = m_s.queues[i];
            if (!q.deadLetterQueue || !known(*q.deadLetterQueue, at("queues", i) + ".deadLetter.queue"))
                continue;
            const auto arn = m_scratch.getQueueArn(*q.deadLetterQueue);
            if (!arn || !m_scratch.queueIndex(q.name))
                continue; // the queue itself was refused: reported above
            const std::string policy = "{\"deadLetterTargetArn\":\"" + arn.value()
                + "\",\"maxReceiveCount\":" + std::to_string(q.maxReceiveCount) + "}";
            const auto set = m_scratch.setQueueAttributes(q.name, { { "RedrivePolicy", policy } });
            if (!set)
                report(at("queues", i) + ".deadLetter", set.error().message);
        }
    }

    // SNS delivers a standard topic's messages to standard queues only: a FIFO queue subscribes to a FIFO topic.
    void checkTopics()
    {
        for (size_t t = 0; t < m_s.topics.size(); ++t)
            for (size_t i = 0; i < m_s.topics[t].subscriptions.size(); ++i) {
                const std::string& queue = m_s.topics[t].subscriptions[i].queue;
                const std::string path = at(at("topics", t) + ".subscriptions", i) + ".queue";
                if (known(queue, path) && queue.ends_with(".fifo"))
                    report(path, "an SNS standard topic cannot deliver to the FIFO queue \"" + queue + "\"");
            }
    }

    // A producer that publishes to a topic: the topic exists, and its messages carry nothing SNS's Publish to a
    // standard topic does not take (a per-message delay, FIFO's ids).
    void checkPublisher(const ProducerSpec& p, const std::string& path)
    {
        if (!p.queue.empty())
            report(path + ".queue", "a producer sends to a queue or publishes to a topic, not both");
        const bool found
            = std::any_of(m_s.topics.begin(), m_s.topics.end(), [&](const TopicSpec& t) { return t.name == p.topic; });
        if (!found)
            report(path + ".topic", "no topic is named \"" + p.topic + "\"");
        if (p.delaySeconds)
            report(path + ".delaySeconds", "a publish to an SNS topic has no delay; give the subscribed queue one");
        if (!p.groupId.empty())
            report(path + ".groupId", "a publish to an SNS standard topic takes no groupId");
        for (size_t m = 0; m < p.messages.size(); ++m) {
            const TimedMessage& message = p.messages[m];
            if (message.delaySeconds || message.groupId || message.deduplicationId)
                report(at(path + ".messages", m),
                    "a publish to an SNS standard topic takes no delaySeconds, groupId "
                    "or deduplicationId");
        }
    }

    // S3's event notifications: a bucket name as S3 takes them, to a standard queue (S3 cannot notify a FIFO queue),
    // and nothing on the messages S3 would not send.
    void checkBucket(const ProducerSpec& p, const std::string& path)
    {
        const bool named = p.s3Bucket.size() >= 3 && p.s3Bucket.size() <= 63
            && p.s3Bucket.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789.-") == std::string::npos;
        if (!named)
            report(path + ".s3Bucket",
                "must be 3 to 63 lowercase letters, digits, dots or hyphens, got \"" + p.s3Bucket + "\"");
        if (!p.topic.empty() || p.queue.ends_with(".fifo"))
            report(path + ".s3Bucket", "S3 notifies a standard queue: not a topic of the scenario, nor a FIFO queue");
        if (p.delaySeconds || p.groups != 1 || !p.groupId.empty())
            report(path, "an S3 event notification has no delaySeconds and no group");
        for (size_t m = 0; m < p.messages.size(); ++m)
            if (p.messages[m].delaySeconds || p.messages[m].groupId || p.messages[m].deduplicationId)
                report(at(path + ".messages", m),
                    "an S3 event notification has no delaySeconds, groupId or "
                    "deduplicationId: its body is the object's key");
    }

    void checkProducers()
    {
        for (size_t i = 0; i < m_s.producers.size(); ++i) {
            const auto& p = m_s.producers[i];
            const std::string path = at("producers", i);
            if (!p.s3Bucket.empty())
                checkBucket(p, path);
            if (!p.account.empty() && (!p.topic.empty() || !p.s3Bucket.empty()))
                report(path + ".account",
                    "a producer that sends from another account sends to a queue itself: not "
                    "through a topic or as a bucket's notifications");
            if (!p.groupId.empty() && p.groups != 1)
                report(path + ".groupId", "one groupId for every message, or groups g1..gN: not both");
            if (!p.topic.empty()) {
                checkPublisher(p, path);
                continue;
            }
            if (!known(p.queue, path + ".queue") || !m_scratch.queueIndex(p.queue))
                continue;
            checkSend(m_scratch, p.queue, p.delaySeconds, p.expectRefused, path);
            for (size_t m = 0; m < p.messages.size(); ++m)
                checkSend(m_scratch, p.queue, p.messages[m].delaySeconds,
                    p.expectRefused || p.messages[m].expectRefused, at(path + ".messages", m));
        }
    }

    // Lambda refuses to create an event source mapping whose function may run longer than the queue's visibility
    // timeout, with this text (services-sqs-configure in the Lambda developer guide; the message as AWS returns it).
    // Only at creation: a VisibilityTimeout lowered later is SQS's business, and the simulation's run-loop guard
    // stops a run that then makes no progress.
    void checkLambdas()
    {
        for (size_t i = 0; i < m_s.lambdas.size(); ++i) {
            const auto& l = m_s.lambdas[i];
            if (!known(l.queue, at("lambdas", i) + ".queue") || !m_scratch.queueIndex(l.queue))
                continue;
            checkBatching(l, at("lambdas", i));
            if (!l.deadLetterQueue.empty())
                (void)known(l.deadLetterQueue, at("lambdas", i) + ".deadLetterQueue");
            const auto attributes = m_scratch.getQueueAttributes(l.queue, { "VisibilityTimeout" });
            const int64_t visibility = std::stoll(attributes.value().at("VisibilityTimeout"));
            if (visibility * 1000 >= l.timeout)
                continue;
            report(at("lambdas", i) + ".timeout",
                "Lambda refuses this trigger (InvalidParameterValueException: Queue visibility timeout: "
                    + std::to_string(visibility) + " seconds is less than Function timeout: " + formatSeconds(l.timeout)
                    + " seconds); give " + l.queue + " a VisibilityTimeout of at least " + formatSeconds(l.timeout)
                    + " s (AWS recommends six times the function timeout)");
        }
    }

    // CreateEventSourceMapping's rules for batches (Lambda's text where it answers; the FIFO limits are documented).
    void checkBatching(const LambdaSpec& l, const std::string& path)
    {
        if (l.batchSize > 10 && l.batchingWindow < 1000)
            report(path + ".batchSize",
                "Lambda refuses it: Maximum batch window in seconds must be greater than 0 if maximum batch size is "
                "greater than 10 (add \"batchingWindow\": \"1s\" or more)");
        if (!m_scratch.queueInfo(*m_scratch.queueIndex(l.queue)).fifo)
            return;
        if (l.batchSize > 10)
            report(path + ".batchSize", "must be 1 to 10 for a FIFO queue, got " + std::to_string(l.batchSize));
        if (l.batchingWindow > 0)
            report(path + ".batchingWindow", "a FIFO queue's trigger takes no batching window");
    }

    static std::string formatSeconds(TimeMs ms)
    {
        std::string whole = std::to_string(ms / 1000);
        if (ms % 1000 == 0)
            return whole;
        std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
        while (fraction.back() == '0')
            fraction.pop_back();
        return whole + "." + fraction;
    }

    // Consumers are named as the simulation names them: the name alone for one, name-1, name-2 ... for several.
    std::set<std::string> consumerNames()
    {
        std::set<std::string> consumers;
        for (size_t i = 0; i < m_s.consumers.size(); ++i) {
            known(m_s.consumers[i].queue, at("consumers", i) + ".queue");
            if (m_s.consumers[i].count == 1)
                consumers.insert(m_s.consumers[i].name);
            else
                for (int64_t k = 1; k <= m_s.consumers[i].count; ++k)
                    consumers.insert(m_s.consumers[i].name + "-" + std::to_string(k));
        }
        return consumers;
    }

    void checkActions(const std::set<std::string>& consumers)
    {
        for (size_t i = 0; i < m_s.actions.size(); ++i) {
            const auto& a = m_s.actions[i];
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
                if (known(a.queue, p + ".send.queue") && m_scratch.queueIndex(a.queue))
                    checkSend(m_scratch, a.queue, a.message.delaySeconds, a.message.expectRefused, p + ".send");
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

    const Scenario& m_s;
    std::set<std::string> m_queues;
    Engine m_scratch;
};
} // namespace

void crossCheck(const Scenario& s)
{
    CrossCheck(s).run();
}

} // namespace lifeline::scenario::reading
