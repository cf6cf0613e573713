// A scenario's script: single calls by named clients at chosen times, each answered as SQS answers (its own error
// codes and texts), each answer an event on the client's row and a line of the summary; a step that names what the
// scenario lacks is a load error with its path.
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"
#include "scenario_text.h"

#include <catch2/catch.hpp>
#include <variant>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {
std::string scenarioText(const std::string& script, const std::string& extra = "")
{
    return R"({"duration": "200s", "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 30}}],
        "consumers": [{"name": "worker", "queue": "orders", "processing": "5s", "start": "500s"}])"
        + extra + R"(, "script": )" + script + "}";
}

std::string problems(const std::string& json)
{
    auto parsed = parseScenario(json);
    REQUIRE(std::holds_alternative<ScenarioError>(parsed));
    return std::get<ScenarioError>(parsed).text();
}

std::vector<std::string> answers(Simulation& run)
{
    std::vector<std::string> out;
    for (const auto& step : run.summary().steps)
        out.push_back(std::to_string(step.at / 1000) + "s " + step.as + " " + step.call + " " + step.answer);
    return out;
}
} // namespace

TEST_CASE("script: each call is answered as SQS answers it - the 12-hour cap counted from the receive", "[script]")
{
    Simulation run(test::scenarioFrom(scenarioText(R"([
        {"at": "0s", "as": "C1", "call": "SendMessage", "label": "m1", "body": "hello"},
        {"at": "10s", "as": "C2", "call": "ReceiveMessage", "waitTimeSeconds": 0, "visibilityTimeout": 120},
        {"at": "100s", "as": "C2", "call": "ChangeMessageVisibility", "message": "m1", "visibilityTimeout": 43200},
        {"at": "110s", "as": "C2", "call": "ChangeMessageVisibility", "message": {"receivedBy": 2}, "visibilityTimeout": 43201},
        {"at": "115s", "as": "C2", "call": "ChangeMessageVisibility", "message": "m1", "visibilityTimeout": 600},
        {"at": "120s", "as": "C2", "call": "DeleteMessage", "message": "m1"},
        {"at": "140s", "as": "ops", "call": "SetQueueAttributes", "attributes": {"DelaySeconds": "901"}},
        {"at": "150s", "as": "C1", "call": "SendMessage", "label": "m2", "delaySeconds": 5},
        {"at": "151s", "as": "C2", "call": "ReceiveMessage", "waitTimeSeconds": 20},
        {"at": "160s", "as": "ops", "call": "PurgeQueue"},
        {"at": "161s", "as": "ops", "call": "PurgeQueue"}])")));
    run.runToEnd();
    const std::string id1 = run.engine().messageId(0).substr(0, 8);
    const std::string id2 = run.engine().messageId(1).substr(0, 8);
    CHECK(answers(run)
        == std::vector<std::string> {
            "0s C1 SendMessage m1 OK: MessageId " + id1,
            "10s C2 ReceiveMessage OK: m1 (receive #1)",
            "100s C2 ChangeMessageVisibility m1 VisibilityTimeout=43200: InvalidParameterValue: Value 43200 for "
            "parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message is beyond the "
            "limit [43200 seconds]",
            "110s C2 ChangeMessageVisibility what step 2 received VisibilityTimeout=43201: InvalidParameterValue: "
            "Value 43201 for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.",
            "115s C2 ChangeMessageVisibility m1 VisibilityTimeout=600: OK",
            "120s C2 DeleteMessage m1: OK",
            "140s ops SetQueueAttributes DelaySeconds=901: InvalidAttributeValue: Invalid value for the parameter "
            "DelaySeconds.",
            "150s C1 SendMessage m2 OK: MessageId " + id2,
            "155s C2 ReceiveMessage OK: m2 (receive #1)", // a long poll: answered when m2's delay ends
            "160s ops PurgeQueue orders: OK",
            "161s ops PurgeQueue orders: AWS.SimpleQueueService.PurgeQueueInProgress: Only one PurgeQueue operation "
            "on orders is allowed every 60 seconds.",
        });
    // Each answer is an event of its client, on the lane it concerns.
    std::vector<std::string> clients;
    std::vector<MessageIndex> lanes;
    for (size_t i = 0; i < run.engine().log().size(); ++i)
        if (const Event& e = run.engine().log()[i]; e.cause == Cause::ScriptedCall) {
            clients.push_back(run.engine().run().actorName(e.actor));
            lanes.push_back(e.message);
        }
    CHECK(clients == std::vector<std::string> { "C1", "C2", "C2", "C2", "C2", "C2", "ops", "C1", "C2", "ops", "ops" });
    CHECK(lanes == std::vector<MessageIndex> { 0, 0, 0, 0, 0, 0, kNoMessage, 1, 1, kNoMessage, kNoMessage });
    CHECK(run.summary().toJson()["steps"][2]["call"] == "ChangeMessageVisibility");
}

TEST_CASE("script: a handle stays usable after its timeout - a delete with it honoured or not as SQS does", "[script]")
{
    // Received at 0 s with a 5 s timeout, received again at 10 s: the first receive's handle deletes it (standard
    // queues honour an earlier handle).
    Simulation run(test::scenarioFrom(scenarioText(R"([
        {"at": "0s", "as": "C", "call": "SendMessage", "label": "m"},
        {"at": "0s", "as": "C", "call": "ReceiveMessage", "waitTimeSeconds": 0, "visibilityTimeout": 5},
        {"at": "10s", "as": "D", "call": "ReceiveMessage", "waitTimeSeconds": 0},
        {"at": "20s", "as": "C", "call": "ChangeMessageVisibility", "message": {"receivedBy": 2}, "visibilityTimeout": 0},
        {"at": "30s", "as": "C", "call": "DeleteMessage", "message": {"receivedBy": 2}}])")));
    run.runToEnd();
    const auto lines = answers(run);
    REQUIRE(lines.size() == 5);
    CHECK(lines[2] == "10s D ReceiveMessage OK: m (receive #2)");
    CHECK(lines[4] == "30s C DeleteMessage what step 2 received: OK");
    CHECK(run.engine().message(0).receiveCount == 2);
}

TEST_CASE("script: stopConsumer and startConsumer crash and restart a behaviour actor", "[script]")
{
    Simulation run(test::scenarioFrom(R"({"duration": "60s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "messages": [{"at": "1s", "body": "x"}]}],
        "consumers": [{"name": "worker", "queue": "q", "processing": "20s"}],
        "script": [{"at": "5s", "call": "stopConsumer", "consumer": "worker"},
                   {"at": "40s", "call": "startConsumer", "consumer": "worker"}]})"));
    run.runToEnd();
    CHECK(answers(run)
        == std::vector<std::string> { "5s script stopConsumer worker: done", "40s script startConsumer worker: done" });
    CHECK(run.summary().consumers[0].heldAtCrash == 1);
    CHECK(run.summary().deleted == 1); // back after its timeout, processed after the restart
}

