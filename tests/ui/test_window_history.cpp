// The window's bounded history (View > History kept): a run left playing forgets what ended long enough ago, in the
// engine and in everything on screen that reads it (the lanes' index and rows, the event log's table), draws the
// forgotten part as such, and stays within a fixed memory however long it plays.
#include "lifeline/engine/engine.h"
#include "lifeline/sim/simulation.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/history_setting.h"
#include "window/controllers/status_bar_controller.h"
#include "window/main_window.h"
#include "window/panels/event_log_model.h"
#include "window/panels/event_log_panel.h"
#include "window/runtime/live_driver.h"

#include <QSettings>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::scenarioFrom;

namespace {

// 100 jobs a second, each done in 50 ms by one of 8 consumers (160 a second); one message on another queue that nobody
// receives.
const char* kBusy = R"({"duration": "1m",
    "queues": [{"name": "jobs"}, {"name": "idle"}],
    "producers": [{"queue": "idle", "messages": [{"at": "0s", "body": "waits"}]},
                  {"queue": "jobs", "rate": 100}],
    "consumers": [{"name": "w", "queue": "jobs", "count": 8, "processing": "50ms"}]})";

struct KeptMinutes {
    explicit KeptMinutes(int minutes) { QSettings().setValue(QStringLiteral("view/historyMinutes"), minutes); }
    ~KeptMinutes() { QSettings().remove(QStringLiteral("view/historyMinutes")); }
    KeptMinutes(const KeptMinutes&) = delete;
    KeptMinutes& operator=(const KeptMinutes&) = delete;
};

void playMinutes(ui::MainWindow& window, int minutes)
{
    for (int second = 0; second < minutes * 60; ++second)
        window.driver()->advanceBy(1000);
}

} // namespace

