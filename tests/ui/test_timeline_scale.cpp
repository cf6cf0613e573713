// The timeline at scale: the lanes alive in view, the switch to density bands and back, lane orders, the still
// export of a 600,000-message run (never blank), and the consumer tiles as a compact grid.
#include "export/image_export.h"
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "timeline/compact_count.h"
#include "timeline/density_painter.h"
#include "timeline/fitting_text.h"
#include "timeline/lane_model.h"
#include "timeline/row_layout.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_view.h"
#include "window/panels/consumer_tiles.h"

#include <QFile>
#include <QImage>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QTest>
#include <variant>

using namespace lifeline;
using namespace lifeline::ui;

namespace {
scenario::Scenario load(const std::string& json)
{
    auto parsed = scenario::parseScenario(json);
    REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
    return std::get<scenario::Scenario>(parsed);
}

scenario::Scenario tenQueues()
{
    QFile file(QStringLiteral(LIFELINE_EXAMPLES_DIR "/ten-queues-at-scale.json"));
    REQUIRE(file.open(QIODevice::ReadOnly));
    return load(file.readAll().toStdString());
}

std::vector<MessageIndex> lanesListed(const RowLayout& rows)
{
    std::vector<MessageIndex> lanes;
    for (int r = 0; r < rows.totalRows(); ++r)
        if (const RowRef row = rows.rowAt(r); row.kind == LaneModel::MessageRow)
            lanes.push_back(row.id);
    return lanes;
}
} // namespace

TEST_CASE("timeline at scale: a lane enters the alive list and leaves it as the window moves", "[ui][scale]")
{
    test::application();
    // One message a second, each deleted after 2.5 s of work: lane n lives from n s to n + 2.5 s.
    sim::Simulation run(load(R"({"duration": "20s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "rate": 1}],
        "consumers": [{"name": "w", "queue": "q", "count": 4, "processing": "2500ms"}]})"));
    run.runToEnd();
    LaneModel model;
    model.setRun(&run.engine().run());
    RowLayout rows(model);
    rows.setAliveOnly(true);
    rows.arrange(10'000, 11'000, 1000);
    CHECK(lanesListed(rows) == std::vector<MessageIndex> { 8, 9, 10, 11 }); // 8 ends at 10.5 s, 11 is sent at 11 s
    rows.arrange(12'000, 13'000, 1000);
    CHECK(lanesListed(rows) == std::vector<MessageIndex> { 10, 11, 12, 13 });
    CHECK(rows.rowOfLane(8) == -1);
    CHECK(rows.rowOfLane(12) == 3); // queue row, lanes 10, 11, then 12
    // The row a lane held is found again after it left: its follower takes its place.
    const RowRef gone { LaneModel::MessageRow, 0, 9, 0 };
    CHECK(rows.rowNear(gone, 2) == 1); // lane 10, the first listed now
    rows.setAliveOnly(false);
    CHECK(lanesListed(rows).size() == 21);
}

