#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/distribution_text.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <clocale>
#include <cstdlib>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {
std::string errorOf(const std::string& json)
{
    auto parsed = parseScenario(json);
    REQUIRE(std::holds_alternative<ScenarioError>(parsed));
    return std::get<ScenarioError>(parsed).text();
}

const char* kMinimal = R"({"queues": [{"name": "q"}], "producers": [{"queue": "q", "rate": 1}],
    "consumers": [{"queue": "q", "processing": "2s"}], "duration": "1m"})";
} // namespace

TEST_CASE("durations", "[scenario]")
{
    CHECK(parseDuration("90s") == 90000);
    CHECK(parseDuration("15m") == 900000);
    CHECK(parseDuration("2h") == 7200000);
    CHECK(parseDuration("500ms") == 500);
    CHECK(parseDuration("1.5s") == 1500);
    CHECK(parseDuration("30") == 30000);
    CHECK_FALSE(parseDuration("").has_value());
    CHECK_FALSE(parseDuration("5 minutes").has_value());
    CHECK_FALSE(parseDuration("-5s").has_value());
    CHECK_FALSE(parseDuration("1.2.3s").has_value());
    // Compound: the parts from the largest unit down, each once.
    CHECK(parseDuration("1m30s") == 90000);
    CHECK(parseDuration("1h2m3.5s") == 3723500);
    CHECK(parseDuration("2d12h") == 216000000);
    CHECK(parseDuration("1s500ms") == 1500);
    CHECK_FALSE(parseDuration("30s1m").has_value()); // out of order
    CHECK_FALSE(parseDuration("1m1m").has_value()); // a unit twice
    CHECK_FALSE(parseDuration("1m30").has_value()); // a part without its unit
    CHECK_FALSE(parseDuration("m30s").has_value());
    CHECK_FALSE(parseDuration("366d1s").has_value()); // over a year, in parts
    CHECK(formatDuration(90000) == "1m30s");
    CHECK(formatDuration(1500) == "1.5s");
    CHECK(formatDuration(0) == "0s");
    CHECK(describeDuration(0) == "0 s");
    CHECK(describeDuration(500) == "500 ms");
    CHECK(describeDuration(1500) == "1.5 s");
    CHECK(describeDuration(30000) == "30 s");
    CHECK(describeDuration(150000) == "2 min 30 s");
    CHECK(describeDuration(900000) == "15 min");
    CHECK(describeDuration(3900000) == "1 h 5 min");
    CHECK(describeDuration(345600000) == "4 days");
    CHECK(describeDuration(1209600000) == "14 days");
    CHECK(formatDuration(5) == "5ms");
    CHECK(formatDuration(999) == "999ms");
    CHECK(formatDuration(1000) == "1s");
    CHECK(formatDuration(60005) == "1m0.005s");
    for (const TimeMs ms : { TimeMs(1), TimeMs(5), TimeMs(999), TimeMs(1500), TimeMs(59999), TimeMs(60005),
             TimeMs(3723500), TimeMs(90061001), kMaxDuration })
        CHECK(parseDuration(formatDuration(ms)) == ms); // what it writes, a scenario file or a request reads back
}

TEST_CASE("a minimal scenario loads with defaults", "[scenario]")
{
    auto parsed = parseScenario(std::string(kMinimal));
    REQUIRE(std::holds_alternative<Scenario>(parsed));
    const Scenario& s = std::get<Scenario>(parsed);
    CHECK(s.duration == 60000);
    CHECK(s.seed == 1);
    CHECK(s.producers.at(0).name == "producer-1");
    CHECK(s.consumers.at(0).waitTimeSeconds == 20);
    CHECK(s.consumers.at(0).processing.a == 2000);
}

