// Live operator changes (what the window's controls call): each is an event, SQS's rules apply, refusals change
// nothing.
#include "lifeline/sim/simulation.h"
#include "scenario_text.h"

#include <catch2/catch.hpp>
#include <clocale>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {

std::vector<std::string> operatorNotes(const Simulation& s)
{
    std::vector<std::string> out;
    const auto& log = s.engine().log();
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].cause == Cause::OperatorAction)
            out.push_back(log.text(log[i].textIndex()));
    return out;
}

size_t sentCount(const Simulation& s)
{
    size_t n = 0;
    const auto& log = s.engine().log();
    for (size_t i = 0; i < log.size(); ++i)
        n += log[i].cause == Cause::Send ? 1 : 0;
    return n;
}
} // namespace

TEST_CASE("operator: a visibility change is an event and applies to the next receive", "[simulation][operator]")
{
    Simulation s(test::scenarioFrom(R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "q", "messages": [{"at": "0s", "body": "a"}, {"at": "10s", "body": "b"}]}],
        "consumers": [{"name": "w", "queue": "q", "processing": "1h"}]})"));
    s.advanceTo(5000);
    const MessageIndex first = s.consumers()[0].holding;
    CHECK(s.engine().times(first).dueAt == 30000);
    REQUIRE(s.setQueueAttributes("q", { { "VisibilityTimeout", "5" } }));
    CHECK(operatorNotes(s) == std::vector<std::string> { "set VisibilityTimeout=5 on q" });
    CHECK(s.engine().getQueueAttributes("q", { "VisibilityTimeout" }).value().at("VisibilityTimeout") == "5");
    CHECK(s.engine().times(first).dueAt == 30000); // a message already in flight keeps its timeout
    const auto refused = s.setQueueAttributes("q", { { "VisibilityTimeout", "43201" } });
    REQUIRE_FALSE(refused);
    CHECK(refused.error().code == "InvalidAttributeValue");
    CHECK(s.engine().getQueueAttributes("q", { "VisibilityTimeout" }).value().at("VisibilityTimeout") == "5");
}

TEST_CASE("operator: a refused FIFO message timer changes nothing but the log", "[simulation][operator][fifo]")
{
    Simulation s(test::scenarioFrom(R"({"queues": [{"name": "q.fifo", "type": "fifo",
        "attributes": {"ContentBasedDeduplication": "true"}}]})"));
    s.advanceTo(1000);
    const size_t messages = s.engine().messageCount();
    const auto refused = s.sendMessage("q.fifo", TimedMessage { 0, "hello", 5, "g1", {}, false, {}, {} });
    REQUIRE_FALSE(refused);
    CHECK(refused.error().message
        == "Value 5 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid "
           "for this queue type.");
    CHECK(s.engine().messageCount() == messages);
    const auto& log = s.engine().log();
    CHECK(log[log.size() - 1].cause == Cause::RequestRefused);
    CHECK(log[log.size() - 2].cause == Cause::OperatorAction);
    const auto sent = s.sendMessage("q.fifo", TimedMessage { 0, "hello", {}, "g1", {}, false, {}, {} });
    REQUIRE(sent);
    CHECK(s.engine().message(sent->lane).state == MessageState::Visible);
}

TEST_CASE("operator: add and remove consumers - a removed consumer's message comes back", "[simulation][operator]")
{
    Simulation s(test::scenarioFrom(R"({"queues": [{"name": "q", "attributes": {"VisibilityTimeout": 10}}],
        "producers": [{"queue": "q", "messages": [{"at": "0s", "body": "a"}, {"at": "0s", "body": "b"}]}],
        "consumers": [{"name": "w", "queue": "q", "processing": "1h"}]})"));
    s.advanceTo(1000);
    const size_t added = s.addConsumer("q");
    CHECK(added == 1);
    CHECK(s.consumers()[1].name == "w-2");
    const RunView& run = s.engine().run();
    CHECK(run.actorName(s.consumers()[1].actor) == "w-2");
    CHECK(run.actorGroup(s.consumers()[1].actor) == "w"); // its spec's name: the tiles gather it with w
    s.advanceTo(2000);
    const MessageIndex held = s.consumers()[1].holding;
    REQUIRE(held != kNoMessage);
    REQUIRE(s.removeConsumer(1));
    CHECK_FALSE(s.removeConsumer(1));
    CHECK_FALSE(s.restartConsumer(1)); // removed is not crashed: it does not come back
    CHECK(s.consumers()[1].removed);
    s.advanceTo(11000);
    CHECK(s.engine().message(held).state == MessageState::Visible); // back after its timeout (1 s + 10 s)
    CHECK(s.engine().message(held).receiveCount == 1);
    CHECK(operatorNotes(s) == std::vector<std::string> { "add consumer w-2", "remove consumer w-2" });
    // A queue with no consumer gets a default one.
    Simulation empty(test::scenarioFrom(R"({"queues": [{"name": "q"}]})"));
    CHECK(empty.addConsumer("q") == 0);
    CHECK(empty.consumers()[0].name == "worker-1");
}

