// The rules of `lifeline check`, each with a stable id, a severity, the user's numbers in its words, and a
// suggested change (the scenario's fix). Sources: docs/sqs-semantics.md, section 6.
#include "lifeline/sim/duration.h"
#include "lifeline/sim/queue_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::sim {

namespace {

using nlohmann::json;

std::string seconds(int64_t s)
{
    return formatDuration(s * 1000);
}

// "12 %", "0.4 %", "under 0.1 %": never "0.0 %" for a share that is not nothing.
std::string percent(double share)
{
    if (share > 0 && share < 0.001)
        return "under 0.1 %";
    char text[32];
    std::snprintf(text, sizeof text, share >= 0.1 ? "%.0f %%" : "%.1f %%", share * 100.0);
    return text;
}

// The severity of processing twice follows how often it happened in the simulation of the user's numbers: one
// message in a hundred or more is high, any at all medium, none (only the tail can) low.
Severity severityOfDuplicates(double share)
{
    return share >= 0.01 ? Severity::High : share > 0 ? Severity::Medium : Severity::Low;
}

// Whole seconds, rounded up, within SQS's range for a visibility timeout.
int64_t visibilityFor(TimeMs ms)
{
    return std::clamp<int64_t>((ms + 999) / 1000, 1, 43200);
}

json replaceAttribute(const std::string& name, int64_t value)
{
    return json::array({ { { "op", "replace" }, { "path", "/queues/0/attributes/" + name }, { "value", value } } });
}

struct Rules {
    const CheckInput& in;
    std::vector<Finding> found;
    const int64_t vt = in.queue.visibilityTimeout;

    void add(const char* id, Severity severity, std::string message, std::string suggestion, const json& fix)
    {
        Finding f { id, severity, std::move(message), std::move(suggestion), nullptr, {} };
        f.scenario = findingScenario(in, f, fix);
        if (f.scenario.is_null())
            f.noScenario = "the simulation has no such setting to show it with";
        found.push_back(std::move(f));
    }

    void visibility()
    {
        if (in.lambda || in.heartbeat)
            return;
        // A timeout equal to the p99 is flagged too: it should be a little longer than processing (the seed).
        if (vt * 1000 <= in.p99) {
            const int64_t suggested = visibilityFor(in.p99 * 3 / 2);
            const double share = simulatedDuplicateShare(in);
            const std::string at = in.rate > 0
                ? std::string()
                : std::string(" (at half your consumers' capacity; give the producers' rate for yours)");
            const std::string harm = share > 0
                ? " Simulated with your numbers, " + percent(share) + " of the messages were processed twice" + at + "."
                : " Simulated with your numbers, no message was processed twice" + at
                    + ", but any that takes the p99 or longer can be.";
            add("visibility-shorter-than-processing", severityOfDuplicates(share),
                "Processing takes " + formatDuration(in.p50) + " at p50 and " + formatDuration(in.p99)
                    + " at p99, but the visibility timeout is " + seconds(vt)
                    + (vt * 1000 == in.p99 ? ", no longer than the p99" : "")
                    + ": a message still being worked on turns visible and another consumer can take it." + harm,
                "Set VisibilityTimeout to " + std::to_string(suggested)
                    + " (one and a half times the p99), or extend it with a heartbeat while working.",
                replaceAttribute("VisibilityTimeout", suggested));
        }
        if (in.maxMessages > 1 && vt * 1000 > in.p99 && vt * 1000 < in.maxMessages * in.p50) {
            const int64_t suggested = visibilityFor(in.maxMessages * in.p99 * 3 / 2);
            add("batch-exceeds-visibility", Severity::High,
                "A receive of " + std::to_string(in.maxMessages) + " messages, worked one by one at "
                    + formatDuration(in.p50) + " each (p50), takes " + formatDuration(in.maxMessages * in.p50)
                    + ", longer than the visibility timeout of " + seconds(vt)
                    + ": the last messages of a batch turn visible before their turn comes.",
                "Set VisibilityTimeout to " + std::to_string(suggested) + " (one and a half times "
                    + std::to_string(in.maxMessages)
                    + " messages at the p99), or receive fewer messages at once "
                      "(MaxNumberOfMessages "
                    + std::to_string(std::max<int64_t>(1, vt * 1000 / std::max<TimeMs>(1, in.p99))) + ").",
                replaceAttribute("VisibilityTimeout", suggested));
        }
    }