TEST_CASE(
    "timeline at scale: more lanes than legible rows switch queues to bands - expanding lists one again", "[ui][scale]")
{
    test::application();
    // 40 messages in "busy", 3 in "quiet": bands for the busy one only, once 43 lanes are more than the rows hold.
    sim::Simulation run(load(R"({"duration": "10s", "queues": [{"name": "busy"}, {"name": "quiet"}],
        "producers": [{"queue": "busy", "bursts": [{"at": "1s", "count": 40}]},
                      {"queue": "quiet", "bursts": [{"at": "1s", "count": 3}]}]})"));
    run.runToEnd();
    LaneModel model;
    model.setRun(&run.engine().run());
    RowLayout rows(model);
    rows.arrange(0, 10'000, 43);
    CHECK_FALSE(rows.dense());
    CHECK(rows.totalRows() == 1 + 40 + 1 + 3 + 1); // queue rows, lanes, the consumers' row
    rows.arrange(0, 10'000, 42);
    REQUIRE(rows.dense());
    CHECK(rows.isBand(0));
    CHECK_FALSE(rows.isBand(1)); // 3 lanes stay lanes
    CHECK(rows.totalRows() == 1 + RowLayout::kQueueBandRows + 1 + 3 + 1);
    CHECK(rows.rowAt(1).kind == LaneModel::QueueBand);
    CHECK(rows.rowAt(3).part == 2);
    CHECK(rows.rowAt(5).kind == LaneModel::MessageRow);
    CHECK(rows.rowOfLane(0) == -1); // in the band
    rows.setExpanded(0, true);
    CHECK_FALSE(rows.isBand(0));
    CHECK(rows.rowOfLane(0) == 1);
    // The band's hover says the engine's counts: 40 visible at 5 s.
    const QString text = queueBandText(model, 0, 5'000);
    CHECK(text.startsWith(QStringLiteral("busy at ")));
    CHECK(text.contains(QStringLiteral(": 40 visible, 0 in flight, 0 delayed")));
}

TEST_CASE("timeline at scale: lane orders put the most received and the longest in the queue first", "[ui][scale]")
{
    test::application();
    // Message 3 (lane 2) fails twice before it is deleted; the others are deleted at once.
    sim::Simulation run(load(R"({"duration": "60s",
        "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 5}}],
        "producers": [{"queue": "q", "count": 4, "rate": 1, "poisonEvery": 3}],
        "consumers": [{"name": "w", "queue": "q", "processing": "100ms"}]})"));
    run.advanceTo(12'000);
    LaneModel model;
    model.setRun(&run.engine().run());
    RowLayout rows(model);
    rows.setOrder(LaneOrder::MostReceived);
    REQUIRE(run.engine().message(2).receiveCount >= 2);
    CHECK(lanesListed(rows).front() == 2);
    CHECK(rows.rowOfLane(2) == 1);
    rows.setOrder(LaneOrder::LongestInQueue);
    CHECK(lanesListed(rows).front() == 2); // still in the queue at 12 s
    rows.setOrder(LaneOrder::State);
    CHECK(lanesListed(rows).front() == 2); // the live one before the deleted ones
    rows.setOrder(LaneOrder::Sent);
    CHECK(lanesListed(rows) == std::vector<MessageIndex> { 0, 1, 2, 3 });
}

TEST_CASE("timeline at scale: the 4m..5m export of ten queues at 2000 a second has every queue's band in flight",
    "[ui][scale][export]")
{
    test::application();
    sim::Simulation run(tenQueues());
    run.runToEnd();
    REQUIRE(run.engine().messageCount() > 600'000);
    QTemporaryDir dir;
    ImageExportRequest request;
    request.path = dir.filePath(QStringLiteral("scale.png"));
    request.size = QSize(1920, 1080);
    request.from = 240'000;
    request.to = 300'000;
    request.title = QStringLiteral("Ten queues");
    REQUIRE(exportTimelineImage(run.engine().run(), request).ok());
    QImage image(request.path);
    REQUIRE(image.size() == QSize(1920, 1080));
    // Down the middle of the image: the in-flight colour in ten separate runs (one band per queue), and the
    // consumers' working colour.
    const TimelineStyle style = TimelineStyle::light();
    const QColor inFlight = style.stateColor[size_t(MessageState::InFlight)];
    int runs = 0, working = 0;
    bool inRun = false;
    for (int y = 0; y < image.height(); ++y) {
        const QColor c = image.pixelColor(960, y);
        if (c == inFlight && !inRun)
            ++runs;
        inRun = c == inFlight;
        working += c == style.working;
    }
    CHECK(runs == 10);
    CHECK(working > 50);
}

TEST_CASE(
    "timeline at scale: the view lists what is alive above 300 lanes and keeps the top lane in place", "[ui][scale]")
{
    test::application();
    sim::Simulation run(load(R"({"duration": "60s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "rate": 10}],
        "consumers": [{"name": "w", "queue": "q", "count": 2, "processing": "50ms"}]})"));
    run.advanceTo(20'000);
    LaneModel model;
    model.setRun(&run.engine().run());
    TimelineView view(&model);
    view.resize(1200, 700);
    view.setRunEnd(60'000);
    view.showWindow(0, 5); // 5 ms a pixel: about five seconds in view
    view.setFollowLive(true);
    view.setNow(run.now());
    view.grab(); // a paint: the rows are arranged
    CHECK_FALSE(view.aliveOnly()); // 201 lanes
    run.advanceTo(40'000);
    model.sync();
    view.setNow(run.now());
    view.grab();
    CHECK(view.aliveOnly()); // 401 lanes: on by itself
    // Scrolled to a lane, the view moves on: that lane stays at the top while it is listed, the five that ended
    // before the new window (half a second of sends) gone from above it.
    view.scrollRows(20);
    const int rowBefore = view.frame().firstRow; // as far down as the rows go
    const RowRef top = view.painter().rowAt(rowBefore);
    REQUIRE(top.kind == LaneModel::MessageRow);
    run.advanceTo(40'500);
    model.sync();
    view.setNow(run.now());
    view.grab();
    CHECK(view.painter().rowAt(view.frame().firstRow).id == top.id);
    CHECK(view.frame().firstRow == rowBefore - 5);
    // The user's choice holds: off stays off.
    view.setAliveOnly(false);
    view.grab();
    CHECK_FALSE(view.aliveOnly());
}

TEST_CASE("timeline at scale: 300 consumers are a compact grid by group - a click still crashes one", "[ui][scale]")
{
    test::application();
    sim::Simulation run(tenQueues());
    run.advanceTo(5'000);
    ConsumerTiles tiles;
    tiles.resize(400, 800);
    tiles.setSimulation(&run);
    REQUIRE(tiles.tiles().size() == 300);
    CHECK(tiles.compact());
    const QStringList lines = tiles.groupLines();
    REQUIRE(lines.size() == 10);
    CHECK(lines[0].startsWith(QStringLiteral("orders-worker ×30: ")));
    int working = 0, polling = 0;
    for (const auto& tile : tiles.tiles()) {
        working += tile.state == sim::ConsumerState::Working && tile.name.starts_with("orders-worker-");
        polling += tile.state == sim::ConsumerState::Polling && tile.name.starts_with("orders-worker-");
    }
    CHECK(lines[0] == QStringLiteral("orders-worker ×30: %1 working, %2 polling").arg(working).arg(polling));
    const QRect cell = tiles.tileRect(42);
    CHECK(cell.width() == 14);
    CHECK(cell.height() == 14);
    CHECK(tiles.tileRect(43).left() == cell.left() + 17);
    // Ten blocks of a line and two rows of 22 cells (6 + 10 x (18 + 2 x 17 + 6)), not 150 rows of tiles.
    CHECK(tiles.heightForWidth(400) == 586);
    QTest::mouseClick(&tiles, Qt::LeftButton, {}, cell.center());
    CHECK(tiles.tiles()[42].state == sim::ConsumerState::Crashed);
    CHECK(tiles.groupLines()[1].endsWith(QStringLiteral(", 1 crashed")));
}

TEST_CASE("timeline at scale: a Lambda mapping's grid says how many pollers it has not scaled up to yet",
    "[ui][scale][lambda]")
{
    test::application();
    // Lesson 33: 600 orders at 10 s; five pollers, then one more every 200 ms.
    const auto* lesson = teach::findLesson("lambda-provisioned-mode");
    REQUIRE(lesson);
    sim::Simulation run(lesson->scenario);
    ConsumerTiles tiles;
    tiles.resize(400, 800);
    tiles.setSimulation(&run);
    run.advanceTo(9'000);
    tiles.sync();
    REQUIRE(tiles.groupLines().size() == 1);
    CHECK(tiles.groupLines()[0] == QStringLiteral("take-order/poller ×100: 0 working, 5 polling, 95 not yet started"));
    run.advanceTo(12'000);
    tiles.sync();
    CHECK(tiles.groupLines()[0] == QStringLiteral("take-order/poller ×100: 15 working, 0 polling, 85 not yet started"));
}

TEST_CASE(
    "timeline at scale: zoomed in past the buckets a band counts its lanes - the engine's counters at each instant",
    "[ui][scale]")
{
    test::application();
    const auto scenario = load(R"({"duration": "30s", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 2}}],
        "producers": [{"queue": "q", "rate": 4, "delaySeconds": 1}],
        "consumers": [{"name": "w", "queue": "q", "count": 3, "processing": {"uniform": ["200ms", "3s"]},
                       "failureProbability": 0.3}]})");
    // The counters as the engine has them at instants between 9 s and 12 s.
    sim::Simulation stepped(scenario);
    std::vector<std::pair<TimeMs, QueueCounters>> seen;
    for (TimeMs t = 9'000; t <= 12'000; t += 125) {
        stepped.advanceTo(t);
        seen.emplace_back(t, stepped.engine().counters("q").value());
    }
    sim::Simulation run(scenario);
    run.advanceTo(20'000);
    LaneModel model;
    model.setRun(&run.engine().run());
    RowLayout rows(model);
    rows.setAliveOnly(true);
    rows.arrange(9'000, 12'000, 1000);
    TimeAxis axis;
    axis.start = 9'000;
    axis.msPerPixel = 1; // a column a millisecond
    axis.left = 0;
    const auto columns = laneColumns(model, rows.listedLanes(0), axis, 0, 3'000, run.now());
    REQUIRE(columns.size() == 3'001);
    for (const auto& [t, counters] : seen) {
        const BandColumn& c = columns[size_t(t - 9'000)];
        INFO("at " << t);
        CHECK(c.visible == counters.visible);
        CHECK(c.inFlight == counters.inFlight);
        CHECK(c.delayed == counters.delayed);
    }
}

TEST_CASE(
    "timeline at scale: a queue band's count too wide for its header shows three digits and a unit", "[ui][scale]")
{
    CHECK(ui::compactCount(0) == QStringLiteral("0"));
    CHECK(ui::compactCount(999) == QStringLiteral("999"));
    CHECK(ui::compactCount(1000) == QStringLiteral("1.00K"));
    CHECK(ui::compactCount(12345) == QStringLiteral("12.3K"));
    CHECK(ui::compactCount(999499) == QStringLiteral("999K"));
    CHECK(ui::compactCount(999999) == QStringLiteral("1.00M")); // not "1000K"
    CHECK(ui::compactCount(1080613) == QStringLiteral("1.08M"));
    CHECK(ui::compactCount(86400000) == QStringLiteral("86.4M"));
    CHECK(ui::compactCount(3600000000ULL) == QStringLiteral("3.60G"));
}

TEST_CASE("timeline at scale: a band's header takes its longest form that fits, never a cut one while a form fits",
    "[ui][scale]")
{
    test::application();
    const QFontMetrics metrics(QFont(QStringLiteral("DejaVu Sans"), 9));
    const std::initializer_list<QString> forms { QStringLiteral("height: 1,200 messages"),
        QStringLiteral("height: 1,200"), QStringLiteral("1,200") };
    const auto width = [&](const char* text) { return metrics.horizontalAdvance(QString::fromUtf8(text)); };
    CHECK(ui::fittingText(metrics, 400, forms) == QStringLiteral("height: 1,200 messages"));
    CHECK(ui::fittingText(metrics, width("height: 1,200 messages") - 1, forms) == QStringLiteral("height: 1,200"));
    CHECK(ui::fittingText(metrics, width("height: 1,200"), forms) == QStringLiteral("height: 1,200"));
    CHECK(ui::fittingText(metrics, width("height: 1,200") - 1, forms) == QStringLiteral("1,200"));
    // None fits: the shortest, cut to the width.
    const QString cut = ui::fittingText(metrics, width("1,2"), forms);
    CHECK(cut.endsWith(QChar(0x2026)));
    CHECK(metrics.horizontalAdvance(cut) <= width("1,2"));
}

TEST_CASE("timeline at scale: a band keeps a small tenant's lanes apart, under it, as lanes", "[ui][scale][tenants]")
{
    test::application();
    // acme's 200 jobs at 1 s, bistro's one a second from 2 s to 20 s, one slow worker: bistro's
    // jobs wait behind the flood, and are what a band must not hide.
    const auto tenants = [](const std::string& acme, const std::string& bistro, int bistroRate) {
        return load(R"({"duration": "30s", "queues": [{"name": "jobs"}],
            "producers": [{"name": "acme", "queue": "jobs", "bursts": [{"at": "1s", "count": 200}]
                           )"
            + acme + R"(, "body": "acme job {n}"},
                          {"name": "bistro", "queue": "jobs", "rate": )"
            + std::to_string(bistroRate) + R"(, "start": "2s", "stop": "20s", "body": "bistro job {n}")" + bistro
            + R"(}],
            "consumers": [{"name": "w", "queue": "jobs", "processing": "1s"}]})");
    };
    sim::Simulation run(tenants("", "", 1));
    run.advanceTo(10'500);
    LaneModel model;
    model.setRun(&run.engine().run());
    RowLayout rows(model);
    rows.arrange(0, 30'000, 60);
    REQUIRE(rows.isBand(0));
    CHECK(rows.tenantLanes(0).size() == 9); // sent at 2, 3, ..., 10 s
    // Live: the run's lanes grow in place, the ones kept apart with them, and the rows say they changed.
    run.runToEnd();
    model.sync();
    CHECK(rows.arrange(0, 30'000, 60));
    const LaneModel::Lanes& apart = rows.tenantLanes(0);
    REQUIRE(apart.size() == 18); // sends at 2, 3, ..., 19 s
    for (size_t i = 0; i < apart.size(); ++i)
        CHECK(run.engine().run().message(apart[i]).body.view() == "bistro job " + std::to_string(i + 1));
    CHECK(rows.totalRows() == 1 + RowLayout::kQueueBandRows + 18 + 1 + 1);
    CHECK(rows.rowAt(3).kind == LaneModel::QueueBand);
    CHECK(rows.rowAt(4).kind == LaneModel::MessageRow);
    CHECK(rows.rowAt(4).id == apart[0]);
    CHECK(rows.rowOfLane(apart[17]) == 21);
    CHECK(rows.rowOfLane(0) == -1); // acme's first job: in the band
    CHECK(rows.rowAt(22).kind == LaneModel::ActorGroup);
    // Expanded, the queue lists every lane again; a queue with one tenant keeps nothing apart.
    rows.setExpanded(0, true);
    CHECK(rows.tenantLanes(0).empty());
    CHECK(rows.rowOfLane(0) == 1);

    // The same tenants named by MessageGroupId: the fair queue's tenants are the ones kept apart.
    sim::Simulation grouped(tenants(R"(, "groupId": "acme")", R"(, "groupId": "bistro")", 1));
    grouped.runToEnd();
    model.setRun(&grouped.engine().run());
    RowLayout groupedRows(model);
    groupedRows.arrange(0, 30'000, 60);
    REQUIRE(groupedRows.isBand(0));
    CHECK(groupedRows.tenantLanes(0).size() == 18);
    CHECK(model.tenants().name(model.tenants().tenantOf(groupedRows.tenantLanes(0)[0])) == "bistro");

    // More small tenants' lanes than kTenantLanesAtMost: the band keeps them all.
    sim::Simulation many(tenants("", "", 4));
    many.runToEnd();
    model.setRun(&many.engine().run());
    RowLayout manyRows(model);
    manyRows.arrange(0, 30'000, 60);
    REQUIRE(manyRows.isBand(0));
    CHECK(many.engine().run().messageCount() == 200 + 72);
    CHECK(manyRows.tenantLanes(0).empty());
    CHECK(manyRows.totalRows() == 1 + RowLayout::kQueueBandRows + 1 + 1);
}

TEST_CASE("timeline at scale: a fair queue's band says its noisy groups at the instant hovered", "[ui][scale][tenants]")
{
    test::application();
    const teach::LessonEntry* lesson = teach::findLesson("fair-queues");
    REQUIRE(lesson != nullptr);
    auto fixed = scenario::applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<scenario::Scenario>(fixed));
    sim::Simulation run(std::get<scenario::Scenario>(std::move(fixed)));
    run.runToEnd();
    LaneModel model;
    model.setRun(&run.engine().run());
    // acme is noisy from 6 s to 156 s (tests/core/test_lessons.cpp): said at 60 s, not at 3 s nor at 170 s.
    CHECK(queueBandText(model, 0, 60'000)
              .contains(QStringLiteral("\nnoisy groups: 1 (acme): receives serve the quiet groups first")));
    CHECK_FALSE(queueBandText(model, 0, 3'000).contains(QStringLiteral("noisy")));
    CHECK_FALSE(queueBandText(model, 0, 170'000).contains(QStringLiteral("noisy")));
}
