// Reading a scenario from JSON: every error names the field by its path, says what is wrong and what is allowed,
// and an unknown key suggests the nearest known one. Nothing is half-loaded: a scenario with any problem is not
// returned, and every problem is reported at once (up to kMaxScenarioProblems).
#include "lifeline/endpoint/fault_plan_json.h"
#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/support/duration.h"
#include "scenario_reading.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace lifeline::scenario {

namespace {

using nlohmann::json;

// A problem that ends the reading of the item it is in (a queue, a producer, ...): the item is skipped, the
// reading goes on with the next one.
struct Failure {
    ScenarioProblem problem;
};

// Too many problems: the reading stops.
struct TooMany { };

// The problems of the parse that runs on this thread (parseScenario sets it): value readers report a problem and
// go on with a default, so one pass finds them all.
thread_local std::vector<ScenarioProblem>* t_problems = nullptr;

size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            const bool same = std::tolower(a[i - 1]) == std::tolower(b[j - 1]);
            row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1) });
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string describe(const json& value)
{
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}
} // namespace

// The readers the other reading files share (scenario_reading.h).
namespace reading {
void report(const std::string& path, const std::string& message)
{
    t_problems->push_back(ScenarioProblem { path, message });
    if (t_problems->size() >= kMaxScenarioProblems)
        throw TooMany {};
}

size_t problemCount()
{
    return t_problems->size();
}

void fail(const std::string& path, const std::string& message)
{
    throw Failure { ScenarioProblem { path, message } };
}

std::string join(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

std::string at(const std::string& path, size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

std::string nearest(const std::string& name, const std::vector<std::string>& known)
{
    std::string best;
    size_t bestDistance = SIZE_MAX;
    for (const auto& k : known) {
        const size_t d = editDistance(name, k);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    return bestDistance <= std::max<size_t>(2, name.size() / 3) ? best : std::string();
}

bool checkKeys(const json& object, const std::string& path, std::initializer_list<const char*> known)
{
    if (!object.is_object())
        fail(path, "must be an object, got " + describe(object));
    bool allKnown = true;
    for (const auto& item : object.items()) {
        const std::string& key = item.key(); // not a structured binding: clang 14 cannot capture those in lambdas
        if (std::any_of(known.begin(), known.end(), [&](const char* k) { return key == k; }))
            continue;
        std::string message = "unknown key";
        if (const std::string best = nearest(key, std::vector<std::string>(known.begin(), known.end())); !best.empty())
            message += "; did you mean \"" + best + "\"?";
        else {
            message += "; known keys are";
            for (const char* k : known)
                message += std::string(" ") + k;
        }
        report(join(path, key), message);
        allKnown = false;
    }
    return allKnown;
}

std::string text(const json& object, const std::string& path, const char* key, bool required)
{
    const std::string p = join(path, key);
    if (!object.contains(key)) {
        if (required)
            report(p, "is required");
        return {};
    }
    if (!object[key].is_string()) {
        report(p, "must be a string, got " + describe(object[key]));
        return {};
    }
    return object[key].get<std::string>();
}

std::optional<int64_t> integer(const json& object, const std::string& path, const char* key, int64_t min, int64_t max)
{
    if (!object.contains(key))
        return std::nullopt;
    const json& v = object[key];
    if (!v.is_number_integer()) {
        report(join(path, key), "must be a whole number, got " + describe(v));
        return std::nullopt;
    }
    const int64_t value = v.get<int64_t>();
    if (value < min || value > max) {
        report(join(path, key),
            "must be from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + std::to_string(value));
        return std::nullopt;
    }
    return value;
}
} // namespace reading

namespace {
using namespace reading;

// Reads one item; a Failure inside it is reported and the item left out.
template <class Read> void guarded(Read&& read)
{
    try {
        read();
    } catch (const Failure& failure) {
        report(failure.problem.path, failure.problem.message);
    }
}

void requireObject(const json& value, const std::string& path)
{
    if (!value.is_object())
        fail(path, "must be an object, got " + describe(value));
}

std::optional<double> number(const json& object, const std::string& path, const char* key)
{
    if (!object.contains(key))
        return std::nullopt;
    if (!object[key].is_number()) {
        report(join(path, key), "must be a number, got " + describe(object[key]));
        return std::nullopt;
    }
    return object[key].get<double>();
}

// A duration, or nothing when it is not one (reported).
std::optional<TimeMs> durationOrReport(const json& v, const std::string& path)
{
    const std::optional<TimeMs> parsed = durationFromJson(v);
    if (!parsed) {
        report(path,
            "must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most a year, got "
                + describe(v));
    }
    return parsed;
}

TimeMs durationValue(const json& v, const std::string& path)
{
    return durationOrReport(v, path).value_or(0);
}

std::optional<TimeMs> duration(const json& object, const std::string& path, const char* key)
{
    if (!object.contains(key))
        return std::nullopt;
    return durationOrReport(object[key], join(path, key));
}

bool boolean(const json& object, const std::string& path, const char* key, bool fallback)
{
    if (!object.contains(key))
        return fallback;
    if (!object[key].is_boolean()) {
        report(join(path, key), "must be true or false, got " + describe(object[key]));
        return fallback;
    }
    return object[key].get<bool>();
}

double probability(const json& object, const std::string& path, const char* key)
{
    const auto value = number(object, path, key);
    if (value && (*value < 0 || *value > 1)) {
        report(join(path, key), "must be from 0 to 1, got " + describe(object[key]));
        return 0;
    }
    return value.value_or(0);
}

Distribution distribution(const json& v, const std::string& path)
{
    Distribution d;
    if (!v.is_object()) {
        d.a = durationValue(v, path);
        return d;
    }
    if (!checkKeys(v, path, { "fixed", "uniform", "exponential", "normal", "lognormal", "samples" }))
        return d;
    if (v.size() != 1)
        fail(path, "must have exactly one of fixed, uniform, exponential, normal, lognormal, samples");
    if (v.contains("lognormal") || v.contains("samples"))
        return reading::measuredDistribution(v, path);
    if (v.contains("fixed")) {
        d.a = durationValue(v["fixed"], join(path, "fixed"));
    } else if (v.contains("uniform")) {
        const json& range = v["uniform"];
        if (!range.is_array() || range.size() != 2)
            fail(join(path, "uniform"), "must be [low, high], got " + describe(range));
        d.kind = Distribution::Kind::Uniform;
        d.a = durationValue(range[0], at(join(path, "uniform"), 0));
        d.b = durationValue(range[1], at(join(path, "uniform"), 1));
        if (d.b < d.a)
            fail(join(path, "uniform"), "high must not be below low, got " + describe(range));
    } else if (v.contains("exponential")) {
        d.kind = Distribution::Kind::Exponential;
        d.a = durationValue(v["exponential"], join(path, "exponential"));
    } else {
        const std::string p = join(path, "normal");
        checkKeys(v["normal"], p, { "mean", "sd" });
        d.kind = Distribution::Kind::Normal;
        d.a = duration(v["normal"], p, "mean").value_or(1000);
        d.b = duration(v["normal"], p, "sd").value_or(0);
    }
    return d;
}

const json& array(const json& object, const std::string& path, const char* key)
{
    static const json empty = json::array();
    if (!object.contains(key))
        return empty;
    if (!object[key].is_array()) {
        report(join(path, key), "must be a list, got " + describe(object[key]));
        return empty;
    }
    return object[key];
}

// A list of texts a message's body may contain ("poison", "flaky").
std::vector<std::string> markers(const json& v, const std::string& path, const char* key)
{
    const json& list = array(v, path, key);
    std::vector<std::string> out;
    for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string() || list[i].get<std::string>().empty())
            fail(at(join(path, key), i), "must be a non-empty string, got " + describe(list[i]));
        out.push_back(list[i].get<std::string>());
    }
    return out;
}

AttributeMap attributes(const json& object, const std::string& path)
{
    requireObject(object, path);
    AttributeMap out;
    for (const auto& [key, value] : object.items()) {
        if (value.is_string())
            out[key] = value.get<std::string>();
        else if (value.is_number_integer() || value.is_boolean() || value.is_object()) // a policy may be an object
            out[key] = value.dump();
        else
            report(join(path, key), "must be a string, a whole number or true/false, got " + describe(value));
    }
    return out;
}

TimedMessage timedMessage(const json& v, const std::string& path, bool needsTime)
{
    checkKeys(v, path,
        { "at", "body", "delaySeconds", "groupId", "deduplicationId", "queue", "expectRefused", "label",
            "attributes" });
    TimedMessage m;
    if (needsTime)
        m.at = duration(v, path, "at").value_or(0);
    if (v.contains("label")) {
        m.label = text(v, path, "label");
        if (v["label"].is_string() && (m.label.empty() || m.label.size() > kMaxLabelBytes))
            fail(join(path, "label"), "must be 1 to " + std::to_string(kMaxLabelBytes) + " characters");
    }
    m.body = m.label.empty() || v.contains("body") ? text(v, path, "body") : m.label; // a label alone is its body
    m.delaySeconds = integer(v, path, "delaySeconds", INT32_MIN, INT32_MAX); // SQS itself judges the range
    if (v.contains("groupId"))
        m.groupId = text(v, path, "groupId");
    if (v.contains("deduplicationId"))
        m.deduplicationId = text(v, path, "deduplicationId");
    if (v.contains("attributes"))
        m.attributes = reading::messageAttributes(v["attributes"], join(path, "attributes"));
    m.expectRefused = boolean(v, path, "expectRefused", false);
    return m;
}

QueueSpec queueSpec(const json& v, const std::string& path)
{
    checkKeys(v, path, { "name", "type", "attributes", "deadLetter" });
    QueueSpec q;
    q.name = text(v, path, "name");
    const std::string type = v.contains("type") ? text(v, path, "type") : "standard";
    if (type != "standard" && type != "fifo")
        fail(join(path, "type"), "must be \"standard\" or \"fifo\", got \"" + type + "\"");
    q.fifo = type == "fifo";
    if (q.fifo && !q.name.ends_with(".fifo"))
        fail(join(path, "name"), "a FIFO queue's name must end in .fifo, got \"" + q.name + "\"");
    if (v.contains("attributes"))
        q.attributes = attributes(v["attributes"], join(path, "attributes"));
    if (v.contains("deadLetter")) {
        const std::string p = join(path, "deadLetter");
        checkKeys(v["deadLetter"], p, { "queue", "maxReceiveCount" });
        q.deadLetterQueue = text(v["deadLetter"], p, "queue");
        q.maxReceiveCount = integer(v["deadLetter"], p, "maxReceiveCount", 1, 1000).value_or(10);
    }
    return q;
}

ProducerSpec producerSpec(const json& v, const std::string& path, size_t index)
{
    checkKeys(v, path,
        { "name", "queue", "topic", "rate", "start", "stop", "count", "bursts", "messages", "body", "delaySeconds",
            "groups", "groupId", "poisonEvery", "expectRefused", "bodyBytes", "s3Bucket", "account", "sendBatch" });
    ProducerSpec p;
    p.name = v.contains("name") ? text(v, path, "name") : "producer-" + std::to_string(index + 1);
    p.topic = text(v, path, "topic", false); // a producer sends to a queue or publishes to a topic
    p.queue = text(v, path, "queue", p.topic.empty());
    p.s3Bucket = text(v, path, "s3Bucket", false);
    p.account = text(v, path, "account", false);
    if (v.contains("account")
        && (p.account.size() != 12 || p.account.find_first_not_of("0123456789") != std::string::npos))
        report(join(path, "account"), "must be an AWS account id, 12 digits, got \"" + p.account + "\"");
    if (const auto rate = number(v, path, "rate")) {
        if (*rate <= 0 || *rate > 100000)
            report(
                join(path, "rate"), "must be > 0 and at most 100000 messages per second, got " + describe(v["rate"]));
        else
            p.rate = *rate;
    }
    p.start = duration(v, path, "start").value_or(0);
    p.stop = duration(v, path, "stop");
    p.count = integer(v, path, "count", 0, INT64_MAX / 2);
    const json& bursts = array(v, path, "bursts");
    for (size_t i = 0; i < bursts.size(); ++i) {
        const std::string bp = at(join(path, "bursts"), i);
        checkKeys(bursts[i], bp, { "at", "count" });
        p.bursts.emplace_back(
            duration(bursts[i], bp, "at").value_or(0), integer(bursts[i], bp, "count", 1, 1000000).value_or(1));
    }
    const json& messages = array(v, path, "messages");
    for (size_t i = 0; i < messages.size(); ++i)
        guarded([&] { p.messages.push_back(timedMessage(messages[i], at(join(path, "messages"), i), true)); });
    if (v.contains("body"))
        p.body = text(v, path, "body");
    p.delaySeconds = integer(v, path, "delaySeconds", INT32_MIN, INT32_MAX);
    p.groups = integer(v, path, "groups", 1, 100000).value_or(1);
    p.groupId = text(v, path, "groupId", false);
    p.poisonEvery = integer(v, path, "poisonEvery", 0, INT64_MAX / 2).value_or(0);
    p.bodyBytes = integer(v, path, "bodyBytes", 1, kLargestPaddedBody);
    p.expectRefused = boolean(v, path, "expectRefused", false);
    p.sendBatch = integer(v, path, "sendBatch", 1, 10).value_or(1);
    return p;
}

ScalingSpec scalingSpec(const json& v, const std::string& path, int64_t count)
{
    checkKeys(v, path, { "backlogPerConsumer", "min", "max", "every", "warmUp" });
    ScalingSpec s;
    s.backlogPerConsumer = integer(v, path, "backlogPerConsumer", 1, 1000000).value_or(10);
    s.min = integer(v, path, "min", 0, 10000).value_or(1);
    s.max = integer(v, path, "max", 1, 10000).value_or(std::max<int64_t>(10, count));
    if (count < s.min || count > s.max)
        report(path,
            "the consumers' count (" + std::to_string(count) + ") must be from min to max, " + std::to_string(s.min)
                + " to " + std::to_string(s.max));
    s.every = duration(v, path, "every").value_or(60000);
    if (s.every < 1000 || s.every > 3600000)
        report(join(path, "every"), "must be from 1s to 1h, got " + formatDuration(s.every));
    s.warmUp = duration(v, path, "warmUp").value_or(60000);
    if (s.warmUp < 0 || s.warmUp > 3600000)
        report(join(path, "warmUp"), "must be from 0s to 1h, got " + formatDuration(s.warmUp));
    return s;
}

RetrySpec retrySpec(const json& v, const std::string& path)
{
    checkKeys(v, path, { "attempts", "backoff" });
    RetrySpec r;
    r.attempts = integer(v, path, "attempts", 1, 10).value_or(3);
    r.backoff = duration(v, path, "backoff").value_or(1000);
    if (r.backoff < 0 || r.backoff > 20000)
        report(join(path, "backoff"), "must be from 0s to 20s, got " + formatDuration(r.backoff));
    return r;
}

ConsumerSpec consumerSpec(const json& v, const std::string& path, size_t index)
{
    checkKeys(v, path,
        { "name", "queue", "count", "waitTimeSeconds", "maxMessages", "visibilityTimeout", "processing",
            "failureProbability", "deletes", "releaseOnFailure", "idempotent", "poison", "flaky", "heartbeat",
            "retries", "crashes", "idleDelay", "start", "scaling" });
    ConsumerSpec c;
    c.name = v.contains("name") ? text(v, path, "name") : "consumer-" + std::to_string(index + 1);
    c.queue = text(v, path, "queue");
    c.count = integer(v, path, "count", 1, 10000).value_or(1);
    c.waitTimeSeconds = integer(v, path, "waitTimeSeconds", 0, 20).value_or(20);
    c.maxMessages = integer(v, path, "maxMessages", 1, 10).value_or(1);
    c.visibilityTimeout = integer(v, path, "visibilityTimeout", 0, 43200);
    if (v.contains("processing"))
        c.processing = distribution(v["processing"], join(path, "processing"));
    c.failureProbability = probability(v, path, "failureProbability");
    c.deletes = boolean(v, path, "deletes", true);
    c.releaseOnFailure = boolean(v, path, "releaseOnFailure", false);
    c.idempotent = boolean(v, path, "idempotent", false);
    if (v.contains("poison"))
        c.poison = markers(v, path, "poison");
    c.flaky = markers(v, path, "flaky");
    if (v.contains("heartbeat")) {
        const std::string hp = join(path, "heartbeat");
        checkKeys(v["heartbeat"], hp, { "every", "visibilityTimeout", "extendBy" });
        c.heartbeatEvery = duration(v["heartbeat"], hp, "every");
        if (!c.heartbeatEvery || *c.heartbeatEvery <= 0) {
            report(join(hp, "every"), "must be a duration above 0");
            c.heartbeatEvery = 1000;
        }
        // ChangeMessageVisibility sets a timeout counted from the call; "extendBy", the old name, misled (it
        // suggested adding) and stays as an alias.
        c.heartbeatVisibilityTimeout = integer(v["heartbeat"], hp, "visibilityTimeout", 0, 43200)
                                           .value_or(integer(v["heartbeat"], hp, "extendBy", 0, 43200).value_or(30));
    }
    if (v.contains("retries"))
        c.retries = retrySpec(v["retries"], join(path, "retries"));
    const json& crashes = array(v, path, "crashes");
    for (size_t i = 0; i < crashes.size(); ++i) {
        const std::string cp = at(join(path, "crashes"), i);
        checkKeys(crashes[i], cp, { "at", "restartAt" });
        CrashSpec crash { duration(crashes[i], cp, "at").value_or(0), duration(crashes[i], cp, "restartAt") };
        if (crash.restartAt && *crash.restartAt <= crash.at)
            report(join(cp, "restartAt"), "must be after at");
        c.crashes.push_back(crash);
    }
    c.idleDelay = duration(v, path, "idleDelay").value_or(1000);
    if (c.idleDelay <= 0) // polling again at once after an empty short poll would let no time pass
        report(join(path, "idleDelay"), "must be above 0, got " + formatDuration(c.idleDelay));
    c.start = duration(v, path, "start").value_or(0);
    if (v.contains("scaling"))
        c.scaling = scalingSpec(v["scaling"], join(path, "scaling"), c.count);
    return c;
}

LambdaSpec lambdaSpec(const json& v, const std::string& path, size_t index)
{
    checkKeys(v, path,
        { "name", "queue", "batchSize", "batchingWindow", "maximumConcurrency", "timeout", "concurrency", "pollers",
            "processing", "failureProbability", "reportBatchItemFailures", "itemFailureProbability", "deadLetterQueue",
            "scaleFromIdle", "provisionedPollerConfig" });
    LambdaSpec l;
    l.name = v.contains("name") ? text(v, path, "name") : "function-" + std::to_string(index + 1);
    l.queue = text(v, path, "queue");
    l.batchSize = integer(v, path, "batchSize", 1, 10000).value_or(10);
    l.batchingWindow = duration(v, path, "batchingWindow").value_or(0);
    if (l.batchingWindow < 0 || l.batchingWindow > 300000 || l.batchingWindow % 1000)
        report(join(path, "batchingWindow"),
            "must be whole seconds from 0s to 300s, got " + formatDuration(l.batchingWindow));
    l.maximumConcurrency = integer(v, path, "maximumConcurrency", 2, 1000);
    l.timeout = duration(v, path, "timeout").value_or(3000);
    if (l.timeout < 1000 || l.timeout > 900000)
        report(join(path, "timeout"), "must be from 1s to 15m (Lambda's limits), got " + formatDuration(l.timeout));
    l.concurrency = integer(v, path, "concurrency", 1, 1000).value_or(5);
    l.pollers = integer(v, path, "pollers", 1, 1000).value_or(5);
    if (v.contains("processing"))
        l.processing = distribution(v["processing"], join(path, "processing"));
    l.failureProbability = probability(v, path, "failureProbability");
    l.reportBatchItemFailures = boolean(v, path, "reportBatchItemFailures", false);
    l.itemFailureProbability = probability(v, path, "itemFailureProbability");
    if (v.contains("deadLetterQueue"))
        l.deadLetterQueue = text(v, path, "deadLetterQueue");
    readMappingScaling(v, path, l);
    return l;
}

ActionSpec actionSpec(const json& v, const std::string& path)
{
    checkKeys(v, path, { "at", "setAttributes", "purge", "redrive", "send", "crash", "restart" });
    ActionSpec a;
    a.at = duration(v, path, "at").value_or(0);
    if (v.size() != 2 || !v.contains("at"))
        fail(path, "must have \"at\" and exactly one of setAttributes, purge, redrive, send, crash, restart");
    if (v.contains("setAttributes")) {
        const std::string p = join(path, "setAttributes");
        checkKeys(v["setAttributes"], p, { "queue", "attributes" });
        a.kind = ActionSpec::Kind::SetAttributes;
        a.queue = text(v["setAttributes"], p, "queue");
        if (!v["setAttributes"].contains("attributes"))
            fail(join(p, "attributes"), "is required");
        a.attributes = attributes(v["setAttributes"]["attributes"], join(p, "attributes"));
    } else if (v.contains("purge")) {
        a.kind = ActionSpec::Kind::Purge;
        a.queue = text(v, path, "purge");
    } else if (v.contains("redrive")) {
        const std::string p = join(path, "redrive");
        checkKeys(v["redrive"], p, { "source", "destination" });
        a.kind = ActionSpec::Kind::Redrive;
        a.queue = text(v["redrive"], p, "source");
        if (v["redrive"].contains("destination"))
            a.destination = text(v["redrive"], p, "destination");
    } else if (v.contains("send")) {
        a.kind = ActionSpec::Kind::Send;
        a.message = timedMessage(v["send"], join(path, "send"), false);
        a.queue = text(v["send"], join(path, "send"), "queue");
    } else if (v.contains("crash")) {
        a.kind = ActionSpec::Kind::Crash;
        a.consumer = text(v, path, "crash");
    } else {
        a.kind = ActionSpec::Kind::Restart;
        a.consumer = text(v, path, "restart");
    }
    return a;
}

// Each entry of the list `key` read by `read(entry, path, index)`, its problems reported and the others read on.
template <class T, class Read> void readEach(const json& v, const char* key, std::vector<T>& out, Read read)
{
    const json& list = array(v, "", key);
    for (size_t i = 0; i < list.size(); ++i)
        guarded([&] { out.push_back(read(list[i], at(key, i), i)); });
}

Scenario readScenario(const json& v)
{
    checkKeys(v, "",
        { "name", "seed", "duration", "queues", "topics", "producers", "consumers", "lambdas", "actions", "script",
            "lesson", "kmsKeys", "quotas", "faults", "alarms", "$schema", "description" });
    Scenario s;
    s.source = v;
    s.name = v.contains("name") ? text(v, "", "name") : "scenario";
    s.seed = uint64_t(integer(v, "", "seed", 0, INT64_MAX).value_or(1));
    s.quotas = boolean(v, "", "quotas", false);
    if (v.contains("faults")) {
        auto plan = endpoint::parseFaultPlan(v["faults"], "faults");
        if (!plan || !v["faults"].is_array()) {
            const std::string message = plan
                ? "faults: a list of faults, such as [{\"kind\": \"duplicate\", \"rate\": 0.2}]"
                : plan.error().message;
            const size_t colon = message.find(": ");
            report(message.substr(0, colon), message.substr(colon + 2));
        } else {
            s.faults = std::move(plan).value();
            s.faults->seed = s.seed; // the scenario's seed draws its faults
            for (size_t i = 0; i < s.faults->rules.size(); ++i)
                if (s.faults->rules[i].kind == FaultKind::Latency) // docs/faults.md
                    report("faults[" + std::to_string(i) + "].kind",
                        "a latency fault holds back answers to `lifeline serve`'s clients; a scenario's are answered "
                        "at once");
        }
    }
    if (const auto d = duration(v, "", "duration")) {
        if (*d <= 0 || *d > 14LL * 86400000)
            report("duration", "must be above 0 and at most 14 days, got " + formatDuration(*d));
        s.duration = *d;
    }
    if (array(v, "", "queues").empty() && (!v.contains("queues") || v["queues"].is_array()))
        report("queues", "must list at least one queue");
    readEach(v, "queues", s.queues, [](const json& q, const std::string& path, size_t) { return queueSpec(q, path); });
    for (size_t i = 0; s.faults && i < s.faults->rules.size(); ++i)
        if (const std::string& queue = s.faults->rules[i].queue; !queue.empty()
            && std::none_of(s.queues.begin(), s.queues.end(), [&](const auto& q) { return q.name == queue; }))
            report("faults[" + std::to_string(i) + "].queue", "names no queue of the scenario: '" + queue + "'");
    guarded([&] { reading::readServices(v, s); });
    guarded([&] { reading::readAlarms(v, s); });
    readEach(v, "producers", s.producers, producerSpec);
    readEach(v, "consumers", s.consumers, consumerSpec);
    readEach(v, "lambdas", s.lambdas, lambdaSpec);
    readEach(
        v, "actions", s.actions, [](const json& a, const std::string& path, size_t) { return actionSpec(a, path); });
    if (v.contains("script"))
        s.script = reading::readScript(v["script"], "script", s);
    if (v.contains("lesson"))
        guarded([&] { s.lesson = reading::readLessonText(v["lesson"], "lesson"); });
    if (t_problems->empty())
        reading::crossCheck(s);
    return s;
}

} // namespace

std::variant<Scenario, ScenarioError> parseScenario(const nlohmann::json& v)
{
    std::vector<ScenarioProblem> problems;
    t_problems = &problems;
    std::optional<Scenario> scenario;
    try {
        try {
            scenario = readScenario(v);
        } catch (const Failure& failure) { // the top level itself is wrong (not an object, a list that is not one)
            report(failure.problem.path, failure.problem.message);
        } catch (const json::exception& e) { // a value the readers did not expect; never a crash
            report("", std::string("cannot be read: ") + e.what());
        }
    } catch (const TooMany&) {
    }
    t_problems = nullptr;
    if (problems.empty())
        return std::move(*scenario);
    return ScenarioError { problems.front().path, problems.front().message, std::move(problems) };
}

} // namespace lifeline::scenario
