// The rules of `lifeline check` about processing against the queue's and the function's settings: a visibility
// timeout shorter than the processing or than a batch's, a Lambda trigger's timeouts and batches, a visibility timeout
// past the retention, and consumers slower than the producers.
#include "check_rule.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::check::rules {

namespace {

using nlohmann::json;

// The severity of processing twice follows how often it happened in the simulation of the user's numbers: one
// message in a hundred or more is high, any at all medium, none (only the tail can) low.
Severity severityOfDuplicates(double share)
{
    return share >= 0.01 ? Severity::High : share > 0 ? Severity::Medium : Severity::Low;
}

// Consumers of their own (not a Lambda trigger) that do not extend the timeout while they work.
bool plainConsumers(const CheckInput& in)
{
    return !in.lambda && !in.heartbeat;
}

void showDuplicates(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.moments
        = json::array({ moment("visible-while-working", "Visible again while {consumer} is still working on it"),
            moment("duplicate-processing", "{consumer} takes it too: processed twice", 2) });
}

void showDuplicatesOfRareRuns(const CheckInput& in, json& scenario, ScenarioShape& shape)
{
    showDuplicates(in, scenario, shape);
    shape.seekSeed = true;
}

// With maxReceiveCount 1 the message that turned visible goes to the DLQ instead.
bool duplicatesShow(const analysis::RunSummary& s, const CheckInput&)
{
    return s.duplicates > 0 || s.deadLettered > 0;
}

// --- visibility-shorter-than-processing ---

std::optional<RuleFinding> visibilityShorter(const CheckInput& in)
{
    const int64_t vt = in.queue.visibilityTimeout;
    // A timeout equal to the p99 is flagged too: it should be a little longer than processing (the seed).
    if (!plainConsumers(in) || vt * 1000 > in.p99)
        return std::nullopt;
    const int64_t suggested = visibilityFor(in.p99 * 3 / 2);
    const double share = simulatedDuplicateShare(in);
    const std::string at = in.rate > 0
        ? std::string()
        : std::string(" (at half your consumers' capacity; give the producers' rate for yours)");
    const std::string harm = share > 0
        ? " Simulated with your numbers, " + percent(share) + " of the messages were processed twice" + at + "."
        : " Simulated with your numbers, no message was processed twice" + at
            + ", but any that takes the p99 or longer can be.";
    return RuleFinding { severityOfDuplicates(share),
        "Processing takes " + formatDuration(in.p50) + " at p50 and " + formatDuration(in.p99)
            + " at p99, but the visibility timeout is " + seconds(vt)
            + (vt * 1000 == in.p99 ? ", no longer than the p99" : "")
            + ": a message still being worked on turns visible and another consumer can take it." + harm,
        "Set VisibilityTimeout to " + std::to_string(suggested)
            + " (one and a half times the p99), or extend it with a heartbeat while working.",
        replaceAttribute("VisibilityTimeout", suggested) };
}

// --- batch-exceeds-visibility ---

std::optional<RuleFinding> batchExceeds(const CheckInput& in)
{
    const int64_t vt = in.queue.visibilityTimeout;
    if (!plainConsumers(in) || in.maxMessages <= 1 || vt * 1000 <= in.p99 || vt * 1000 >= in.maxMessages * in.p50)
        return std::nullopt;
    const int64_t suggested = visibilityFor(in.maxMessages * in.p99 * 3 / 2);
    return RuleFinding { Severity::High,
        "A receive of " + std::to_string(in.maxMessages) + " messages, worked one by one at " + formatDuration(in.p50)
            + " each (p50), takes " + formatDuration(in.maxMessages * in.p50)
            + ", longer than the visibility timeout of " + seconds(vt)
            + ": the last messages of a batch turn visible before their turn comes.",
        "Set VisibilityTimeout to " + std::to_string(suggested) + " (one and a half times "
            + std::to_string(in.maxMessages)
            + " messages at the p99), or receive fewer messages at once "
              "(MaxNumberOfMessages "
            + std::to_string(std::max<int64_t>(1, vt * 1000 / std::max<TimeMs>(1, in.p99))) + ").",
        replaceAttribute("VisibilityTimeout", suggested) };
}

// A backlog, so that receives come back full.
void batchBacklog(const CheckInput& in, json& scenario, ScenarioShape&)
{
    scenario["producers"][0]["rate"]
        = 2.0 * in.maxMessages * std::min(in.consumers, 200) * 1000.0 / double(std::max<TimeMs>(1, in.p50));
}

// --- lambda-visibility-under-6x ---

std::optional<RuleFinding> lambdaUnder6x(const CheckInput& in)
{
    if (!in.lambda)
        return std::nullopt;
    const int64_t vt = in.queue.visibilityTimeout;
    const int64_t timeout = (in.lambda->timeout + 999) / 1000;
    const int64_t window = (in.lambda->batchingWindow + 999) / 1000;
    // What the suggestion asks for is what the rule holds the queue to: a batching window is time the batch is
    // already held before the function starts (VT 180 with a 30 s timeout and a 20 s window needs 200).
    const int64_t needed = std::min<int64_t>(6 * timeout + window, 43200);
    if (vt >= needed || vt < timeout) // below the timeout Lambda refuses the trigger: its own finding
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The queue's visibility timeout (" + seconds(vt) + ") is under six times the function's timeout ("
            + seconds(timeout) + (window > 0 ? ") plus its batching window (" + seconds(window) : std::string())
            + "): a throttled or retried batch turns visible while Lambda still holds it, and is processed twice.",
        "Set VisibilityTimeout to at least " + std::to_string(needed)
            + " (six times the function timeout, plus the batching window), as AWS recommends.",
        replaceAttribute("VisibilityTimeout", needed) };
}

bool lambdaDuplicatesShow(const analysis::RunSummary& s, const CheckInput&)
{
    return !s.warnings.empty() || s.duplicates > 0;
}

// --- delay-with-lambda-batching-window ---

std::optional<RuleFinding> delayWithBatchingWindow(const CheckInput& in)
{
    if (!in.lambda || in.lambda->batchingWindow <= 0 || in.queue.delaySeconds <= 0)
        return std::nullopt;
    return RuleFinding { Severity::Low,
        "Every message waits the queue's delay (" + seconds(in.queue.delaySeconds)
            + ") and then up to the batching window (" + formatDuration(in.lambda->batchingWindow)
            + ") before the function sees it: up to "
            + formatDuration(in.queue.delaySeconds * 1000 + in.lambda->batchingWindow) + " in all.",
        "Keep one of the two: DelaySeconds 0 if the delay only smooths batches, or a batching window of 0.",
        replaceAttribute("DelaySeconds", 0) };
}

void showDelayEnds(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.moments
        = json::array({ moment("delay-ends", "The queue's delay ends; the batching window comes on top of it") });
}

bool delayShows(const analysis::RunSummary& s, const CheckInput&)
{
    return s.peak.delayed > 0;
}

// --- visibility-over-retention ---

// Half again the p99, within half the retention period; without processing times, SQS's default of 30 s within it.
int64_t retentionSafeVisibility(const CheckInput& in)
{
    const int64_t wanted = in.processingKnown ? visibilityFor(in.p99 * 3 / 2) : 30;
    return std::min<int64_t>(wanted, std::max<int64_t>(1, in.queue.messageRetentionPeriod / 2));
}

std::optional<RuleFinding> visibilityOverRetention(const CheckInput& in)
{
    const int64_t vt = in.queue.visibilityTimeout;
    if (vt < in.queue.messageRetentionPeriod)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The visibility timeout (" + seconds(vt) + ") is not shorter than the retention period ("
            + seconds(in.queue.messageRetentionPeriod)
            + "): a message whose consumer crashed expires before it can be received again. It is lost.",
        "Set VisibilityTimeout well under MessageRetentionPeriod, near the processing time: "
            + std::to_string(retentionSafeVisibility(in)) + ".",
        replaceAttribute("VisibilityTimeout", retentionSafeVisibility(in)) };
}

void showCrashThenExpiry(const CheckInput& in, json&, ScenarioShape& shape)
{
    shape.count = 1;
    shape.extra = in.queue.messageRetentionPeriod + 60;
    shape.moments = json::array({ moment("crash", "The consumer crashes holding the message"),
        moment("expired", "Expired while in flight: it never came back", 1) });
}

// One consumer that crashes holding the message a second in.
void crashingConsumer(const CheckInput& in, json& scenario, ScenarioShape&)
{
    if (!scenario.contains("consumers"))
        return;
    json& consumer = scenario["consumers"][0];
    consumer["processing"] = ms(std::max<TimeMs>(in.p50, 2000));
    consumer["crashes"] = json::array({ { { "at", "1s" }, { "restartAt", "2s" } } });
    consumer["count"] = 1;
}

bool expiredShows(const analysis::RunSummary& s, const CheckInput&)
{
    return s.expired > 0;
}

// --- lambda-processing-over-timeout ---

// The function's timeout that its processing fits: one and a half times the p99, within Lambda's 15 minutes.
TimeMs fittingLambdaTimeout(const CheckInput& in)
{
    return std::clamp<TimeMs>(
        (in.p99 * 3 / 2 + 999) / 1000 * 1000, CheckLimits::kLambdaShortestTimeout, CheckLimits::kLambdaLongestTimeout);
}

// The share of invocations longer than `timeout`: from the log-normal through the p50 and p99, the samples, or the
// fixed time.
double shareOver(const CheckInput& in, TimeMs timeout)
{
    if (in.processing.kind == scenario::Distribution::Kind::Samples && !in.processing.samples.empty()) {
        const auto over = std::count_if(
            in.processing.samples.begin(), in.processing.samples.end(), [timeout](TimeMs t) { return t > timeout; });
        return double(over) / double(in.processing.samples.size());
    }
    if (in.p99 <= in.p50)
        return in.p50 > timeout ? 1.0 : 0.0;
    const double sigma = std::log(double(in.p99) / double(in.p50)) / 2.3263; // the 99th percentile's z
    return 0.5 * std::erfc(std::log(double(timeout) / double(in.p50)) / sigma / std::sqrt(2.0));
}

std::optional<RuleFinding> lambdaOverTimeout(const CheckInput& in)
{
    if (!in.lambda || in.p99 <= in.lambda->timeout)
        return std::nullopt;
    return RuleFinding {
        Severity::High,
        "An invocation takes " + formatDuration(in.p50) + " at p50 and " + formatDuration(in.p99)
            + " at p99, but the function's timeout is " + formatDuration(in.lambda->timeout) + ": about "
            + percent(shareOver(in, in.lambda->timeout))
            + " of the invocations time out, and a timed-out invocation fails its whole batch, which comes back after "
              "the visibility timeout to be processed again (and, with a dead-letter queue, moves there after "
              "maxReceiveCount tries).",
        "Set the function's timeout to " + formatDuration(fittingLambdaTimeout(in))
            + " (one and a half times the p99), and the queue's visibility timeout to six times that.",
        json::array({ { { "op", "replace" }, { "path", "/lambdas/0/timeout" },
                          { "value", ms(fittingLambdaTimeout(in)) } },
            { { "op", "replace" }, { "path", "/queues/0/attributes/VisibilityTimeout" },
                { "value",
                    std::clamp<int64_t>(6 * fittingLambdaTimeout(in) / 1000, in.queue.visibilityTimeout, 43200) } } })
    };
}

// Enough invocations for the tail to show (one in a hundred over the timeout at the boundary): a seed whose run shows
// it.
void showTimeouts(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.count = 200;
    shape.seekSeed = true;
    json timedOut = moment("failed", "The invocation times out: its whole batch fails and comes back", 1);
    timedOut["failure"] = "timed-out";
    shape.moments = json::array({ timedOut });
}

// A batch came back: more receives than messages.
bool timeoutsShow(const analysis::RunSummary& s, const CheckInput&)
{
    return s.received > s.sent;
}

// --- lambda-batch-without-partial-failures ---

int messagesPerBatch(const CheckInput& in)
{
    return std::clamp(in.lambda ? in.lambda->batchSize : 1, 1, 10);
}

std::optional<RuleFinding> batchWithoutPartialFailures(const CheckInput& in)
{
    if (!in.lambda || in.lambda->batchSize <= 1 || in.lambda->reportBatchItemFailures)
        return std::nullopt;
    const std::string others = std::to_string(in.lambda->batchSize - 1);
    return RuleFinding { Severity::Medium,
        "Batches of up to " + std::to_string(in.lambda->batchSize)
            + " messages, without ReportBatchItemFailures: when one message fails, the function's error fails the "
              "whole batch, and the "
            + others
            + " good ones come back to be processed again; with a dead-letter queue they go there with the bad one "
              "after maxReceiveCount tries.",
        "Turn on ReportBatchItemFailures (FunctionResponseTypes) and return the ids of the messages that failed: "
        "only those come back.",
        replaceAt("/lambdas/0/reportBatchItemFailures", true) };
}

void showGoodMessagesFailing(const CheckInput&, json&, ScenarioShape& shape)
{
    json threw = moment("failed", "The batch fails on one bad message: {body}, a good one, comes back too", 1);
    threw["failure"] = "threw";
    shape.moments = json::array({ threw });
}

// A burst of two batches, a bad message in each.
void poisonInEachBatch(const CheckInput& in, json& scenario, ScenarioShape& shape)
{
    const int perBatch = messagesPerBatch(in);
    shape.count = 2 * perBatch;
    json& producer = scenario["producers"][0];
    producer.erase("rate");
    producer.erase("count");
    producer["bursts"] = json::array({ { { "at", "0s" }, { "count", shape.count } } });
    producer["poisonEvery"] = perBatch;
    producer["body"] = "message {n}";
}

// A good message was not deleted: it failed with its batch.
bool goodMessagesFail(const analysis::RunSummary& s, const CheckInput& in)
{
    const int perBatch = messagesPerBatch(in);
    const int64_t bad = (s.sent + perBatch - 1) / perBatch;
    return s.deleted < s.sent - bad;
}

// --- backlog-grows ---

// Messages a second the consumers can take: each worker one message at a time (a Lambda invocation a batch), at
// the mean processing time. 0: unknown (a Lambda trigger without maximum concurrency or provisioned mode scales up
// to 1,250).
double capacityPerSecond(const CheckInput& in)
{
    const double perWorker = 1000.0 / double(std::max<TimeMs>(1, in.mean));
    if (in.lambda)
        return perWorker * in.lambda->mostInvocations() * messagesPerBatch(in);
    return perWorker * in.consumers;
}

// Workers for the rate with a quarter to spare.
int64_t workersFor(const CheckInput& in)
{
    const double perWorker = 1000.0 / double(std::max<TimeMs>(1, in.mean)) * (in.lambda ? messagesPerBatch(in) : 1);
    return int64_t(std::ceil(in.rate * 1.25 / perWorker));
}

std::optional<RuleFinding> backlogGrows(const CheckInput& in)
{
    const double capacity = capacityPerSecond(in);
    if (in.rate <= 0 || capacity <= 0 || in.rate <= capacity)
        return std::nullopt;
    const auto rate = [](double r) {
        char text[32];
        std::snprintf(text, sizeof text, r >= 10 ? "%.0f" : "%.2g", r);
        return std::string(text);
    };
    const double perHour = (in.rate - capacity) * 3600;
    const std::string workers = in.lambda ? "at most " + std::to_string(in.lambda->mostInvocations()) + " invocations"
                                          : std::to_string(in.consumers) + " consumers";
    return RuleFinding { Severity::High,
        "The producers send " + rate(in.rate) + " messages a second, but " + workers + " at " + formatDuration(in.mean)
            + " a message (the mean) take " + rate(capacity) + " a second: the backlog grows by " + rate(perHour)
            + " messages an hour without end, each message waits longer than the last, and after the retention period ("
            + formatDuration(in.queue.messageRetentionPeriod * 1000) + ") they expire unread.",
        in.lambda && !in.lambda->maxConcurrency
            ? "Set the trigger's MaximumPollers to at least " + std::to_string((workersFor(in) + 9) / 10)
                + " (10 invocations each: the rate with a quarter to spare), or make the function faster."
            : in.lambda ? "Set the trigger's MaximumConcurrency to at least " + std::to_string(workersFor(in))
                + " (the rate with a quarter to spare), or make the function faster."
                        : "Run at least " + std::to_string(workersFor(in))
                + " consumers (the rate with a quarter to spare), or make processing faster.",
        in.lambda ? replaceAt("/lambdas/0/concurrency", std::min<int64_t>(workersFor(in), 1000))
                  : replaceAt("/consumers/0/count", std::min<int64_t>(workersFor(in), 200)) };
}

void showBacklog(const CheckInput&, json&, ScenarioShape& shape)
{
    shape.count = 400;
}

// Half the backlog that the rates alone would leave once every message is sent, or more.
bool backlogShows(const analysis::RunSummary& s, const CheckInput& in)
{
    const double capacity = capacityPerSecond(in);
    const double left = in.rate > 0 ? double(s.sent) * (1.0 - capacity / in.rate) : 0;
    return double(s.peak.visible) >= std::max(5.0, left / 2);
}

} // namespace

