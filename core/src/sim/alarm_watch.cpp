#include "lifeline/sim/alarm_watch.h"

#include "lifeline/support/duration.h"

#include <algorithm>

namespace lifeline::sim {

namespace {
// ApproximateAgeOfOldestMessage: "The approximate age of the oldest non-deleted message in the queue", from its
// enqueue, in seconds. "After a message is received three times (or more) and not processed, the message is moved to
// the back of the queue and the ApproximateAgeOfOldestMessage metric points at the second-oldest message that hasn't
// been received more than three times" (Amazon SQS developer guide, available CloudWatch metrics): a poison pill does
// not hold it up. Read once a period, so a scan of every lane is enough (a dead-lettered message's lane is newer than
// its enqueue, so send order is not age order).
int64_t oldestAgeSeconds(const RunView& run, QueueIndex queue)
{
    constexpr uint32_t kSetAside = 3;
    TimeMs oldest = run.now();
    for (MessageIndex lane = 0; lane < run.messageCount(); ++lane) {
        if (run.forgotten(lane))
            continue;
        const MessageRecord& m = run.message(lane);
        if (m.queue == queue && isLive(m.state) && m.receiveCount < kSetAside)
            oldest = std::min(oldest, run.times(lane).enqueuedAt);
    }
    return (run.now() - oldest) / 1000;
}
} // namespace

AlarmWatch::AlarmWatch(std::vector<scenario::AlarmSpec> specs)
    : m_specs(std::move(specs))
    , m_states(m_specs.size())
{
}

int64_t AlarmWatch::datapoint(const scenario::AlarmSpec& spec, State& state, const Engine& engine) const
{
    const auto queue = engine.queueIndex(spec.queue);
    if (!queue)
        return 0; // a deleted queue publishes nothing
    if (spec.metric == "ApproximateNumberOfMessagesVisible")
        return engine.counters(spec.queue).value().visible;
    if (spec.metric == "ApproximateAgeOfOldestMessage")
        return oldestAgeSeconds(engine.run(), *queue);
    // NumberOfMessagesSent: the sends to the queue since the last datapoint; a move into a DLQ is not a send.
    const EventLog& log = engine.run().log();
    int64_t sent = 0;
    for (; state.logRead < log.size(); ++state.logRead) {
        const Event e = log[state.logRead];
        sent += e.cause == Cause::Send && e.queue == *queue;
    }
    return sent;
}

void AlarmWatch::evaluate(size_t index, Engine& engine)
{
    const scenario::AlarmSpec& spec = m_specs[index];
    State& state = m_states[index];
    const int64_t value = datapoint(spec, state, engine);
    const bool alarm = value > spec.threshold;
    if (state.alarm == alarm)
        return;
    state.alarm = alarm;
    const std::string text = spec.name + ": " + (alarm ? "ALARM, " : "OK, ") + spec.metric + " " + std::to_string(value)
        + (alarm ? " > " : " <= ") + std::to_string(spec.threshold) + " for " + describeDuration(spec.period);
    engine.recordActorEvent(alarm ? Cause::AlarmFired : Cause::AlarmOk, kOperatorActor, kNoMessage,
        engine.queueIndex(spec.queue).value_or(kNoQueue), 0, &text);
}

} // namespace lifeline::sim
