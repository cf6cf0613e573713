// SNS fan-out, as far as a queue's consumers can tell: a publish to a standard topic becomes, at the same instant, one
// SendMessage per subscribed queue whose filter policy accepts it, made by the topic (raw message delivery: the body
// and attributes as published). SNS's own retries, delivery delays and envelopes are not simulated.
#include "simulation_internal.h"

namespace lifeline::sim {

void Simulation::publish(
    size_t index, int64_t n, const std::map<std::string, std::string>& attributes, const std::string& label)
{
    shapeBody(index, n);
    Producer& p = *m_producers[index];
    SendMessageRequest& request = p.request;
    request.attributes = stringAttributes(attributes);
    request.delaySeconds.reset();
    request.messageGroupId.reset();
    request.messageDeduplicationId.reset();
    request.actor = m_topicActors[size_t(p.topic - m_scenario.topics.data())];
    for (const SubscriptionSpec& subscription : p.topic->subscriptions) {
        if (!subscription.accepts(attributes))
            continue;
        request.queue = subscription.queue;
        const MessageIndex lane = m_engine.send(request); // a refusal is logged by the engine where it happened
        if (lane != kNoMessage)
            m_engine.labelLane(lane, label);
    }
}

} // namespace lifeline::sim