TEST_CASE("operator: processing time and producer rate change from now on", "[simulation][operator]")
{
    Simulation s(test::scenarioFrom(R"({"duration": "1m", "queues": [{"name": "q"}],
        "producers": [{"name": "p", "queue": "q", "rate": 1}],
        "consumers": [{"name": "w", "queue": "q", "processing": "1s"}]})"));
    s.advanceTo(10000);
    CHECK(sentCount(s) == 11); // at 0, 1, ..., 10 s
    REQUIRE(s.setProducerRate(0, 2));
    CHECK(s.producerRate(0) == 2);
    s.advanceTo(20000);
    CHECK(sentCount(s) == 11 + 20); // at 10.5, 11, ..., 20 s
    REQUIRE(s.setProducerRate(0, 0));
    s.advanceTo(30000);
    CHECK(sentCount(s) == 31);
    CHECK_FALSE(s.setProducerRate(0, -1));
    CHECK_FALSE(s.setProducerRate(7, 1));
    s.setProcessingTime("q", Distribution { Distribution::Kind::Fixed, 4000, 0, {} });
    CHECK(s.scenario().consumers[0].processing.a == 4000);
    CHECK(operatorNotes(s)
        == std::vector<std::string> {
            "rate of p: 2 per second", "rate of p: 0 per second", "processing time of q's consumers: 4s" });
}

TEST_CASE("producer rate: a producer its scenario ended shows 0 and sends again at a rate the user sets", "[operator]")
{
    // Ten messages at 1 a second (0 to 9 s), and one that stops at 5 s: after them both show 0 per second.
    Simulation s(test::scenarioFrom(R"({"duration": "20s", "queues": [{"name": "q"}],
        "producers": [{"name": "counted", "queue": "q", "rate": 1, "count": 10},
                      {"name": "stopped", "queue": "q", "rate": 2, "stop": "5s"}]})"));
    s.advanceTo(4000);
    CHECK(s.producerRate(0) == 1);
    CHECK(s.producerRate(1) == 2);
    s.advanceTo(30000);
    CHECK(sentCount(s) == 10 + 10); // 0..9 s; 0, 0.5, ..., 4.5 s
    CHECK(s.producerRate(0) == 0);
    CHECK(s.producerRate(1) == 0);
    // Past its script the user sets 0.5 a second: it sends, at 32 s, 34 s, ... (its count and stop were the script's).
    REQUIRE(s.setProducerRate(0, 0.5));
    CHECK(s.producerRate(0) == 0.5);
    s.advanceTo(40000);
    CHECK(sentCount(s) == 20 + 5);
    REQUIRE(s.setProducerRate(1, 1));
    s.advanceTo(45000);
    CHECK(sentCount(s) == 25 + 2 + 5); // counted at 42, 44 s; stopped at 41, ..., 45 s
}

TEST_CASE("operator notes print numbers with a '.' under a German locale", "[operator][locale]")
{
    Simulation s(test::scenarioFrom(R"({"duration": "1m", "queues": [{"name": "q"}],
        "producers": [{"name": "p", "queue": "q", "rate": 1}]})"));
    REQUIRE(std::setlocale(LC_ALL, "de_DE.UTF-8") != nullptr); // .ci/install-deps generates it
    REQUIRE(s.setProducerRate(0, 0.5));
    std::setlocale(LC_ALL, "C");
    CHECK(operatorNotes(s) == std::vector<std::string> { "rate of p: 0.5 per second" });
    // The operator, not SQS, made the change.
    const auto& log = s.engine().log();
    CHECK(log[log.size() - 1].actor == kOperatorActor);
}

TEST_CASE("queue type: a scenario turned FIFO renames its queues everywhere and back", "[scenario][operator]")
{
    const Scenario standard
        = test::scenarioFrom(R"({"queues": [{"name": "q", "deadLetter": {"queue": "dlq", "maxReceiveCount": 2}},
        {"name": "dlq"}], "producers": [{"queue": "q", "rate": 1}], "consumers": [{"queue": "q"}],
        "actions": [{"at": "5s", "purge": "q"}, {"at": "6s", "redrive": {"source": "dlq", "destination": "q"}}]})");
    auto converted = withQueueType(standard, true);
    REQUIRE(std::holds_alternative<Scenario>(converted));
    const Scenario& fifo = std::get<Scenario>(converted);
    CHECK(fifo.queues[0].name == "q.fifo");
    CHECK(fifo.queues[0].fifo);
    CHECK(*fifo.queues[0].deadLetterQueue == "dlq.fifo");
    CHECK(fifo.producers[0].queue == "q.fifo");
    CHECK(fifo.consumers[0].queue == "q.fifo");
    CHECK(fifo.actions[0].queue == "q.fifo");
    CHECK(*fifo.actions[1].destination == "q.fifo");
    auto back = withQueueType(fifo, false);
    REQUIRE(std::holds_alternative<Scenario>(back));
    CHECK(std::get<Scenario>(back).queues[1].name == "dlq");
    CHECK_FALSE(std::get<Scenario>(back).queues[1].fifo);
    Simulation run(fifo);
    run.advanceTo(3000);
    CHECK(run.engine().queueInfo(0).fifo);
}