TEST_CASE("scenario errors name the field by its path and say what is allowed", "[scenario]")
{
    CHECK(
        errorOf(R"({"queues": [{"name": "q"}], "producers": [{"queue": "q", "rate": 1}, {"queue": "q", "rate": -3}]})")
        == "producers[1].rate: must be > 0 and at most 100000 messages per second, got -3");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "producers": [{"queue": "q", "rte": 1}]})")
        == "producers[0].rte: unknown key; did you mean \"rate\"?");
    CHECK(errorOf(R"({"queus": []})")
        == "queus: unknown key; did you mean \"queues\"?\nqueues: must list at least one queue");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "nope"}]})")
        == "consumers[0].queue: no queue is named \"nope\"; the queues are \"q\"");
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 50000}}]})")
        == "queues[0].attributes.VisibilityTimeout: 50000 is out of range 0-43200 (SQS: Invalid value for the "
           "parameter VisibilityTimeout.)");
    CHECK(errorOf(R"({"queues": [{"name": "q", "type": "fifo"}]})")
        == "queues[0].name: a FIFO queue's name must end in .fifo, got \"q\"");
    // High-throughput mode is two attributes that SQS takes only together: each is checked with the other.
    CHECK(std::holds_alternative<Scenario>(parseScenario(std::string(R"({"queues": [{"name": "q.fifo", "type": "fifo",
        "attributes": {"FifoThroughputLimit": "perMessageGroupId", "DeduplicationScope": "messageGroup"}}]})"))));
    CHECK(errorOf(R"({"queues": [{"name": "q.fifo", "type": "fifo", "attributes": {"FifoThroughputLimit":
        "perMessageGroupId"}}]})")
        == "queues[0].attributes.FifoThroughputLimit: \"perMessageGroupId\" is refused (SQS: Invalid value for the "
           "parameter FifoThroughputLimit.)");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "waitTimeSeconds": 21}]})")
        == "consumers[0].waitTimeSeconds: must be from 0 to 20, got 21");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "duration": "forever"})")
        == "duration: must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most a year, got "
           "\"forever\"");
    CHECK(errorOf(R"({"queues": [{"name": "q", "deadLetter": {"queue": "dlq"}}]})")
        == "queues[0].deadLetter.queue: no queue is named \"dlq\"; did you mean \"q\"?");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "actions": [{"at": "1m", "crash": "ghost"}]})")
        == "actions[0].crash: no consumer is named \"ghost\"; the consumers are none");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": {"gamma": 1}}]})")
        == "consumers[0].processing.gamma: unknown key; known keys are fixed uniform exponential normal lognormal "
           "samples");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing":
        {"lognormal": {"p50": "2s", "p99": "1s"}}}]})")
        == "consumers[0].processing.lognormal.p99: must not be below p50 (2s)");
    CHECK(errorOf(
              R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": {"lognormal": {"p50": 1}}}]})")
        == "consumers[0].processing.lognormal: must be {\"p50\": D, \"p99\": D}");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": {"samples": []}}]})")
        == "consumers[0].processing.samples: must be a list of 1 to 100,000 durations");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": {"samples": [1, "x"]}}]})")
        == "consumers[0].processing.samples[1]: must be a duration such as 90s, 15m, 2h, 500ms or a number of "
           "seconds, at most a year");
    CHECK(errorOf(R"({"queues": []})") == "queues: must list at least one queue");
    CHECK(errorOf("{\"queues\": [").starts_with("not valid JSON: "));
    CHECK(errorOf("[1, 2]") == "must be an object, got [1,2]");
}

TEST_CASE("a lesson's fix is a JSON Patch - a broken one is reported", "[scenario]")
{
    const std::string lesson = R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 10}}],
        "lesson": {"id": "x", "number": 1, "title": "t", "idea": "i", "watch": "w", "trap": "t", "fix": "f",
                   "fixPatch": [{"op": "replace", "path": "/queues/0/attributes/VisibilityTimeout", "value": 60}]}})";
    auto parsed = parseScenario(lesson);
    REQUIRE(std::holds_alternative<Scenario>(parsed));
    auto fixed = applyFix(std::get<Scenario>(parsed));
    REQUIRE(std::holds_alternative<Scenario>(fixed));
    CHECK(std::get<Scenario>(fixed).queues.at(0).attributes.at("VisibilityTimeout") == "60");
    Scenario broken = std::get<Scenario>(parsed);
    broken.lesson->fixPatch = nlohmann::json::parse(R"([{"op": "replace", "path": "/nope/0", "value": 1}])");
    auto failed = applyFix(broken);
    REQUIRE(std::holds_alternative<ScenarioError>(failed));
    CHECK(std::get<ScenarioError>(failed).path == "lesson.fixPatch");
}