    void lambda()
    {
        if (!in.lambda)
            return;
        const int64_t timeout = (in.lambda->timeout + 999) / 1000;
        const int64_t needed = 6 * timeout + (in.lambda->batchingWindow + 999) / 1000;
        if (vt < 6 * timeout)
            add("lambda-visibility-under-6x", Severity::High,
                "The queue's visibility timeout (" + seconds(vt) + ") is under six times the function's timeout ("
                    + seconds(timeout)
                    + "): a throttled or retried batch turns visible while Lambda still holds it, and is processed "
                      "twice.",
                "Set VisibilityTimeout to at least " + std::to_string(needed)
                    + " (six times the function timeout, plus the batching window), as AWS recommends.",
                replaceAttribute("VisibilityTimeout", std::min<int64_t>(needed, 43200)));
        if (in.lambda->batchingWindow > 0 && in.queue.delaySeconds > 0)
            add("delay-with-lambda-batching-window", Severity::Low,
                "Every message waits the queue's delay (" + seconds(in.queue.delaySeconds)
                    + ") and then up to the batching window (" + formatDuration(in.lambda->batchingWindow)
                    + ") before the function sees it: up to "
                    + formatDuration(in.queue.delaySeconds * 1000 + in.lambda->batchingWindow) + " in all.",
                "Keep one of the two: DelaySeconds 0 if the delay only smooths batches, or a batching window of 0.",
                replaceAttribute("DelaySeconds", 0));
    }

    void deadLetters()
    {
        const auto& redrive = in.queue.redrivePolicy;
        if (!redrive) {
            add("no-dlq", Severity::Medium,
                "The queue has no dead-letter queue: a message that always fails (a poison message) is received "
                "again and again until its retention ("
                    + seconds(in.queue.messageRetentionPeriod) + ") ends, and nobody sees why.",
                "Add a dead-letter queue with a RedrivePolicy, maxReceiveCount 5.", nullptr);
            return;
        }
        if (redrive->maxReceiveCount == 1)
            add("max-receive-count-1", Severity::Medium,
                "maxReceiveCount is 1: one transient failure (a timeout, a crash, a deploy) moves the message to "
                "the dead-letter queue, where nothing processes it.",
                "Set maxReceiveCount to 5: transient failures get retries, poison messages still move on.", nullptr);
        const int64_t cycle = std::max<int64_t>(vt, (in.p99 + 999) / 1000);
        if (redrive->maxReceiveCount > 1 && redrive->maxReceiveCount * cycle >= 3600)
            add("max-receive-count-high", Severity::Medium,
                "A poison message is received " + std::to_string(redrive->maxReceiveCount)
                    + " times, one visibility timeout (" + seconds(vt) + ") apart, before it moves: it cycles for "
                    + seconds(redrive->maxReceiveCount * cycle) + ", taking a consumer each time.",
                "Set maxReceiveCount to 5 (or fail fast: release a failed message with ChangeMessageVisibility 0).",
                nullptr);
        if (in.deadLetterQueue && !in.queue.fifo
            && in.deadLetterQueue->messageRetentionPeriod <= in.queue.messageRetentionPeriod)
            add("dlq-retention-not-longer", Severity::High,
                "The dead-letter queue keeps messages " + seconds(in.deadLetterQueue->messageRetentionPeriod)
                    + ", not longer than the source's " + seconds(in.queue.messageRetentionPeriod)
                    + ". A standard queue keeps a message's original enqueue time when it moves, so one that failed "
                      "for a while arrives in the DLQ nearly expired, and can expire at once.",
                "Set the DLQ's MessageRetentionPeriod to 1209600 (14 days, the maximum), longer than the source's.",
                nullptr);
    }