const CheckRule kLambdaProcessingOverTimeout { "lambda-processing-over-timeout",
    "Invocations outlast the function's timeout: their batches come back", lambdaOverTimeout, showTimeouts, nullptr,
    timeoutsShow, {}, false, { .processing = true, .lambdaTimeout = true } };
const CheckRule kLambdaBatchWithoutPartialFailures { "lambda-batch-without-partial-failures",
    "Batches without ReportBatchItemFailures: one failure sends the whole batch back", batchWithoutPartialFailures,
    showGoodMessagesFailing, poisonInEachBatch, goodMessagesFail };
const CheckRule kBacklogGrows { "backlog-grows", "The producers send faster than the consumers take: the backlog grows",
    backlogGrows, showBacklog, nullptr, backlogShows, {}, false, { .processing = true } };
const CheckRule kVisibilityShorterThanProcessing { "visibility-shorter-than-processing",
    "The visibility timeout is shorter than processing: messages are processed twice", visibilityShorter,
    showDuplicatesOfRareRuns, nullptr, duplicatesShow, {}, false, { .processing = true } };
const CheckRule kBatchExceedsVisibility { "batch-exceeds-visibility",
    "A receive's batch, worked one by one, outlasts the visibility timeout", batchExceeds, showDuplicatesOfRareRuns,
    batchBacklog, duplicatesShow, {}, false, { .processing = true } };
const CheckRule kLambdaVisibilityUnder6x { "lambda-visibility-under-6x",
    "The visibility timeout is under six times the function's timeout", lambdaUnder6x, showDuplicates, nullptr,
    lambdaDuplicatesShow, {}, false, { .lambdaTimeout = true } };
const CheckRule kDelayWithLambdaBatchingWindow { "delay-with-lambda-batching-window",
    "A delay and a Lambda batching window add up before the function sees a message", delayWithBatchingWindow,
    showDelayEnds, nullptr, delayShows };
const CheckRule kVisibilityOverRetention { "visibility-over-retention",
    "The visibility timeout is not shorter than the retention period: a crashed message expires",
    visibilityOverRetention, showCrashThenExpiry, crashingConsumer, expiredShows };

} // namespace lifeline::check::rules
