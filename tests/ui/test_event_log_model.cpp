// The event log's detail column: what each actor event means, in words (the engine stores only a number).
#include "lifeline/run/event_text.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "window/panels/event_log_model.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using lifeline::test::application;

namespace {
QString detailOf(const ui::EventLogModel& model, Cause cause, int occurrence = 0)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.data(model.index(row, ui::EventLogModel::Cause)).toString() == QString::fromLatin1(toString(cause))
            && occurrence-- == 0)
            return model.data(model.index(row, ui::EventLogModel::Detail)).toString();
    }
    return QStringLiteral("<no such event>");
}
} // namespace

TEST_CASE("event log: polls, visibility changes, crashes and failures say what happened in words", "[ui][eventlog]")
{
    application();
    Engine engine;
    REQUIRE(engine.createQueue("q").ok());
    ReceiveMessageRequest receive;
    receive.queue = "q";
    receive.actor = 1;
    REQUIRE(engine.receiveMessage(receive).ok()); // empty short poll
    receive.waitTimeSeconds = 5;
    REQUIRE(engine.receiveMessage(receive)->pending); // a long poll that waits
    SendMessageRequest send;
    send.queue = "q";
    send.body = "a";
    REQUIRE(engine.sendMessage(send).ok()); // answers the long poll with one message
    const auto handle = engine.takeCompletedPolls().at(0).messages.at(0).receiptHandle;
    REQUIRE(engine.changeMessageVisibility("q", handle, 45, 1).ok());
    engine.recordActorEvent(Cause::ConsumerCrashed, 1, 0, 0, 3);
    engine.recordActorEvent(Cause::ProcessingFailed, 1, 0, kNoQueue, 1);
    engine.recordActorEvent(Cause::ProcessingStarted, 1, 0, kNoQueue, 1);

    ui::EventLogModel model;
    model.setRun(&engine.run());
    model.sync();
    CHECK(detailOf(model, Cause::PollEnded, 0) == QStringLiteral("empty receive"));
    CHECK(detailOf(model, Cause::PollStarted) == QStringLiteral("waiting (poll 1)"));
    CHECK(detailOf(model, Cause::PollEnded, 1) == QStringLiteral("1 message"));
    CHECK(detailOf(model, Cause::Receive) == QStringLiteral("receive #1"));
    CHECK(detailOf(model, Cause::VisibilityChanged) == QStringLiteral("VisibilityTimeout=45"));
    CHECK(detailOf(model, Cause::ConsumerCrashed) == QStringLiteral("held 3 messages"));
    CHECK(detailOf(model, Cause::ProcessingFailed) == QStringLiteral("poison message"));
    CHECK(detailOf(model, Cause::ProcessingStarted) == QStringLiteral("duplicate processing"));
}

TEST_CASE(
    "event log: the filter finds every event by the text it shows - a script's call and answer too", "[ui][eventlog]")
{
    application();
    Engine engine;
    REQUIRE(engine.createQueue("q").ok());
    const std::string call = "SendMessage OK: MessageId 4f1c";
    const uint32_t script = engine.addActor("checkout-script");
    engine.recordActorEvent(Cause::ScriptedCall, script, kNoMessage, 0, 0, &call);
    const std::string warning = "consumers are gone";
    engine.recordActorEvent(Cause::Warning, kSqsActor, kNoMessage, 0, 0, &warning);
    REQUIRE(engine.setQueueAttributes("q", { { "VisibilityTimeout", "70" } }).ok());

    ui::EventLogModel model;
    model.setRun(&engine.run());
    const auto rowsFor = [&](const char* text) {
        model.setFilter(QString::fromLatin1(text), kNoMessage);
        std::vector<Cause> causes;
        for (int row = 0; row < model.rowCount(); ++row)
            causes.push_back(engine.log()[model.eventAt(row)].cause);
        return causes;
    };
    CHECK(rowsFor("4F1C") == std::vector { Cause::ScriptedCall }); // the answer's text, any case
    CHECK(rowsFor("checkout") == std::vector { Cause::ScriptedCall }); // its client
    CHECK(rowsFor("gone") == std::vector { Cause::Warning });
    CHECK(rowsFor("VisibilityTimeout=70") == std::vector { Cause::AttributesChanged });
    CHECK(rowsFor("nothing like it").empty());
    CHECK(rowsFor("").size() == engine.log().size());
}

TEST_CASE("event log: every row's actor and detail are the CSV's words (one vocabulary)", "[ui][eventlog]")
{
    application();
    sim::Simulation simulation(
        std::get<scenario::Scenario>(scenario::applyFix(teach::findLesson("poison-pill")->scenario)));
    simulation.runToEnd();
    ui::EventLogModel model;
    model.setRun(&simulation.engine().run());
    const EventLog& log = simulation.engine().log();
    REQUIRE(size_t(model.rowCount()) == log.size());
    int sqsRows = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        const Event& e = log[size_t(row)];
        CHECK(model.data(model.index(row, ui::EventLogModel::Actor)).toString().toStdString()
            == simulation.engine().run().actorName(e.actor));
        CHECK(model.data(model.index(row, ui::EventLogModel::Detail)).toString().toStdString()
            == eventDetail(simulation.engine().run(), e));
        sqsRows += e.cause == Cause::VisibilityTimeout
            && model.data(model.index(row, ui::EventLogModel::Actor)).toString() == QStringLiteral("SQS");
    }
    CHECK(sqsRows > 0);
}