TEST_CASE("scenario errors: every problem at once, each with its path", "[scenario]")
{
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"DelaySeconds": 1000}}],
                      "producers": [{"queue": "q", "rate": -1, "rte": 2}],
                      "consumers": [{"queue": "q", "waitTimeSeconds": 21}], "duration": "1e300s"})")
        == "duration: must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most a year, got "
           "\"1e300s\"\n"
           "producers[0].rte: unknown key; did you mean \"rate\"?\n"
           "producers[0].rate: must be > 0 and at most 100000 messages per second, got -1\n"
           "consumers[0].waitTimeSeconds: must be from 0 to 20, got 21");
    // Cross-references are checked once every field reads right; all of them are reported too.
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"DelaySeconds": 1000, "VisibilityTimout": 5}}],
                      "consumers": [{"queue": "qq"}]})")
        == "queues[0].attributes.DelaySeconds: 1000 is out of range 0-900 (SQS: Invalid value for the parameter "
           "DelaySeconds.)\n"
           "queues[0].attributes.VisibilityTimout: unknown attribute; did you mean \"VisibilityTimeout\"?\n"
           "consumers[0].queue: no queue is named \"qq\"; did you mean \"q\"?");
    // Twenty at most.
    std::string many = R"({"queues": [{"name": "q"}], "consumers": [)";
    for (int i = 0; i < 30; ++i)
        many += std::string(i ? "," : "") + R"({"queue": "q", "maxMessages": 11})";
    many += "]}";
    const std::string text = errorOf(many);
    CHECK(std::count(text.begin(), text.end(), '\n') == 20);
    CHECK(text.ends_with("(stopped after 20 problems)"));
}

TEST_CASE("scenario: numbers and durations are bounded before they are converted", "[scenario]")
{
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "duration": 1e300})")
        == "duration: must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most a year, got "
           "1e+300");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": -1e300}]})")
        == "consumers[0].processing: must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, at most "
           "a year, got -1e+300");
    CHECK_FALSE(parseDuration("1e300s").has_value());
    CHECK_FALSE(parseDuration("99999999999999999999999999999d").has_value());
    CHECK(parseDuration("366d") == 366LL * 86400000);
    CHECK_FALSE(parseDuration("367d").has_value());
}

TEST_CASE("scenario: a send SQS would refuse is a load error unless the refusal is the point", "[scenario]")
{
    CHECK(errorOf(R"({"queues": [{"name": "q"}],
                      "producers": [{"queue": "q", "messages": [{"at": 0, "body": "b", "delaySeconds": 1000}]}]})")
        == "producers[0].messages[0].delaySeconds: 1000 would be refused (SQS: Value 1000 for parameter DelaySeconds "
           "is invalid. Reason: DelaySeconds must be >= 0 and <= 900.); set \"expectRefused\": true if the refusal "
           "is the point");
    CHECK(errorOf(R"({"queues": [{"name": "q.fifo", "type": "fifo"}],
                      "producers": [{"queue": "q.fifo", "rate": 1, "delaySeconds": 5}]})")
        == "producers[0].delaySeconds: 5 would be refused (SQS: Value 5 for parameter DelaySeconds is invalid. "
           "Reason: The request include parameter that is not valid for this queue type.); set \"expectRefused\": "
           "true if the refusal is the point");
    CHECK(errorOf(R"({"queues": [{"name": "q"}],
                      "actions": [{"at": 1, "send": {"queue": "q", "body": "b", "delaySeconds": 901}}]})")
              .starts_with("actions[0].send.delaySeconds: 901 would be refused"));
    CHECK(std::holds_alternative<Scenario>(parseScenario(std::string(R"({"queues": [{"name": "q.fifo", "type": "fifo"}],
                      "producers": [{"queue": "q.fifo", "rate": 1, "delaySeconds": 5, "expectRefused": true}]})"))));
}

TEST_CASE("scenario: a crash or restart must name a consumer that exists", "[scenario]")
{
    // One consumer named C is "C", not "C-1"; several are C-1, C-2 ...
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"name": "C", "queue": "q"}],
                      "actions": [{"at": "1s", "crash": "C-1"}]})")
        == "actions[0].crash: no consumer is named \"C-1\"; the consumers are \"C\"");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"name": "W", "queue": "q", "count": 2}],
                      "actions": [{"at": "1s", "restart": "W"}]})")
        == "actions[0].restart: no consumer is named \"W\"; the consumers are \"W-1\", \"W-2\"");
    CHECK(std::holds_alternative<Scenario>(parseScenario(std::string(R"({"queues": [{"name": "q"}],
        "consumers": [{"name": "W", "queue": "q", "count": 2}], "actions": [{"at": "1s", "crash": "W-2"}]})"))));
}

TEST_CASE("scenario: a Lambda trigger whose function outlasts the visibility timeout is refused as Lambda does",
    "[scenario][lambda]")
{
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 0}}],
                      "lambdas": [{"queue": "q", "timeout": "30s"}]})")
        == "lambdas[0].timeout: Lambda refuses this trigger (InvalidParameterValueException: Queue visibility timeout: "
           "0 seconds is less than Function timeout: 30 seconds); give q a VisibilityTimeout of at least 30 s (AWS "
           "recommends six times the function timeout)");
    // The queue's default of 30 s against a 1.5 s over it.
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "lambdas": [{"queue": "q", "timeout": "31500ms"}]})")
              .starts_with("lambdas[0].timeout: Lambda refuses this trigger (InvalidParameterValueException: Queue "
                           "visibility timeout: 30 seconds is less than Function timeout: 31.5 seconds)"));
    // Equal is accepted (six times is AWS's advice, not its rule).
    CHECK(std::holds_alternative<Scenario>(parseScenario(std::string(
        R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}], "lambdas": [{"queue": "q", "timeout": "30s"}]})"))));
}

