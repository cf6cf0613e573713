// A lane's name: the scenario's label for its message, else its body's first words, else its MessageId's start; a
// DLQ's lane keeps the name of the message it continues, and a run file keeps the labels.
#include "lifeline/io/run_file.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/sim/simulation.h"
#include "scenario_text.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {

std::string loadError(const std::string& json)
{
    auto parsed = parseScenario(json);
    auto* error = std::get_if<ScenarioError>(&parsed);
    return error ? error->text() : std::string("loaded");
}
} // namespace

TEST_CASE("lane name: a body's first words, its first line, spaces collapsed, cut at a word", "[lanename]")
{
    CHECK(firstWords("order 4") == "order 4");
    CHECK(firstWords("  two   spaces\tand a tab") == "two spaces and a tab");
    CHECK(firstWords("line one\nline two") == "line one");
    CHECK(firstWords("line one\r\nline two") == "line one");
    CHECK(firstWords("charge the customer for order 1001 today") == "charge the customer for…");
    CHECK(firstWords(std::string(30, 'a')) == std::string(24, 'a') + "…");
    // Cut at a character, never inside one: twelve two-byte letters fill the 24 bytes.
    CHECK(firstWords("ééééééééééééé") == "éééééééééééé…");
    CHECK(firstWords("xéééééééééééé") == "xééééééééééé…");
    CHECK(firstWords(std::string(24, 'b')) == std::string(24, 'b'));
    CHECK(firstWords("") == "");
    CHECK(firstWords("   ") == "");
    CHECK(firstWords("\x01\x02 binary") == "");
}

TEST_CASE("lane name: a label names the lane, the DLQ's lane keeps it, a run file keeps it", "[lanename]")
{
    Simulation s(test::scenarioFrom(R"({"duration": "2m",
        "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 5},
                    "deadLetter": {"queue": "orders-dlq", "maxReceiveCount": 1}}, {"name": "orders-dlq"}],
        "producers": [{"name": "shop", "queue": "orders", "messages": [
            {"at": "0s", "body": "poison order 17", "label": "the poison order"},
            {"at": "1s", "body": "order 18"},
            {"at": "2s", "body": "   "}]}],
        "consumers": [{"name": "worker", "queue": "orders", "processing": "1s"}]})"));
    s.advanceTo(120000);
    const RunView& run = s.engine().run();
    REQUIRE(run.messageCount() == 4);
    CHECK(laneName(run, 0) == "the poison order");
    CHECK(laneName(run, 1) == "order 18");
    CHECK(laneName(run, 2) == run.messageId(2).substr(0, 8));
    REQUIRE(run.message(3).queue == 1); // the poison order, moved to the DLQ
    CHECK(laneName(run, 3) == "the poison order");

    std::ostringstream out;
    writeRun(run, "labels", out);
    const std::string bytes = out.str();
    auto opened = readRun(std::vector<uint8_t>(bytes.begin(), bytes.end()), "labels.lifeline");
    REQUIRE(opened.ok());
    const RunView& reopened = *opened.value().run;
    for (MessageIndex lane = 0; lane < 4; ++lane)
        CHECK(laneName(reopened, lane) == laneName(run, lane));
}

TEST_CASE("lane name: a script's SendMessage label and an action's send name their lanes", "[lanename]")
{
    Simulation s(test::scenarioFrom(R"({"duration": "1m", "queues": [{"name": "q"}],
        "script": [{"at": "0s", "call": "SendMessage", "queue": "q", "label": "the retry"}],
        "actions": [{"at": "5s", "send": {"queue": "q", "body": "hello there", "label": "the operator's"}}]})"));
    s.advanceTo(60000);
    const RunView& run = s.engine().run();
    REQUIRE(run.messageCount() == 2);
    CHECK(laneName(run, 0) == "the retry");
    CHECK(laneName(run, 1) == "the operator's");
}

TEST_CASE("lane name: a label is a few words, or the scenario is refused with its path", "[lanename]")
{
    const std::string head = R"({"queues": [{"name": "q"}], "producers": [{"queue": "q", "messages": [{"at": 0, )";
    CHECK(loadError(head + R"("label": ""}]}]})") == "producers[0].messages[0].label: must be 1 to 64 characters");
    CHECK(loadError(head + R"("label": ")" + std::string(65, 'x') + R"("}]}]})")
        == "producers[0].messages[0].label: must be 1 to 64 characters");
    CHECK(loadError(head + R"("label": 7}]}]})").starts_with("producers[0].messages[0].label: "));
    CHECK(loadError(head + R"("label": ")" + std::string(64, 'x') + R"("}]}]})") == "loaded");
    // A label alone is the message's body too.
    Simulation s(test::scenarioFrom(head + R"("label": "the retry"}]}]})"));
    s.advanceTo(1000);
    REQUIRE(s.engine().messageCount() == 1);
    CHECK(s.engine().message(0).body.view() == "the retry");
}

TEST_CASE("lane names: a small JSON object's first two fields, in the order written", "[run][lane]")
{
    CHECK(jsonFields(R"({"id": 1001, "kind": "charge", "amount": 12.5})") == "id 1001, kind charge");
    CHECK(jsonFields(R"({"orderId": 1001, "kind": "charge"})") == "orderId 1001, kind…"); // cut as words are
    CHECK(jsonFields(R"({"items": [1, 2], "id": "a7", "meta": {"x": 1}, "ok": true})") == "id a7, ok true");
    CHECK(jsonFields(R"({"description": "a very long text that goes on and on"})") == "description a very long…");
    CHECK(jsonFields(R"({"items": []})").empty()); // nothing a name can show
    CHECK(jsonFields("order 4").empty());
    CHECK(jsonFields(R"({"id": 1)").empty()); // not JSON
    CHECK(jsonFields("[1, 2]").empty());
    CHECK(jsonFields("{\"id\": \"" + std::string(5000, 'x') + "\"}").empty()); // over 4 KiB: not parsed
}