    void polling()
    {
        const int wait = in.effectiveWaitSeconds();
        if (!in.lambda && wait == 0) {
            const int64_t perHour = int64_t(in.consumers) * 3600;
            const double price = in.queue.fifo ? 0.50 : 0.40;
            char cost[64];
            std::snprintf(cost, sizeof cost, "$%.2f", double(perHour) * 730.0 * price / 1e6);
            add("short-polling", Severity::Low,
                "The consumers short-poll (WaitTimeSeconds 0): while the queue is empty, "
                    + std::to_string(in.consumers) + " consumer(s) make about " + std::to_string(perHour)
                    + " empty receives an hour, assuming each asks again after about a second (a loop without a "
                      "pause asks 20 to 50 times a second). At the public price of $"
                    + (in.queue.fifo ? std::string("0.50") : std::string("0.40"))
                    + " per million requests (an assumption: check your region and free tier) that is about " + cost
                    + " a month for nothing, and short polls can miss messages on a few servers.",
                "Long-poll: WaitTimeSeconds 20 on the receives, or ReceiveMessageWaitTimeSeconds 20 on the queue.",
                replaceAttribute("ReceiveMessageWaitTimeSeconds", 20));
        }
        if (!in.lambda && in.readTimeout && wait > 0 && *in.readTimeout <= int64_t(wait) * 1000)
            add("client-timeout-under-wait", Severity::High,
                "The client's HTTP read timeout (" + formatDuration(*in.readTimeout)
                    + ") is not longer than WaitTimeSeconds (" + seconds(wait)
                    + "): the client gives up on a long poll SQS is still holding, and what SQS returns then is in "
                      "flight for nobody until its visibility timeout ends.",
                "Make the read timeout longer than the wait: " + seconds(wait + 10) + " or more.", nullptr);
    }

    void fifoAndRetention()
    {
        const bool parallel = in.lambda ? in.lambda->maxConcurrency != 1 : in.consumers > 1;
        if (in.queue.fifo && in.groups == 1 && parallel)
            add("fifo-single-group", Severity::Medium,
                "Every message has the same MessageGroupId: a FIFO queue hands out one group in order, so only one "
                "message (or batch) is in flight at a time and the other consumers wait.",
                "Use a MessageGroupId per entity whose order matters (a customer, an order): as many groups as "
                "consumers at least.",
                nullptr);
        if (vt >= in.queue.messageRetentionPeriod)
            add("visibility-over-retention", Severity::High,
                "The visibility timeout (" + seconds(vt) + ") is not shorter than the retention period ("
                    + seconds(in.queue.messageRetentionPeriod)
                    + "): a message whose consumer crashed expires before it can be received again. It is lost.",
                "Set VisibilityTimeout well under MessageRetentionPeriod, near the processing time: "
                    + std::to_string(std::min<int64_t>(
                        visibilityFor(in.p99 * 3 / 2), std::max<int64_t>(1, in.queue.messageRetentionPeriod / 2)))
                    + ".",
                replaceAttribute("VisibilityTimeout",
                    std::min<int64_t>(
                        visibilityFor(in.p99 * 3 / 2), std::max<int64_t>(1, in.queue.messageRetentionPeriod / 2))));
    }
};

} // namespace

const char* severityName(Severity severity)
{
    switch (severity) {
    case Severity::High:
        return "high";
    case Severity::Medium:
        return "medium";
    case Severity::Low:
        return "low";
    }
    return "low";
}

std::vector<Finding> checkQueue(const CheckInput& input)
{
    Rules rules { input, {} };
    rules.visibility();
    rules.lambda();
    rules.deadLetters();
    rules.polling();
    rules.fifoAndRetention();
    std::stable_sort(rules.found.begin(), rules.found.end(),
        [](const Finding& a, const Finding& b) { return int(a.severity) < int(b.severity); });
    return std::move(rules.found);
}

json findingsJson(const std::vector<Finding>& findings)
{
    json list = json::array();
    for (const auto& f : findings)
        list.push_back({ { "id", f.id }, { "severity", severityName(f.severity) }, { "message", f.message },
            { "suggestion", f.suggestion } });
    return { { "findings", list } };
}

std::string findingsText(const CheckInput& input, const std::vector<Finding>& findings)
{
    std::string out = input.queueName + ": ";
    out += findings.empty() ? "no findings.\n" : std::to_string(findings.size()) + " finding(s)\n";
    for (const auto& f : findings)
        out += "\n[" + std::string(severityName(f.severity)) + "] " + f.id + "\n  " + f.message
            + "\n  Suggestion: " + f.suggestion + "\n";
    return out;
}

} // namespace lifeline::sim
