// A scenario's CloudWatch alarms: each watches one metric of one queue, the three an exam asks about: how many messages
// a queue holds (ApproximateNumberOfMessagesVisible), how many were sent to it (NumberOfMessagesSent, which a message
// moved there by a redrive policy does not count), and how long its oldest message has waited
// (ApproximateAgeOfOldestMessage, in seconds: what tells a stuck consumer on a quiet queue).
#include "lifeline/support/duration.h"
#include "scenario_reading.h"

namespace lifeline::scenario::reading {

namespace {

using nlohmann::json;

AlarmSpec alarmSpec(const json& v, const std::string& path, size_t index)
{
    checkKeys(v, path, { "name", "queue", "metric", "threshold", "period" });
    AlarmSpec a;
    a.name = v.contains("name") ? text(v, path, "name") : "alarm-" + std::to_string(index + 1);
    a.queue = text(v, path, "queue");
    a.metric = text(v, path, "metric");
    if (a.metric != "ApproximateNumberOfMessagesVisible" && a.metric != "NumberOfMessagesSent"
        && a.metric != "ApproximateAgeOfOldestMessage")
        report(join(path, "metric"),
            "must be ApproximateNumberOfMessagesVisible, NumberOfMessagesSent or ApproximateAgeOfOldestMessage (the "
            "metrics Lifeline evaluates), got \""
                + a.metric + "\"");
    a.threshold = integer(v, path, "threshold", 0, 1000000000).value_or(0);
    if (v.contains("period")) {
        const std::string period = text(v, path, "period");
        const auto ms = parseDuration(period);
        if (!ms || *ms < 60000 || *ms > 86400000 || *ms % 60000)
            report(join(path, "period"),
                "must be whole minutes from 1m to 1d (SQS's metrics are a minute's), got \"" + period + "\"");
        else
            a.period = *ms;
    }
    return a;
}

} // namespace

void readAlarms(const json& v, Scenario& scenario)
{
    if (!v.contains("alarms"))
        return;
    if (!v["alarms"].is_array())
        fail("alarms", "must be a list of alarms");
    for (size_t i = 0; i < v["alarms"].size(); ++i)
        scenario.alarms.push_back(alarmSpec(v["alarms"][i], at("alarms", i), i));
}

} // namespace lifeline::scenario::reading
