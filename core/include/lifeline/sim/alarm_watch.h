// A scenario's CloudWatch alarms on its queues, each looked at once a period as CloudWatch evaluates one datapoint of
// one period: ApproximateNumberOfMessagesVisible as it stands at the period's end (SQS's queue metrics are samples),
// NumberOfMessagesSent as the messages clients sent to the queue in the period. A message a redrive policy moves to a
// dead-letter queue is not sent by anyone, and CloudWatch does not count it ("Amazon SQS available CloudWatch
// metrics"): an alarm on a DLQ's NumberOfMessagesSent stays OK while the DLQ fills. Over the threshold the alarm goes
// to ALARM, at or under it to OK (from INSUFFICIENT_DATA, where it starts, at its first period's end); each change is
// an event on the queue's row (AlarmFired, AlarmOk). CloudWatch's own delay in publishing SQS's metrics (up to minutes)
// is not modelled: the alarm sees the period as it ends.
#pragma once

#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"

#include <optional>
#include <vector>

namespace lifeline::sim {

class AlarmWatch {
public:
    explicit AlarmWatch(std::vector<scenario::AlarmSpec> specs);

    const std::vector<scenario::AlarmSpec>& specs() const { return m_specs; }
    // The period of alarm `index` has ended now: its datapoint, and the event when its state changes.
    void evaluate(size_t index, Engine& engine);

private:
    struct State {
        std::optional<bool> alarm; // none: INSUFFICIENT_DATA, where an alarm starts, until its first period ends
        size_t logRead = 0; // the log's events up to here are counted (NumberOfMessagesSent)
    };
    int64_t datapoint(const scenario::AlarmSpec& spec, State& state, const Engine& engine) const;

    std::vector<scenario::AlarmSpec> m_specs;
    std::vector<State> m_states;
};

} // namespace lifeline::sim
