#include "lifeline/sim/duration.h"
#include "lifeline/sim/scenario.h"

#include <catch2/catch.hpp>

using namespace lifeline;
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
    CHECK(formatDuration(90000) == "1m30s");
    CHECK(formatDuration(1500) == "1.5s");
    CHECK(formatDuration(0) == "0s");
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
    CHECK(errorOf(R"({"queus": []})") == "queus: unknown key; did you mean \"queues\"?");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "nope"}]})")
        == "consumers[0].queue: no queue is named \"nope\"");
    CHECK(errorOf(R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 50000}}]})")
        == "queues[0]: Invalid value for the parameter VisibilityTimeout.");
    CHECK(errorOf(R"({"queues": [{"name": "q", "type": "fifo"}]})")
        == "queues[0].name: a FIFO queue's name must end in .fifo, got \"q\"");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "waitTimeSeconds": 21}]})")
        == "consumers[0].waitTimeSeconds: must be from 0 to 20, got 21");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "duration": "forever"})")
        == "duration: must be a duration such as 90s, 15m, 2h, 500ms or a number of seconds, got \"forever\"");
    CHECK(errorOf(R"({"queues": [{"name": "q", "deadLetter": {"queue": "dlq"}}]})")
        == "queues[0].deadLetter.queue: no queue is named \"dlq\"");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "actions": [{"at": "1m", "crash": "ghost"}]})")
        == "actions[0].crash: no consumer is named \"ghost\"");
    CHECK(errorOf(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q", "processing": {"gamma": 1}}]})")
        == "consumers[0].processing.gamma: unknown key; known keys are fixed uniform exponential normal");
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
