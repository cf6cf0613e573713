// Every event names its real cause and actor, in one vocabulary shared by the CSV, the trace, the event log and the
// history (event_text.h).
#include "engine_fixture.h"
#include "lifeline/export/run_export.h"
#include "lifeline/run/event_text.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <sstream>

using namespace lifeline;
using lifeline::test::Fixture;

namespace {
std::vector<Event> eventsOf(const Engine& engine, Cause cause)
{
    std::vector<Event> out;
    for (size_t i = 0; i < engine.log().size(); ++i)
        if (engine.log()[i].cause == cause)
            out.push_back(engine.log()[i]);
    return out;
}

std::unique_ptr<sim::Simulation> run(const char* lesson, bool fixed = false)
{
    const scenario::Scenario& scenario = teach::findLesson(lesson)->scenario;
    auto simulation = std::make_unique<sim::Simulation>(
        fixed ? std::get<scenario::Scenario>(scenario::applyFix(scenario)) : scenario);
    simulation->runToEnd();
    return simulation;
}
} // namespace

TEST_CASE("actors: SQS's own transitions name SQS, the operator's changes name the operator", "[events]")
{
    auto s = run("consumer-crash");
    const RunView& crashRun = s->engine().run();
    REQUIRE(crashRun.actorName(kSqsActor) == "SQS");
    REQUIRE(crashRun.actorName(kOperatorActor) == "operator");
    const auto timeouts = eventsOf(s->engine(), Cause::VisibilityTimeout);
    REQUIRE_FALSE(timeouts.empty());
    for (const Event& e : timeouts)
        CHECK(crashRun.actorName(e.actor) == "SQS");
    for (const Event& e : eventsOf(s->engine(), Cause::Receive))
        CHECK(e.actor >= kFirstActor); // a consumer
    auto delays = run("delay-queue");
    for (const Event& e : eventsOf(delays->engine(), Cause::DelayEnded))
        CHECK(e.actor == kSqsActor);
    auto retention = run("retention");
    REQUIRE_FALSE(eventsOf(retention->engine(), Cause::Expiry).empty());
    for (const Event& e : eventsOf(retention->engine(), Cause::Expiry))
        CHECK(e.actor == kSqsActor);
}

TEST_CASE("actors: a move to the DLQ names the consumer whose receive triggered it", "[events]")
{
    auto s = run("poison-pill", true);
    const auto moves = eventsOf(s->engine(), Cause::MoveToDlq);
    REQUIRE(moves.size() == 1);
    CHECK(s->engine().run().actorName(moves[0].actor) == "worker");
    CHECK(eventDetail(s->engine().run(), moves[0]) == "to orders-dlq");
    CHECK(eventSentence(s->engine().run(), moves[0], "worker") == "moved to the DLQ orders-dlq on a receive by worker");
    const auto arrivals = eventsOf(s->engine(), Cause::ArriveFromDlqSource);
    REQUIRE(arrivals.size() == 1);
    CHECK(eventDetail(s->engine().run(), arrivals[0]) == "from orders");
}

TEST_CASE("actors: queue-level calls carry who made them", "[events]")
{
    Fixture f;
    const uint32_t client = 7;
    REQUIRE(f.engine.createQueue("q", {}, {}, client).ok());
    REQUIRE(f.engine.setQueueAttributes("q", { { "VisibilityTimeout", "5" } }, client).ok());
    REQUIRE_FALSE(f.engine.setQueueAttributes("q", { { "DelaySeconds", "901" } }, client).ok());
    REQUIRE(f.engine.purgeQueue("q", client).ok());
    REQUIRE(f.engine.deleteQueue("q", client).ok());
    for (size_t i = 0; i < f.engine.log().size(); ++i)
        CHECK(f.engine.log()[i].actor == client);
    CHECK(eventDetail(f.engine.run(), eventsOf(f.engine, Cause::RequestRefused).at(0))
        == "InvalidAttributeValue: Invalid value for the parameter DelaySeconds.");
}

TEST_CASE("events: a FIFO delay change says old -> new and who changed it", "[events]")
{
    Fixture f;
    f.create("q.fifo", { { "FifoQueue", "true" }, { "DelaySeconds", "60" }, { "ContentBasedDeduplication", "true" } });
    f.send("q.fifo", "a", {}, std::string("g"));
    REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "DelaySeconds", "10" } }, 9).ok());
    const auto changes = eventsOf(f.engine, Cause::DelayChanged);
    REQUIRE(changes.size() == 1);
    CHECK(changes[0].actor == 9);
    CHECK(changes[0].oldDelaySeconds() == 60);
    CHECK(changes[0].newDelaySeconds() == 10);
    CHECK(eventDetail(f.engine.run(), changes[0]) == "DelaySeconds 60 -> 10");
    CHECK(eventSentence(f.engine.run(), changes[0], "ops")
        == "queue delay changed from 60 s to 10 s by ops (FIFO: applies to waiting messages)");
}

