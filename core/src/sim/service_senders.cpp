// AWS services that send to a scenario's queues, as far as the queues' consumers can tell. Each send is judged as
// AWS judges a service's: the queue's policy must allow the service for its resource, and an SSE-KMS queue's key
// must let the service use it (service_access.h); if not, the service drops the message, and the refusal is shown
// on the queue's row, where it happened.
// SNS fan-out: a publish to a standard topic becomes, at the same instant, one SendMessage per subscribed queue whose
// filter policy accepts it, made by the topic (raw message delivery: the body and attributes as published). A
// subscription adds its statement to the queue's policy at the start, as the console and the CDK do, unless told
// not to. SNS's own retries, delivery delays and envelopes are not simulated.
// S3 event notifications: each of a bucket's events is a SendMessage by s3.amazonaws.com.
#include "service_access.h"
#include "simulation_internal.h"

namespace lifeline::sim {

namespace {

// An ARN's account: arn:aws:sqs:REGION:ACCOUNT:NAME (the bucket and topics are the queue's account's).
std::string accountOf(const std::string& arn)
{
    size_t start = 0;
    for (int field = 0; field < 4 && start != std::string::npos; ++field)
        start = arn.find(':', start) + 1;
    return arn.substr(start, arn.find(':', start) - start);
}

std::string topicArn(const std::string& queueArn, const std::string& topic)
{
    return "arn:aws:sns:us-east-1:" + accountOf(queueArn) + ":" + topic;
}

} // namespace

void Simulation::addSubscriptionPolicies()
{
    for (size_t t = 0; t < m_scenario.topics.size(); ++t)
        for (const scenario::SubscriptionSpec& subscription : m_scenario.topics[t].subscriptions) {
            if (!subscription.addsQueuePolicy)
                continue;
            const AttributeMap now = m_engine.getQueueAttributes(subscription.queue, { "Policy", "QueueArn" }).value();
            const std::string& queueArn = now.at("QueueArn");
            nlohmann::json policy
                = nlohmann::json::parse(now.count("Policy") ? now.at("Policy") : "{}", nullptr, false);
            if (!policy.is_object())
                continue; // a policy that is not JSON: SQS refused it already
            policy.emplace("Version", "2012-10-17");
            nlohmann::json& statements = policy["Statement"];
            if (statements.is_object())
                statements = nlohmann::json::array({ statements });
            else if (!statements.is_array())
                statements = nlohmann::json::array();
            statements.push_back({ { "Sid", "topic-" + m_scenario.topics[t].name }, { "Effect", "Allow" },
                { "Principal", { { "Service", "sns.amazonaws.com" } } }, { "Action", "sqs:SendMessage" },
                { "Resource", queueArn },
                { "Condition",
                    { { "ArnEquals", { { "aws:SourceArn", topicArn(queueArn, m_scenario.topics[t].name) } } } } } });
            (void)m_engine.setQueueAttributes(subscription.queue, { { "Policy", policy.dump() } }, m_topicActors[t]);
        }
}

bool Simulation::letIn(size_t producer, const ServiceSender& sender, const std::string& what)
{
    const Producer& p = *m_producers[producer];
    const auto refusal = serviceSendRefusal(m_engine, p.request.queue, sender, m_scenario.kmsKeys);
    if (!refusal)
        return true;
    const std::string text = refusal->code + ": " + refusal->message + " (" + what + ")";
    m_engine.recordActorEvent(
        Cause::RequestRefused, p.request.actor, kNoMessage, m_engine.queueIndex(p.request.queue).value(), 0, &text);
    return false;
}

void Simulation::publish(
    size_t index, int64_t n, const std::map<std::string, std::string>& attributes, const std::string& label)
{
    shapeBody(*m_producers[index]->spec, m_producers[index]->request.body, n);
    Producer& p = *m_producers[index];
    SendMessageRequest& request = p.request;
    request.attributes = stringAttributes(attributes);
    request.delaySeconds.reset();
    request.messageGroupId.reset();
    request.messageDeduplicationId.reset();
    request.actor = m_topicActors[size_t(p.topic - m_scenario.topics.data())];
    for (const scenario::SubscriptionSpec& subscription : p.topic->subscriptions) {
        if (!subscription.accepts(attributes))
            continue;
        request.queue = subscription.queue;
        const std::string queueArn = m_engine.getQueueArn(request.queue).value();
        if (!letIn(index, { "sns.amazonaws.com", topicArn(queueArn, p.topic->name), accountOf(queueArn), {} }, label))
            continue;
        const MessageIndex lane = m_engine.send(request); // a refusal is logged by the engine where it happened
        if (lane != kNoMessage)
            m_engine.labelLane(lane, label);
    }
}

namespace {

// An S3 event notification as S3 writes it (the fields a consumer reads; no times, no request ids).
std::string s3EventBody(const std::string& bucket, const std::string& key)
{
    const nlohmann::json record { { "eventVersion", "2.1" }, { "eventSource", "aws:s3" }, { "awsRegion", "us-east-1" },
        { "eventName", "ObjectCreated:Put" },
        { "s3",
            { { "s3SchemaVersion", "1.0" }, { "bucket", { { "name", bucket }, { "arn", "arn:aws:s3:::" + bucket } } },
                { "object", { { "key", key } } } } } };
    return nlohmann::json { { "Records", nlohmann::json::array({ record }) } }.dump();
}

} // namespace

MessageIndex Simulation::sendS3Event(size_t index, const std::string& label)
{
    shapeBody(*m_producers[index]->spec, m_producers[index]->request.body, m_producers[index]->sent);
    Producer& p = *m_producers[index];
    SendMessageRequest& request = p.request;
    const std::string key = request.body; // the producer's message is the object's key
    request.actor = p.actor;
    const std::string queueArn = m_engine.getQueueArn(request.queue).value();
    if (!letIn(index, { "s3.amazonaws.com", "arn:aws:s3:::" + p.spec->s3Bucket, accountOf(queueArn), {} }, key))
        return kNoMessage;
    request.body = s3EventBody(p.spec->s3Bucket, key);
    request.delaySeconds.reset();
    request.messageGroupId.reset();
    request.messageDeduplicationId.reset();
    const MessageIndex lane = m_engine.send(request);
    if (lane != kNoMessage)
        m_engine.labelLane(lane, label.empty() ? key : label);
    return lane;
}

} // namespace lifeline::sim