TEST_CASE("numbers parse and print the same under a German locale (decimal comma)", "[scenario][locale]")
{
    // QApplication sets LC_NUMERIC from the environment; nothing that reads or writes numbers may follow it.
    // .ci/install-deps generates de_DE.UTF-8.
    const char* german = std::setlocale(LC_ALL, "de_DE.UTF-8");
    REQUIRE(german != nullptr);
    CHECK(std::strtod("1.5", nullptr) == 1.0); // the locale really reads a comma: what the old parser did
    CHECK(parseDuration("1.5s") == 1500);
    CHECK(parseDuration("0.25m") == 15000);
    CHECK(parseNumber("2.75") == 2.75);
    CHECK(formatNumber(0.5) == "0.5");
    CHECK(formatNumber(1e300) == "1e+300");
    auto parsed = parseScenario(std::string(
        R"({"queues": [{"name": "q"}], "producers": [{"queue": "q", "rate": 0.5}], "duration": "1.5m",
            "consumers": [{"queue": "q", "processing": "2.5s"}]})"));
    std::setlocale(LC_ALL, "C");
    REQUIRE(std::holds_alternative<Scenario>(parsed));
    const Scenario& s = std::get<Scenario>(parsed);
    CHECK(s.duration == 90000);
    CHECK(s.producers.at(0).rate == 0.5);
    CHECK(s.consumers.at(0).processing.a == 2500);
}

TEST_CASE("scenario: deep nesting is refused before it is walked", "[scenario]")
{
    CHECK(errorOf(std::string(200000, '[')) == "lists and objects nest deeper than 64 levels");
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"Policy": )" + std::string(100, '{'))
        == "lists and objects nest deeper than 64 levels");
    // Brackets inside strings do not count.
    CHECK(std::holds_alternative<Scenario>(
        parseScenario(R"({"queues": [{"name": "q"}], "name": ")" + std::string(100, '[') + "\"}")));
}

TEST_CASE("a processing distribution in words and its middle", "[scenario]")
{
    using Kind = Distribution::Kind;
    CHECK(describe(Distribution { Kind::Uniform, 5, 15, {} }) == "5ms to 15ms");
    CHECK(typicalMs(Distribution { Kind::Uniform, 5, 15, {} }) == 10);
    CHECK(describe(Distribution { Kind::Fixed, 60000, 0, {} }) == "1m");
    CHECK(typicalMs(Distribution { Kind::Fixed, 60000, 0, {} }) == 60000);
    CHECK(describe(Distribution { Kind::Exponential, 3000, 0, {} }) == "exponential, mean 3s");
    CHECK(typicalMs(Distribution { Kind::Exponential, 3000, 0, {} }) == 3000);
    CHECK(describe(Distribution { Kind::LogNormal, 2000, 40000, {} }) == "p50 2s, p99 40s");
    CHECK(typicalMs(Distribution { Kind::LogNormal, 2000, 40000, {} }) == 2000);
    CHECK(describe(Distribution { Kind::Samples, 0, 0, { 900, 100, 300, 700, 500 } }) == "5 measured times");
    CHECK(typicalMs(Distribution { Kind::Samples, 0, 0, { 900, 100, 300, 700, 500 } }) == 500);
    CHECK(typicalMs(Distribution { Kind::Samples, 0, 0, {} }) == 0);
}
