// The scenario of each `lifeline check` finding: the user's queue and consumers as a scenario that shows the problem
// happen, with moments on the events that show it and the suggested change as the lesson's fix, so the window opens
// it like a lesson and Compare shows before and after. Also the duplicate estimate, simulated the same way.
#include "lifeline/sim/queue_check.h"
#include "lifeline/sim/simulation.h"

#include <algorithm>
#include <cmath>

namespace lifeline::sim {

namespace {

using nlohmann::json;

constexpr int64_t kMaxSeconds = 14LL * 86400; // a scenario's longest run

std::string ms(TimeMs t)
{
    return std::to_string(t) + "ms";
}

json processingJson(const CheckInput& in)
{
    switch (in.processing.kind) {
    case Distribution::Kind::LogNormal:
        return { { "lognormal", { { "p50", ms(in.p50) }, { "p99", ms(in.p99) } } } };
    case Distribution::Kind::Samples: {
        json samples = json::array();
        for (size_t i = 0; i < in.processing.samples.size() && i < 1000; ++i)
            samples.push_back(ms(in.processing.samples[i]));
        return { { "samples", samples } };
    }
    default:
        return ms(std::max<TimeMs>(1, in.p50));
    }
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

// Messages a second: the user's rate, else half of what the consumers can do at the mean processing time.
double rateOf(const CheckInput& in)
{
    if (in.rate > 0)
        return in.rate;
    const double perConsumer = 1000.0 / double(std::max<TimeMs>(1, in.mean));
    const int workers = in.lambda ? std::max(1, in.lambda->maxConcurrency ? in.lambda->maxConcurrency : 5)
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
        if (in.lambda->maxConcurrency)
            function["concurrency"] = in.lambda->maxConcurrency;
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
    return std::clamp<int64_t>(int64_t(std::ceil(sending)) + tail + extra + in.queue.delaySeconds, 60, kMaxSeconds);
}

json moment(const char* when, const std::string& caption, int limit = 0)
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

std::optional<RunSummary> summaryOf(const json& scenario, bool fixed)
{
    auto parsed = parseScenario(scenario);
    if (!std::holds_alternative<Scenario>(parsed))
        return std::nullopt;
    if (fixed) {
        parsed = applyFix(std::get<Scenario>(parsed));
        if (!std::holds_alternative<Scenario>(parsed))
            return std::nullopt;
    }
    Simulation run(std::get<Scenario>(std::move(parsed)));
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

bool problemShows(const std::string& id, const RunSummary& s, const CheckInput& in)
{
    int64_t failed = 0;
    for (const auto& c : s.consumers)
        failed += c.failed;
    if (id == "visibility-shorter-than-processing" || id == "batch-exceeds-visibility")
        return s.duplicates > 0 || s.deadLettered > 0; // with maxReceiveCount 1 the visible one goes to the DLQ
    if (id == "lambda-visibility-under-6x")
        return !s.warnings.empty() || s.duplicates > 0;
    if (id == "delay-with-lambda-batching-window")
        return s.peak.delayed > 0;
    if (id == "no-dlq")
        return s.deadLettered == 0 && failed >= 3;
    if (id == "max-receive-count-1")
        return s.deadLettered > 0;
    if (id == "max-receive-count-high")
        return failed > 5;
    if (id == "dlq-retention-not-longer" || id == "visibility-over-retention")
        return s.expired > 0;
    if (id == "short-polling") {
        const double consumerMinutes = double(std::min(in.consumers, 200)) * double(s.until) / 60000.0;
        return double(s.emptyReceives) > 10.0 * std::max(1.0, consumerMinutes);
    }
    if (id == "fifo-single-group")
        return s.peak.inFlight <= in.maxMessages;
    return false;
}

namespace {

// How a finding's scenario differs from the user's setup: how many messages, how much longer it runs, its moments and
// its fix.
struct Shape {
    int count = 40;
    int64_t extra = 0;
    json moments = json::array();
    json fix;
};

Shape shapeOf(const CheckInput& in, const std::string& id, json& s, const json& fixPatch)
{
    Shape shape;
    shape.fix = fixPatch;
    const int64_t cycle = std::max<int64_t>(in.queue.visibilityTimeout, (in.p99 + 999) / 1000);
    const int64_t receives = in.queue.redrivePolicy ? in.queue.redrivePolicy->maxReceiveCount : 5;
    if (id == "visibility-shorter-than-processing" || id == "batch-exceeds-visibility"
        || id == "lambda-visibility-under-6x") {
        shape.moments
            = json::array({ moment("visible-while-working", "Visible again while {consumer} is still working on it"),
                moment("duplicate-processing", "{consumer} takes it too: processed twice", 2) });
    } else if (id == "delay-with-lambda-batching-window") {
        shape.moments
            = json::array({ moment("delay-ends", "The queue's delay ends; the batching window comes on top of it") });
    } else if (id == "no-dlq") {
        shape.count = 10;
        shape.extra = 6 * (cycle + 1);
        shape.moments = json::array({ moment("failed", "The poison message fails again", 3) });
        s["queues"] = queuesJson(in, false);
        const json dlq = in.queue.fifo ? json { { "name", deadLetterName(in) }, { "type", "fifo" } }
                                       : json { { "name", deadLetterName(in) } };
        shape.fix = json::array({ { { "op", "add" }, { "path", "/queues/-" }, { "value", dlq } },
            { { "op", "add" }, { "path", "/queues/0/deadLetter" },
                { "value", { { "queue", deadLetterName(in) }, { "maxReceiveCount", 5 } } } } });
    } else if (id == "max-receive-count-high") {
        shape.count = 10;
        shape.extra = std::min<int64_t>(kMaxSeconds, (receives + 1) * (cycle + 1));
        shape.moments = json::array({ moment("failed", "The poison message fails again", 3),
            moment("dead-lettered", "Moved to the DLQ at last") });
        shape.fix = replaceAt("/queues/0/deadLetter/maxReceiveCount", 5);
    } else if (id == "dlq-retention-not-longer") {
        shape.count = 10;
        const int64_t dlqRetention = in.deadLetterQueue ? in.deadLetterQueue->messageRetentionPeriod : 345600;
        shape.extra = std::max(std::min<int64_t>(kMaxSeconds, (receives + 1) * (cycle + 1)), dlqRetention + 60);
        shape.moments = json::array({ moment("dead-lettered", "Moved to the DLQ with its first enqueue time"),
            moment("expired", "Expired in the DLQ: its clock started when it was first sent", 1) });
        shape.fix = replaceAt("/queues/1/attributes/MessageRetentionPeriod", 1209600);
    } else if (id == "max-receive-count-1") {
        shape.moments = json::array({ moment("dead-lettered", "One failure and it is in the DLQ", 2) });
        shape.fix = replaceAt("/queues/0/deadLetter/maxReceiveCount", 5);
    } else if (id == "short-polling") {
        shape.count = 5;
        shape.moments = json::array(
            { moment("empty-receive", "An empty receive: a short poll answers at once, with nothing", 3) });
        shape.fix = replaceAt("/consumers/0/waitTimeSeconds", 20);
    } else if (id == "visibility-over-retention") {
        shape.count = 1;
        shape.extra = in.queue.messageRetentionPeriod + 60;
        shape.moments = json::array({ moment("crash", "The consumer crashes holding the message"),
            moment("expired", "Expired while in flight: it never came back", 1) });
    }
    return shape;
}

// The producers and consumers as each finding needs them to show it.
void adjustActors(json& s, const CheckInput& in, const std::string& id, Shape& shape)
{
    json& producer = s["producers"][0];
    const bool consumers = s.contains("consumers");
    if (id == "no-dlq" || id == "max-receive-count-high" || id == "dlq-retention-not-longer")
        producer["poisonEvery"] = shape.count;
    if (id == "max-receive-count-1" && consumers)
        s["consumers"][0]["failureProbability"] = 0.2;
    if (id == "short-polling")
        producer["rate"] = 0.02;
    if (id == "batch-exceeds-visibility") // a backlog, so that receives come back full
        producer["rate"]
            = 2.0 * in.maxMessages * std::min(in.consumers, 200) * 1000.0 / double(std::max<TimeMs>(1, in.p50));
    if (id == "fifo-single-group") {
        producer["groups"] = 1;
        shape.fix = replaceAt("/producers/0/groups", std::max(2, std::min(in.consumers, 50)));
    }
    if (id == "visibility-over-retention" && consumers) {
        s["consumers"][0]["processing"] = ms(std::max<TimeMs>(in.p50, 2000));
        s["consumers"][0]["crashes"] = json::array({ { { "at", "1s" }, { "restartAt", "2s" } } });
        s["consumers"][0]["count"] = 1;
    }
    // Runs of hours or days: how the consumers poll does not matter to these, and long polls keep them light.
    if (shape.extra > 3600 && consumers)
        s["consumers"][0]["waitTimeSeconds"] = 20;
}

} // namespace

json findingScenario(const CheckInput& in, const Finding& finding, const json& fixPatch)
{
    const std::string& id = finding.id;
    if (id == "client-timeout-under-wait")
        return nullptr; // Lifeline's consumers have no HTTP read timeout
    json s = { { "name", in.queueName + ": " + id }, { "seed", 1 } };
    s["queues"] = queuesJson(in, true);
    Shape shape = shapeOf(in, id, s, fixPatch);
    actorsJson(in, s, shape.count);
    adjustActors(s, in, id, shape);
    s["duration"] = std::to_string(durationSeconds(in, shape.count, shape.extra)) + "s";
    s["lesson"] = { { "id", id }, { "title", "Check: " + id }, { "idea", finding.message },
        { "watch", "The queue and consumers have your numbers; the moments mark where the problem shows." },
        { "trap", "SQS's defaults are not wrong in general; they are wrong for these consumers." },
        { "fix", finding.suggestion }, { "moments", shape.moments },
        { "fixPatch", shape.fix.is_array() ? shape.fix : json::array() } };
    if (id == "visibility-shorter-than-processing" || id == "batch-exceeds-visibility" || id == "max-receive-count-1")
        seedThatShows(s, in, id);
    return s;
}

double simulatedDuplicateShare(const CheckInput& input)
{
    const CheckInput& in = input;
    json s = { { "name", "estimate" }, { "seed", 1 } };
    s["queues"] = queuesJson(in, false);
    actorsJson(in, s, 2000);
    s["duration"] = std::to_string(durationSeconds(in, 2000, 0)) + "s";
    auto parsed = parseScenario(s);
    if (!std::holds_alternative<Scenario>(parsed))
        return 0;
    Simulation run(std::get<Scenario>(std::move(parsed)));
    run.runToEnd();
    const RunSummary summary = run.summary();
    return summary.sent ? double(summary.duplicates) / double(summary.sent) : 0.0;
}

} // namespace lifeline::sim
