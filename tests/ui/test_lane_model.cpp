// The lane model while a lesson runs: the lanes in their queue's group in lane order, the actors in order of first
// appearance, and one lanesChanged per sync that found something new, never a reset mid-run.
#include "test_support.h"
#include "timeline/lane_model.h"

#include <QSignalSpy>

using namespace lifeline;
using namespace lifeline::ui;

TEST_CASE(
    "lane model: groups and actors while lesson 8 runs, one signal per sync that changed something", "[ui][model]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    LaneModel model;
    model.setRun(&simulation->engine().run());
    QSignalSpy resets(&model, &LaneModel::runReset);
    QSignalSpy changes(&model, &LaneModel::lanesChanged);
    int syncs = 0;
    int quietSyncs = 0;
    for (TimeMs t = 0; t <= simulation->duration(); t += 1000) {
        const size_t eventsBefore = simulation->engine().log().size();
        simulation->advanceTo(t);
        const int before = int(changes.count());
        model.sync();
        ++syncs;
        if (simulation->engine().log().size() == eventsBefore) {
            ++quietSyncs;
            CHECK(changes.count() == before); // nothing new, nothing said
        }
        CHECK(changes.count() <= before + 1);
    }
    CHECK(resets.count() == 0);
    CHECK(quietSyncs > 0);
    CHECK(changes.count() > 0);
    CHECK(changes.count() < syncs);
    // One queue: its five lanes in lane order (a send every 10 s); the two workers (a producer has no row).
    REQUIRE(model.queueGroupCount() == 1);
    CHECK(model.lanesOfGroup(0) == LaneModel::Lanes { 0, 1, 2, 3, 4 });
    REQUIRE(model.shownActors().size() == 2);
    CHECK(model.actorName(model.shownActors()[0]) == QStringLiteral("worker-1"));
    CHECK(model.lanes().laneCount() == 5);
    // A new run resets once.
    model.setRun(&simulation->engine().run());
    CHECK(resets.count() == 1);
}

TEST_CASE("lane model: a DLQ's lanes sit in the DLQ's own group", "[ui][model]")
{
    test::application();
    const auto* lesson = teach::findLesson("poison-pill");
    auto fixed = scenario::applyFix(lesson->scenario);
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(fixed)));
    LaneModel model;
    model.setRun(&simulation.engine().run());
    simulation.runToEnd();
    model.sync();
    REQUIRE(model.queueGroupCount() == 2);
    CHECK(simulation.engine().queueInfo(1).name == "orders-dlq");
    CHECK(model.lanesOfGroup(0).size() == 4);
    REQUIRE(model.lanesOfGroup(1).size() == 1);
    CHECK(simulation.engine().message(model.lanesOfGroup(1)[0]).queue == 1);
}

TEST_CASE("lane model: a client that only short-polls still gets a lane - its receives are steps", "[ui][model]")
{
    test::application();
    Engine engine;
    REQUIRE(engine.createQueue("q").ok());
    SendMessageRequest send;
    send.queue = "q";
    send.body = "x";
    REQUIRE(engine.sendMessage(send).ok());
    ReceiveMessageRequest receive;
    receive.queue = "q";
    receive.waitTimeSeconds = 0;
    for (int client = 2; client < 7; ++client)
        engine.addActor("a client that does nothing");
    receive.actor = engine.addActor("127.0.0.1:5000 Boto3/1.26.27"); // an endpoint client: actor 7
    REQUIRE(receive.actor == 7);
    engine.advanceBy(1500);
    REQUIRE(engine.receiveMessage(receive).ok());
    LaneModel model;
    model.setRun(&engine.run());
    REQUIRE(model.shownActors() == std::vector<uint32_t> { 7 });
    CHECK(model.actorName(7) == QStringLiteral("127.0.0.1:5000 Boto3/1.26.27"));
    const auto& steps = model.lanes().actorSteps(7);
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].time == 1500);
    CHECK(steps[0].lane() == 0); // a poll of no length
}
