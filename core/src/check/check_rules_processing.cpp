// The rules of `lifeline check` about processing time against the queue's timeouts: a visibility timeout shorter
// than the processing or than a batch's, a Lambda trigger's timeouts, and a visibility timeout past the retention.
#include "check_rule.h"
#include "lifeline/support/duration.h"

#include <algorithm>

namespace lifeline::sim::check {

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
bool duplicatesShow(const RunSummary& s, const CheckInput&)
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
    const int64_t needed = 6 * timeout + (in.lambda->batchingWindow + 999) / 1000;
    if (vt >= 6 * timeout)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The queue's visibility timeout (" + seconds(vt) + ") is under six times the function's timeout ("
            + seconds(timeout)
            + "): a throttled or retried batch turns visible while Lambda still holds it, and is processed twice.",
        "Set VisibilityTimeout to at least " + std::to_string(needed)
            + " (six times the function timeout, plus the batching window), as AWS recommends.",
        replaceAttribute("VisibilityTimeout", std::min<int64_t>(needed, 43200)) };
}

bool lambdaDuplicatesShow(const RunSummary& s, const CheckInput&)
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

bool delayShows(const RunSummary& s, const CheckInput&)
{
    return s.peak.delayed > 0;
}

// --- visibility-over-retention ---

int64_t retentionSafeVisibility(const CheckInput& in)
{
    return std::min<int64_t>(visibilityFor(in.p99 * 3 / 2), std::max<int64_t>(1, in.queue.messageRetentionPeriod / 2));
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

bool expiredShows(const RunSummary& s, const CheckInput&)
{
    return s.expired > 0;
}

} // namespace

const CheckRule kVisibilityShorterThanProcessing { "visibility-shorter-than-processing", visibilityShorter,
    showDuplicatesOfRareRuns, nullptr, duplicatesShow };
const CheckRule kBatchExceedsVisibility { "batch-exceeds-visibility", batchExceeds, showDuplicatesOfRareRuns,
    batchBacklog, duplicatesShow };
const CheckRule kLambdaVisibilityUnder6x { "lambda-visibility-under-6x", lambdaUnder6x, showDuplicates, nullptr,
    lambdaDuplicatesShow };
const CheckRule kDelayWithLambdaBatchingWindow { "delay-with-lambda-batching-window", delayWithBatchingWindow,
    showDelayEnds, nullptr, delayShows };
const CheckRule kVisibilityOverRetention { "visibility-over-retention", visibilityOverRetention, showCrashThenExpiry,
    crashingConsumer, expiredShows };

} // namespace lifeline::sim::check