TEST_CASE("events: a request that changes nothing is logged as such, with SQS's answer", "[events]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "5" } });
    f.send("q", "a");
    const auto first = f.receive("q");
    REQUIRE(f.engine.deleteMessage("q", first.at(0).receiptHandle, 3).ok());
    REQUIRE(f.engine.deleteMessage("q", first.at(0).receiptHandle, 4).ok()); // again: OK, nothing changed
    const auto none = eventsOf(f.engine, Cause::NoEffect);
    REQUIRE(none.size() == 1);
    CHECK(none[0].actor == 4);
    CHECK(none[0].noEffect() == NoEffectKind::DeleteOfEndedMessage);
    CHECK(none[0].from == MessageState::Deleted);
    CHECK(none[0].to == MessageState::Deleted);
    CHECK(eventDetail(f.engine.run(), none[0]) == "DeleteMessage OK, nothing changed: the message had already ended");

    f.send("q", "b");
    const auto second = f.receive("q");
    f.advanceSeconds(6); // its timeout ends
    REQUIRE(f.engine.changeMessageVisibility("q", second.at(0).receiptHandle, 30, 5).ok());
    const auto after = eventsOf(f.engine, Cause::NoEffect);
    REQUIRE(after.size() == 2);
    CHECK(after[1].noEffect() == NoEffectKind::VisibilityChangeAfterTimeout);
    CHECK(eventSentence(f.engine.run(), after[1], "c5")
        == "ChangeMessageVisibility OK, nothing changed: the handle's visibility timeout had already ended by c5");
    CHECK(f.counters("q") == lifeline::test::counts(1, 0, 0));
}

TEST_CASE("events: processing failures say why", "[events]")
{
    auto poison = run("poison-pill");
    const auto failures = eventsOf(poison->engine(), Cause::ProcessingFailed);
    REQUIRE_FALSE(failures.empty());
    CHECK(failures[0].failure() == FailureKind::Poison);
    CHECK(eventDetail(poison->engine().run(), failures[0]) == "poison message");
    CHECK(
        eventSentence(poison->engine().run(), failures[0], "worker") == "processing failed by worker (poison message)");
    auto parsed = scenario::parseScenario(std::string(R"({"duration": "10s",
        "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 60}}],
        "producers": [{"queue": "q", "messages": [{"at": 0, "body": "b"}]}],
        "lambdas": [{"name": "fn", "queue": "q", "timeout": "2s", "processing": "5s", "pollers": 1,
                     "concurrency": 1}]})"));
    sim::Simulation lambda(std::get<scenario::Scenario>(parsed));
    lambda.runToEnd();
    const auto lambdaFailures = eventsOf(lambda.engine(), Cause::ProcessingFailed);
    REQUIRE(lambdaFailures.size() == 1);
    CHECK(lambdaFailures[0].time == 2000);
    CHECK(eventDetail(lambda.engine().run(), lambdaFailures[0]) == "timed out");
    CHECK(lambda.engine().run().actorName(lambdaFailures[0].actor) == "fn/poller-1");
}

TEST_CASE("CSV: body, group and dedup name each message - notes come from the shared vocabulary", "[events][export]")
{
    Fixture f;
    f.create("q.fifo", { { "FifoQueue", "true" } });
    f.send("q.fifo", "order, \"42\"", {}, std::string("customer-7"), std::string("d-1"));
    f.send("q.fifo", std::string(300, 'x'), {}, std::string("g"), std::string("d-2"));
    f.receive("q.fifo");
    std::ostringstream out;
    writeEventsCsv(f.engine.run(), out);
    std::vector<std::string> rows;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);)
        rows.push_back(line);
    REQUIRE(rows.size() == f.engine.log().size() + 1);
    CHECK(rows[0] == "time_ms,queue,message_id,lane,from,to,cause,actor,note,body,group,dedup\r");
    const std::string id = f.engine.messageId(0);
    CHECK(rows[1] == "0,q.fifo,,,none,none,queue-created,operator,,,,\r");
    CHECK(rows[2] == "0,q.fifo," + id + ",0,none,visible,send,operator,,\"order, \"\"42\"\"\",customer-7,d-1\r");
    CHECK(rows[3].ends_with("," + std::string(256, 'x') + ",g,d-2\r"));
    CHECK(rows[4]
        == "0,q.fifo," + id
            + ",0,visible,in-flight,receive,operator,receive #1,\"order, \"\"42\"\"\",customer-7,d-1\r");
    CHECK(utf8Prefix("h\xC3\xA9llo", 2) == "h\xC3\xA9");
}