TEST_CASE("script: a step naming what the scenario lacks is a load error with its path", "[script]")
{
    const std::string text = problems(scenarioText(R"([
        {"at": "1s", "call": "SendMessage", "queue": "order", "label": "m1"},
        {"at": "2s", "call": "DeleteMessage", "message": "m9"},
        {"at": "3s", "call": "ChangeMessageVisibility", "message": {"receivedBy": 1}, "visibilityTimeout": 10},
        {"at": "4s", "call": "stopConsumer", "consumer": "workr"},
        {"at": "5s", "call": "ReceiveMessage", "waitTimeSeconds": 21, "maxMessage": 2},
        {"at": "6s", "call": "Publish"},
        {"at": "7s", "call": "ChangeMessageVisibility", "message": "m1"}])"));
    CHECK(text
        == "script[0].queue: no queue named \"order\" in the scenario; did you mean \"orders\"?\n"
           "script[1].message: no earlier SendMessage step has the label \"m9\"\n"
           "script[2].message.receivedBy: must be the number (from 1) of an earlier ReceiveMessage step, got 1\n"
           "script[3].consumer: no consumer named \"workr\" in the scenario\n"
           "script[4].maxMessage: not a key of ReceiveMessage\n"
           "script[4].waitTimeSeconds: must be a whole number from 0 to 20, got 21\n"
           "script[5].call: unknown call \"Publish\"; known are SendMessage, ReceiveMessage, DeleteMessage, "
           "ChangeMessageVisibility, SetQueueAttributes, PurgeQueue, stopConsumer, startConsumer\n"
           "script[6].visibilityTimeout: is required");
}
