// The scenario of each `lifeline check` finding: the user's queue and consumers as a scenario that shows the problem
// happen, with moments on the events that show it and the suggested change as the lesson's fix, so the window opens
// it like a lesson and Compare shows before and after. Also the duplicate estimate, simulated the same way.
#include "check_rule.h"
#include "lifeline/sim/simulation.h"

#include <algorithm>
#include <cmath>

namespace lifeline::check {

using nlohmann::json;

namespace rules {

std::string ms(TimeMs t)
{
    return std::to_string(t) + "ms";
}

json moment(const char* when, const std::string& caption, int limit)
{
    json m = { { "when", when }, { "caption", caption } };
    if (limit)
        m["limit"] = limit;
    return m;
}

json replaceAt(const std::string& path, const json& value)
{
    return json::array({ { { "op", "replace" }, { "path", path }, { "value", value } } });
}

std::string deadLetterName(const CheckInput& in)
{
    const std::string base = in.queue.fifo ? in.queueName.substr(0, in.queueName.size() - 5) : in.queueName;
    return base + "-dlq" + (in.queue.fifo ? ".fifo" : "");
}

json queuesJson(const CheckInput& in, bool withDeadLetter)
{
    json attributes = { { "VisibilityTimeout", in.queue.visibilityTimeout },
        { "MessageRetentionPeriod", in.queue.messageRetentionPeriod }, { "DelaySeconds", in.queue.delaySeconds },
        { "ReceiveMessageWaitTimeSeconds", in.queue.receiveMessageWaitTimeSeconds } };
    json source = { { "name", in.queueName }, { "attributes", attributes } };
    if (in.queue.fifo)
        source["type"] = "fifo";
    json queues = json::array({ source });
    if (withDeadLetter && in.queue.redrivePolicy) {
        queues[0]["deadLetter"]
            = { { "queue", deadLetterName(in) }, { "maxReceiveCount", in.queue.redrivePolicy->maxReceiveCount } };
        json dlq = { { "name", deadLetterName(in) } };
        if (in.queue.fifo)
            dlq["type"] = "fifo";
        if (in.deadLetterQueue)
            dlq["attributes"] = { { "MessageRetentionPeriod", in.deadLetterQueue->messageRetentionPeriod } };
        queues.push_back(dlq);
    }
    return queues;
}

int64_t receiveCycleSeconds(const CheckInput& in)
{
    return std::max<int64_t>(in.queue.visibilityTimeout, (in.p99 + 999) / 1000);
}

} // namespace rules

namespace {

using rules::ms;

json processingJson(const CheckInput& in)
{
    switch (in.processing.kind) {
    case scenario::Distribution::Kind::LogNormal:
        return { { "lognormal", { { "p50", ms(in.p50) }, { "p99", ms(in.p99) } } } };
    case scenario::Distribution::Kind::Samples: {
        json samples = json::array();
        for (size_t i = 0; i < in.processing.samples.size() && i < 1000; ++i)
            samples.push_back(ms(in.processing.samples[i]));
        return { { "samples", samples } };
    }
    default:
        return ms(std::max<TimeMs>(1, in.p50));
    }
}

// Messages a second: the user's rate, else half of what the consumers can do at the mean processing time.
double rateOf(const CheckInput& in)
{
    if (in.rate > 0)
        return in.rate;
    const double perConsumer = 1000.0 / double(std::max<TimeMs>(1, in.mean));
    const int workers = in.lambda ? std::max(1, in.lambda->mostInvocations() ? in.lambda->mostInvocations() : 5)
                                  : std::min(in.consumers, 200);
    return std::max(0.01, 0.5 * perConsumer * workers);
}

json actorsJson(const CheckInput& in, json& scenario, int count)
{
    json producer = { { "name", "producers" }, { "queue", in.queueName }, { "rate", rateOf(in) }, { "count", count } };
    if (in.queue.fifo)
        producer["groups"] = std::max(1, in.groups ? in.groups : std::min(in.consumers, 50));
    scenario["producers"] = json::array({ producer });
    if (in.lambda) {
        json function = { { "name", "function" }, { "queue", in.queueName }, { "batchSize", in.lambda->batchSize },
            { "timeout", ms(in.lambda->timeout) }, { "processing", processingJson(in) },
            { "reportBatchItemFailures", in.lambda->reportBatchItemFailures } };
        if (in.lambda->mostInvocations()) // provisioned mode is drawn as its most invocations, already scaled up
            function["concurrency"] = std::min(in.lambda->mostInvocations(), 1000);
        scenario["lambdas"] = json::array({ function });
        return scenario["lambdas"][0];
    }
    json consumer = { { "name", "worker" }, { "queue", in.queueName }, { "count", std::min(in.consumers, 200) },
        { "maxMessages", in.maxMessages }, { "waitTimeSeconds", in.effectiveWaitSeconds() },
        { "processing", processingJson(in) } };
    if (in.heartbeat)
        consumer["heartbeat"] = { { "every", ms(std::max<int64_t>(1, in.queue.visibilityTimeout) * 500) },
            { "visibilityTimeout", std::max<int64_t>(1, in.queue.visibilityTimeout) } };
    scenario["consumers"] = json::array({ consumer });
    return consumer;
}

int64_t durationSeconds(const CheckInput& in, int count, int64_t extra)
{
    const double sending = double(count) / rateOf(in);
    const int64_t tail = 3 * ((in.p99 + 999) / 1000) + 3 * in.queue.visibilityTimeout;
    return std::clamp<int64_t>(
        int64_t(std::ceil(sending)) + tail + extra + in.queue.delaySeconds, 60, rules::kMaxSeconds);
}

std::optional<analysis::RunSummary> summaryOf(const json& scenario, bool fixed)
{
    auto parsed = scenario::parseScenario(scenario);
    if (!std::holds_alternative<scenario::Scenario>(parsed))
        return std::nullopt;
    if (fixed) {
        parsed = scenario::applyFix(std::get<scenario::Scenario>(parsed));
        if (!std::holds_alternative<scenario::Scenario>(parsed))
            return std::nullopt;
    }
    sim::Simulation run(std::get<scenario::Scenario>(std::move(parsed)));
    run.runToEnd();
    if (run.stall())
        return std::nullopt;
    return run.summary();
}

// Rare events (a duplicate in the tail of the processing times, a transient failure) need a run in which they
// happen: the first seed whose run shows the problem and whose fixed run does not.
void seedThatShows(json& scenario, const CheckInput& in, const std::string& id)
{
    for (int seed = 1; seed <= 40; ++seed) {
        scenario["seed"] = seed;
        const auto before = summaryOf(scenario, false);
        if (!before || !problemShows(id, *before, in))
            continue;
        const auto after = summaryOf(scenario, true);
        if (after && !problemShows(id, *after, in))
            return;
    }
    scenario["seed"] = 1;
}

} // namespace

bool problemShows(const std::string& id, const analysis::RunSummary& s, const CheckInput& in)
{
    const rules::CheckRule* rule = rules::findRule(id);
    return rule && rule->shows && rule->shows(s, in);
}

json findingScenario(const CheckInput& in, const Finding& finding, const json& fixPatch)
{
    const std::string& id = finding.id;
    const rules::CheckRule* rule = rules::findRule(id);
    if (!rule || !rule->shape)
        return nullptr;
    json s = { { "name", in.queueName + ": " + id }, { "seed", 1 } };
    s["queues"] = rules::queuesJson(in, true);
    rules::ScenarioShape shape;
    shape.fix = fixPatch;
    rule->shape(in, s, shape);
    actorsJson(in, s, shape.count);
    if (rule->actors)
        rule->actors(in, s, shape);
    // Runs of hours or days: how the consumers poll does not matter to these, and long polls keep them light.
    if (shape.extra > 3600 && s.contains("consumers"))
        s["consumers"][0]["waitTimeSeconds"] = 20;
    s["duration"] = std::to_string(durationSeconds(in, shape.count, shape.extra)) + "s";
    s["lesson"] = { { "id", id }, { "title", "Check: " + id }, { "idea", finding.message },
        { "watch", "The queue and consumers have your numbers; the moments mark where the problem shows." },
        { "trap", "SQS's defaults are not wrong in general; they are wrong for these consumers." },
        { "fix", finding.suggestion }, { "moments", shape.moments },
        { "fixPatch", shape.fix.is_array() ? shape.fix : json::array() } };
    if (shape.measure.is_object())
        s["lesson"]["measure"] = shape.measure;
    if (shape.seekSeed)
        seedThatShows(s, in, id);
    return s;
}

double simulatedDuplicateShare(const CheckInput& input)
{
    const CheckInput& in = input;
    json s = { { "name", "estimate" }, { "seed", 1 } };
    s["queues"] = rules::queuesJson(in, false);
    actorsJson(in, s, 2000);
    s["duration"] = std::to_string(durationSeconds(in, 2000, 0)) + "s";
    auto parsed = scenario::parseScenario(s);
    if (!std::holds_alternative<scenario::Scenario>(parsed))
        return 0;
    sim::Simulation run(std::get<scenario::Scenario>(std::move(parsed)));
    run.runToEnd();
    const analysis::RunSummary summary = run.summary();
    return summary.sent ? double(summary.duplicates) / double(summary.sent) : 0.0;
}

} // namespace lifeline::check
