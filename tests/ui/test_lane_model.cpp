// The lane model while a lesson runs: QAbstractItemModelTester (fatal) watches every change, and the signals
// come in batches: one insert per group per sync, one dataChanged per run of adjacent rows, never a reset.
#include "test_support.h"
#include "timeline/lane_model.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

using namespace lifeline;
using namespace lifeline::ui;

TEST_CASE("lane model: tester-clean and batched while lesson 8 runs", "[ui][model]")
{
    test::application();
    auto simulation = test::lessonSimulation("visibility-too-short");
    LaneModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const std::vector<std::string> names = simulation->actorNames();
    model.setEngine(&simulation->engine(), names);
    QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
    QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
    int syncs = 0;
    for (TimeMs t = 0; t <= simulation->duration(); t += 1000) {
        simulation->advanceTo(t);
        model.sync();
        ++syncs;
    }
    CHECK(resets.count() == 0);
    // One queue: its five lanes came in five syncs (a send every 10 s); actors appeared in a few.
    REQUIRE(model.rowCount() == 2); // the queue's group and the actors' group
    CHECK(model.rowCount(model.index(0, 0)) == 5);
    CHECK(model.rowCount(model.actorGroup()) == 2); // the two workers (a producer has no lane of its own)
    CHECK(inserts.count() <= 5 + 2);
    CHECK(changes.count() > 0);
    CHECK(changes.count() <= syncs * 5);
    for (const auto& args : changes) {
        const auto roles = args.at(2).value<QList<int>>();
        CHECK(roles.contains(LaneModel::StateRole));
    }
    // What the model says matches the engine.
    const QModelIndex first = model.index(0, 0, model.index(0, 0));
    const auto lane = first.data(LaneModel::LaneRole).toUInt();
    CHECK(first.data(LaneModel::StateRole).toInt() == int(simulation->engine().message(lane).state));
    CHECK(first.data(LaneModel::ReceiveCountRole).toUInt() == simulation->engine().message(lane).receiveCount);
    CHECK(first.data(Qt::DisplayRole).toString().size() == 8);
    CHECK(model.index(0, 0).data(Qt::DisplayRole).toString() == QStringLiteral("reports"));
    CHECK(model.indexOfLane(lane) == first);
}

TEST_CASE("lane model: a DLQ's lanes sit in the DLQ's own group", "[ui][model]")
{
    test::application();
    const auto* lesson = sim::findLesson("poison-pill");
    auto fixed = sim::applyFix(lesson->scenario);
    sim::Simulation simulation(std::get<sim::Scenario>(std::move(fixed)));
    LaneModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setEngine(&simulation.engine());
    simulation.runToEnd();
    model.sync();
    CHECK(model.index(1, 0).data(Qt::DisplayRole).toString() == QStringLiteral("orders-dlq"));
    CHECK(model.rowCount(model.index(0, 0)) == 4);
    CHECK(model.rowCount(model.index(1, 0)) == 1);
    const QModelIndex moved = model.index(0, 0, model.index(1, 0));
    CHECK(moved.data(LaneModel::QueueRole).toInt() == 1);
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
    receive.actor = 7; // an endpoint client
    engine.advanceBy(1500);
    REQUIRE(engine.receiveMessage(receive).ok());
    std::vector<std::string> names(8, "");
    names[7] = "127.0.0.1:5000 Boto3/1.26.27";
    LaneModel model;
    model.setEngine(&engine, names);
    REQUIRE(model.rowCount(model.actorGroup()) == 1);
    CHECK(
        model.data(model.index(0, 0, model.actorGroup())).toString() == QStringLiteral("127.0.0.1:5000 Boto3/1.26.27"));
    const auto& steps = model.lanes().actorSteps(7);
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].time == 1500);
    CHECK(steps[0].lane() == 0); // a poll of no length
}
