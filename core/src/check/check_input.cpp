// Reading `lifeline check`'s input: a queue's attributes as the AWS CLI prints them, and the consumer side. Every
// problem names its field; attributes are judged by the engine's own rules, with SQS's texts.
#include "lifeline/check/queue_check.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lifeline::check {

namespace {

using nlohmann::json;

struct Bad {
    std::string message;
};

std::string valueText(const json& v)
{
    return v.is_string() ? v.get<std::string>() : v.dump();
}

TimeMs durationOf(const json& v, const std::string& field)
{
    const std::optional<TimeMs> parsed = durationFromJson(v);
    if (!parsed)
        throw Bad { field + ": must be a duration such as 40s, 2m or a number of seconds, got " + valueText(v) };
    return *parsed;
}

int64_t wholeNumber(const json& v, const std::string& field, int64_t min, int64_t max)
{
    if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > max)
        throw Bad { field + ": must be a whole number from " + std::to_string(min) + " to " + std::to_string(max)
            + ", got " + valueText(v) };
    return v.get<int64_t>();
}

void knownKeys(const json& object, const std::string& where, const std::set<std::string>& known)
{
    if (!object.is_object())
        throw Bad { where + ": must be a JSON object" };
    for (const auto& [key, value] : object.items())
        if (!known.count(key)) {
            std::string list;
            for (const auto& k : known)
                list += (list.empty() ? "" : ", ") + k;
            throw Bad { where + ": unknown key \"" + key + "\" (known: " + list + ")" };
        }
}

TimeMs percentile(std::vector<TimeMs> sorted, double p)
{
    std::sort(sorted.begin(), sorted.end());
    const size_t index = size_t(std::ceil(p * double(sorted.size()))) - 1;
    return sorted[std::min(index, sorted.size() - 1)];
}

void readProcessing(const json& v, CheckInput& in)
{
    if (!v.is_object()) {
        in.processing.a = in.p50 = in.p99 = in.mean = std::max<TimeMs>(1, durationOf(v, "processing"));
        return;
    }
    if (v.contains("samples")) {
        knownKeys(v, "processing", { "samples" });
        const json& list = v["samples"];
        if (!list.is_array() || list.empty() || list.size() > 100000)
            throw Bad { "processing.samples: must be a list of 1 to 100,000 durations" };
        in.processing.kind = scenario::Distribution::Kind::Samples;
        for (size_t i = 0; i < list.size(); ++i)
            in.processing.samples.push_back(durationOf(list[i], "processing.samples[" + std::to_string(i) + "]"));
        in.p50 = percentile(in.processing.samples, 0.50);
        in.p99 = percentile(in.processing.samples, 0.99);
        double sum = 0;
        for (const TimeMs t : in.processing.samples)
            sum += double(t);
        in.mean = std::max<TimeMs>(1, TimeMs(sum / double(in.processing.samples.size())));
        return;
    }
    knownKeys(v, "processing", { "p50", "p99" });
    if (!v.contains("p50") || !v.contains("p99"))
        throw Bad { "processing: needs both p50 and p99 (or samples)" };
    in.p50 = std::max<TimeMs>(1, durationOf(v["p50"], "processing.p50"));
    in.p99 = durationOf(v["p99"], "processing.p99");
    if (in.p99 < in.p50)
        throw Bad { "processing.p99: " + formatDuration(in.p99) + " is below the p50 (" + formatDuration(in.p50)
            + ")" };
    in.processing = { scenario::Distribution::Kind::LogNormal, in.p50, in.p99, {} };
    const double sigma = std::log(double(in.p99) / double(in.p50)) / 2.3263; // the mean of that log-normal
    in.mean = TimeMs(double(in.p50) * std::exp(sigma * sigma / 2));
}

