// A consumer fleet scaled on the queue's backlog (ConsumerSpec::scaling): target tracking on the visible messages
// per consumer, as AWS's guide to scaling SQS consumers describes it, looked at once a period and acted on with a
// warm-up, so the fleet always lags the backlog it answers.
#include "simulation_internal.h"

namespace lifeline::sim {

void Simulation::applyScalingPolicy(size_t specIndex)
{
    const scenario::ConsumerSpec& spec = m_scenario.consumers[specIndex];
    const scenario::ScalingSpec& policy = *spec.scaling;
    schedule(m_engine.now() + policy.every, ScalingPolicy, uint32_t(specIndex));
    const auto counters = m_engine.counters(spec.queue);
    if (!counters)
        return; // the queue is gone for now
    std::vector<size_t> serving; // its consumers that receive or will (warming up), oldest first
    for (size_t i = 0; i < m_consumers.size(); ++i) {
        const Consumer& c = *m_consumers[i];
        if (c.spec == &spec && !c.removed && !c.retiring && c.state != ConsumerState::Crashed)
            serving.push_back(i);
    }
    const int64_t visible = counters.value().visible;
    const int64_t wanted
        = std::clamp((visible + policy.backlogPerConsumer - 1) / policy.backlogPerConsumer, policy.min, policy.max);
    const auto now = int64_t(serving.size());
    if (wanted == now)
        return;
    noteOperator(spec.queue,
        "scaling " + spec.name + ": " + std::to_string(visible) + " visible, " + std::to_string(now)
            + (now == 1 ? " consumer" : " consumers") + ", a target of " + std::to_string(policy.backlogPerConsumer)
            + " a consumer: " + std::to_string(wanted));
    for (int64_t k = now; k < wanted; ++k)
        spawnConsumer(spec, m_engine.now() + policy.warmUp);
    for (int64_t k = now; k > wanted; --k) // the newest go first
        m_consumers[serving[size_t(k - 1)]]->retiring = true;
}

} // namespace lifeline::sim