TEST_CASE(
    "window: a run kept to its last 5 minutes forgets the rest everywhere and draws it as forgotten", "[ui][history]")
{
    application();
    const KeptMinutes kept(5);
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openScenario(scenarioFrom(kBusy));
    const Engine& engine = window.simulation()->engine();
    CHECK(engine.run().historyMs() == 300'000); // the run lasts a minute: five minutes is the longer
    playMinutes(window, 12);
    const EventLog& log = engine.log();
    const LaneIndex& lanes = window.laneModel()->lanes();
    REQUIRE(log.firstRetained() > 0);
    CHECK(log.firstRetained() % 16384 == 0);
    CHECK(lanes.firstEventHeld() == log.firstRetained());
    // Forgotten up to the first held event: more than 5 minutes before now, by less than one chunk of events
    // (16,384 events at about 600 a second).
    CHECK(lanes.forgottenUntil() == log[log.firstRetained()].time);
    CHECK(lanes.forgottenUntil() <= engine.now() - 300'000);
    CHECK(lanes.forgottenUntil() > engine.now() - 300'000 - 30'000);
    // The event log's table begins with the first held event.
    ui::EventLogModel* table = test::widget<ui::EventLogPanel>(window, "eventLog")->model();
    table->sync(); // a hidden panel syncs when it is shown
    CHECK(table->eventAt(0) == log.firstRetained());
    CHECK(size_t(table->rowCount()) == log.size() - log.firstRetained());
    // The rows list no lane the index cleared; the waiting message (lane 0) is still listed, alive with no event
    // held, visible since the held history begins.
    const auto& jobs = window.laneModel()->lanesOfGroup(0);
    const auto& idle = window.laneModel()->lanesOfGroup(1);
    CHECK(std::none_of(jobs.begin(), jobs.end(), [&](MessageIndex lane) { return lanes.cleared(lane); }));
    CHECK(jobs.size() < lanes.laneCount() / 2);
    REQUIRE(idle.size() == 1);
    CHECK(lanes.lane(idle[0]).last == kForgottenEvents);
    CHECK(lanes.stateBefore(idle[0]) == MessageState::Visible);

    // Over the whole run: its hover says it has been visible since the held history began, and why no more is known.
    ui::TimelineView* timeline = test::widget<ui::TimelineView>(window, "timeline");
    timeline->setFollowLive(false);
    timeline->fitAll();
    timeline->setFilter(ui::LaneFilter { QStringLiteral("waits") });
    const QImage shot = timeline->grab().toImage();
    CHECK(!shot.isNull());
    TimeAxis axis = timeline->frame().axis;
    axis.left = timeline->timelineStyle().labelWidth;
    const int row = timeline->painter().rowOfLane(idle[0]);
    REQUIRE(row >= 0);
    const int y = timeline->painter().rowTop(timeline->rect(), timeline->frame(), row) + 5;
    const auto hit = timeline->painter().hit(
        timeline->rect(), timeline->frame(), QPoint(int(axis.toX(lanes.forgottenUntil() + 60'000)), y));
    REQUIRE(hit);
    CHECK(hit->state == MessageState::Visible);
    CHECK(hit->from == lanes.forgottenUntil());
    CHECK(hit->text.contains(QStringLiteral("which the window no longer remembers")));
    // Before it, the forgotten part: nothing to hover.
    CHECK_FALSE(timeline->painter().hit(
        timeline->rect(), timeline->frame(), QPoint(int(axis.toX(lanes.forgottenUntil() / 2)), y)));
    // The status bar says what is kept.
    CHECK(window.historyText().contains(QStringLiteral("(the last 5 min kept)")));
}

TEST_CASE("window: a run left playing keeps the same memory once its history is full", "[ui][history]")
{
    application();
    const KeptMinutes kept(5);
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kBusy));
    const Engine& engine = window.simulation()->engine();
    playMinutes(window, 8);
    const size_t engineBytes = engine.bytesUsed(), modelBytes = window.laneModel()->bytesUsed();
    playMinutes(window, 8); // 48,000 more messages
    CHECK(engine.messageCount() > 95'000);
    CHECK(engine.bytesUsed() <= engineBytes + engineBytes / 8);
    CHECK(window.laneModel()->bytesUsed() <= modelBytes + modelBytes / 8);
}

TEST_CASE("window: History kept offers its choices, remembers the one taken and applies it from the next run",
    "[ui][history]")
{
    application();
    QSettings().remove(QStringLiteral("view/historyMinutes"));
    ui::HistorySetting setting;
    CHECK(setting.minutes() == ui::HistorySetting::kDefaultMinutes);
    // A lesson of 20 minutes keeps all of it and a minute more; a run of 2 minutes, the 10 minutes chosen.
    CHECK(setting.historyMsFor(20 * 60'000) == 21 * 60'000);
    CHECK(setting.historyMsFor(2 * 60'000) == 10 * 60'000);
    setting.setMinutes(0);
    CHECK(setting.historyMsFor(2 * 60'000) == -1);
    setting.setMinutes(7); // not a choice: ignored
    CHECK(setting.minutes() == 0);
    CHECK(ui::HistorySetting().minutes() == 0); // kept in the settings
    QSettings().remove(QStringLiteral("view/historyMinutes"));
}
TEST_CASE("window: a run first shown after it forgot its start (a screenshot at 15 minutes) lists what it still knows",
    "[ui][history]")
{
    application();
    QSettings().remove(QStringLiteral("view/historyMinutes")); // the default: 10 minutes
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kBusy));
    window.driver()->advanceBy(15 * 60'000); // one step: the index reads the log only after the run forgot its start
    const Engine& engine = window.simulation()->engine();
    const LaneIndex& lanes = window.laneModel()->lanes();
    REQUIRE(engine.log().firstRetained() > 0);
    // The waiting message (lane 0) was never read by the index: what the run knows of it makes it a live lane,
    // visible since the held history begins, in its queue's group.
    CHECK(engine.message(0).queue == 1);
    CHECK(lanes.lane(0).state == MessageState::Visible);
    CHECK(lanes.lane(0).last == kForgottenEvents);
    CHECK(lanes.stateBefore(0) == MessageState::Visible);
    CHECK(window.laneModel()->lanesOfGroup(1) == ui::LaneModel::Lanes { 0 });
    std::vector<MessageIndex> alive;
    lanes.lanesAlive(engine.now() - 20'000, engine.now(), alive);
    REQUIRE(!alive.empty());
    CHECK(alive[0] == 0);
    // The jobs ended before it are cleared, in no group.
    CHECK(lanes.cleared(1));
    const auto& jobs = window.laneModel()->lanesOfGroup(0);
    CHECK(std::none_of(jobs.begin(), jobs.end(), [&](MessageIndex lane) { return lanes.cleared(lane); }));
}