// Provisioned mode: MinimumPollers 2..200 (default 2), MaximumPollers 2..10,000 (default 200), the minimum at most the
// maximum (Lambda API reference, ProvisionedPollerConfig).
void readProvisionedPollers(const json& v, LambdaTrigger& l)
{
    if (!v.contains("minimumPollers") && !v.contains("maximumPollers"))
        return;
    l.minimumPollers = v.contains("minimumPollers") ? int(wholeNumber(v["minimumPollers"], "lambda.minimumPollers",
                           CheckLimits::kLambdaFewestPollers, CheckLimits::kLambdaMostMinimumPollers))
                                                    : 2;
    l.maximumPollers = v.contains("maximumPollers") ? int(wholeNumber(v["maximumPollers"], "lambda.maximumPollers",
                           CheckLimits::kLambdaFewestPollers, CheckLimits::kLambdaMostPollers))
                                                    : 200;
    if (l.minimumPollers > l.maximumPollers)
        throw Bad { "lambda.minimumPollers: must be at most maximumPollers (" + std::to_string(l.maximumPollers)
            + "), got " + std::to_string(l.minimumPollers) };
}

LambdaTrigger readLambda(const json& v)
{
    knownKeys(v, "lambda",
        { "timeout", "batchSize", "batchingWindow", "maxConcurrency", "reportBatchItemFailures", "reservedConcurrency",
            "functionDeadLetter", "minimumPollers", "maximumPollers" });
    LambdaTrigger l;
    l.timeoutKnown = v.contains("timeout"); // else the rules that need it are not checked
    if (l.timeoutKnown) {
        l.timeout = durationOf(v["timeout"], "lambda.timeout");
        if (l.timeout < CheckLimits::kLambdaShortestTimeout || l.timeout > CheckLimits::kLambdaLongestTimeout)
            throw Bad { "lambda.timeout: must be from 1s to 15m (Lambda's limits), got " + formatDuration(l.timeout) };
    }
    if (v.contains("reservedConcurrency"))
        l.reservedConcurrency
            = int(wholeNumber(v["reservedConcurrency"], "lambda.reservedConcurrency", 0, CheckLimits::kLambdaReserved));
    if (v.contains("batchSize"))
        l.batchSize = int(wholeNumber(v["batchSize"], "lambda.batchSize", 1, CheckLimits::kLambdaBatchSize));
    if (v.contains("batchingWindow")) {
        l.batchingWindow = durationOf(v["batchingWindow"], "lambda.batchingWindow");
        if (l.batchingWindow > CheckLimits::kLambdaBatchingWindow)
            throw Bad { "lambda.batchingWindow: must be at most 300s (MaximumBatchingWindowInSeconds)" };
    }
    if (v.contains("maxConcurrency"))
        l.maxConcurrency = int(wholeNumber(v["maxConcurrency"], "lambda.maxConcurrency",
            CheckLimits::kLambdaFewestConcurrency, CheckLimits::kLambdaMostConcurrency));
    readProvisionedPollers(v, l);
    if (v.contains("reportBatchItemFailures")) {
        if (!v["reportBatchItemFailures"].is_boolean())
            throw Bad { "lambda.reportBatchItemFailures: must be true or false" };
        l.reportBatchItemFailures = v["reportBatchItemFailures"].get<bool>();
    }
    if (v.contains("functionDeadLetter")) {
        if (!v["functionDeadLetter"].is_boolean())
            throw Bad { "lambda.functionDeadLetter: must be true or false" };
        l.functionDeadLetter = v["functionDeadLetter"].get<bool>();
    }
    return l;
}

void readConsumerSide(const json& v, CheckInput& in)
{
    knownKeys(v, "consumer side",
        { "processing", "consumers", "maxMessages", "waitTimeSeconds", "readTimeout", "heartbeat", "groups", "tenants",
            "rate", "lambda", "deadLetterAlarm" });
    in.processingKnown = v.contains("processing"); // else the rules that need it are not checked
    if (in.processingKnown)
        readProcessing(v["processing"], in);
    if (v.contains("consumers"))
        in.consumers = int(wholeNumber(v["consumers"], "consumers", 1, CheckLimits::kConsumers));
    if (v.contains("maxMessages"))
        in.maxMessages = int(wholeNumber(v["maxMessages"], "maxMessages", 1, CheckLimits::kMaxMessages));
    if (v.contains("waitTimeSeconds"))
        in.waitTimeSeconds
            = int(wholeNumber(v["waitTimeSeconds"], "waitTimeSeconds", 0, CheckLimits::kWaitTimeSeconds));
    if (v.contains("readTimeout"))
        in.readTimeout = durationOf(v["readTimeout"], "readTimeout");
    if (v.contains("heartbeat")) {
        if (!v["heartbeat"].is_boolean())
            throw Bad { "heartbeat: must be true or false" };
        in.heartbeat = v["heartbeat"].get<bool>();
    }
    if (v.contains("groups"))
        in.groups = int(wholeNumber(v["groups"], "groups", 1, CheckLimits::kGroups));
    if (v.contains("tenants"))
        in.tenants = int(wholeNumber(v["tenants"], "tenants", 1, CheckLimits::kTenants));
    if (v.contains("rate")) {
        if (!v["rate"].is_number() || v["rate"].get<double>() <= 0 || v["rate"].get<double>() > CheckLimits::kRate)
            throw Bad { "rate: must be a number of messages per second above 0 and at most 100,000" };
        in.rate = v["rate"].get<double>();
    }
    if (v.contains("lambda"))
        in.lambda = readLambda(v["lambda"]);
    if (v.contains("deadLetterAlarm")) {
        if (!v["deadLetterAlarm"].is_boolean())
            throw Bad { "deadLetterAlarm: must be true or false" };
        in.deadLetterAlarmed = v["deadLetterAlarm"].get<bool>();
    }
}

} // namespace

Outcome<std::pair<std::string, QueueAttributes>> readQueueAttributes(const json& document)
{
    if (!document.is_object())
        return Failure { "must be a JSON object: {\"Attributes\": {...}} as the AWS CLI prints it, or the map itself" };
    const bool wrapped = document.contains("Attributes") && document["Attributes"].is_object();
    if (wrapped)
        for (const auto& [key, value] : document.items())
            if (key != "Attributes" && key != "ResponseMetadata")
                return Failure { "unknown key \"" + key + "\" next to Attributes" };
    const json& map = wrapped ? document["Attributes"] : document;
    AttributeMap given;
    std::string name = "my-queue";
    for (const auto& [key, value] : map.items()) {
        if (!value.is_string() && !value.is_number() && !value.is_boolean())
            return Failure { key + ": must be a string or a number, got " + value.dump() };
        const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
        if (key == "QueueArn")
            name = text.substr(text.rfind(':') + 1);
        if (!isKnownAttributeName(key))
            return Failure { key + ": not an SQS queue attribute" };
        const auto& settable = settableAttributeNames();
        if (std::find(settable.begin(), settable.end(), key) == settable.end())
            continue; // read-only: the counts, the timestamps, QueueArn
        given[key] = text;
    }
    AttributeChangeContext context;
    context.creating = true;
    context.fifoQueue = given.count("FifoQueue") && given["FifoQueue"] == "true";
    auto applied = applyAttributes(QueueAttributes {}, given, context);
    if (!applied)
        return Failure { applied.error().code + ": " + applied.error().message };
    // A name SQS would take (the recordings' ARNs hold placeholders such as <resource:1>).
    const bool usable = !name.empty() && name.size() <= 80 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.';
    });
    if (!usable)
        name = "my-queue";
    return std::pair { name, applied.value() };
}

Outcome<CheckInput> readCheckInput(const json& attributes, const json* deadLetterAttributes, const json& consumerSide)
{
    CheckInput in;
    auto queue = readQueueAttributes(attributes);
    if (!queue)
        return Failure { "attributes: " + queue.message() };
    std::tie(in.queueName, in.queue) = queue.value();
    if (in.queue.fifo && !in.queueName.ends_with(".fifo"))
        in.queueName += ".fifo";
    if (deadLetterAttributes) {
        auto dlq = readQueueAttributes(*deadLetterAttributes);
        if (!dlq)
            return Failure { "DLQ attributes: " + dlq.message() };
        in.deadLetterQueue = dlq.value().second;
    }
    try {
        readConsumerSide(consumerSide, in);
    } catch (const Bad& bad) {
        return Failure { bad.message };
    }
    if (in.lambda && in.queue.fifo && in.lambda->batchSize > 10)
        return Failure { "lambda.batchSize: must be 1 to 10 for a FIFO queue, got "
            + std::to_string(in.lambda->batchSize) };
    return in;
}

} // namespace lifeline::check
