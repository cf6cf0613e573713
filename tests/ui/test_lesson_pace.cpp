// A lesson in the window plays at a pace it can be followed, its story framed as it unfolds (picture::storyFrame);
// when the script ends the view fits the story as it went, unless the user has taken the view (zoomed, panned).
#include "lifeline/picture/story_frame.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/lesson_controller.h"
#include "window/dialogs/start_page.h"
#include "window/main_window.h"
#include "window/panels/comparison_pane.h"
#include "window/panels/consumer_tiles.h"
#include "window/runtime/live_driver.h"

#include <QAction>
#include <QComboBox>
#include <QCommandLinkButton>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;

namespace {

struct LessonWindow {
    ui::MainWindow window;
    ui::TimelineView* view;

    explicit LessonWindow(const char* lesson)
    {
        window.resize(1366, 768);
        window.show();
        REQUIRE(window.lessons()->openLesson(QString::fromLatin1(lesson)));
        window.driver()->pause();
        view = test::widget<ui::TimelineView>(window, "timeline");
    }
};

} // namespace

TEST_CASE("pace: every lesson's story plays in about half a minute at the speed chosen for it", "[ui][pace]")
{
    CHECK(ui::LiveDriver::pacedSpeed(2 * 60000) == 5); // 24 s
    CHECK(ui::LiveDriver::pacedSpeed(4 * 60000) == 10); // 24 s
    CHECK(ui::LiveDriver::pacedSpeed(10 * 60000) == 30); // 20 s
    CHECK(ui::LiveDriver::pacedSpeed(20 * 60000) == 30); // 40 s
    CHECK(ui::LiveDriver::pacedSpeed(8 * 3600000) == 1000); // 29 s
    for (const auto& lesson : teach::builtinLessons()) {
        const TimeMs story = lesson.scenario.duration;
        const double wall = double(story) / 1000.0 / ui::LiveDriver::pacedSpeed(story);
        INFO(lesson.file << ": " << wall << " s of wall time");
        CHECK(wall >= 18);
        CHECK(wall <= 40);
    }
}

TEST_CASE(
    "pace: a lesson opens at its pace - its story framed in steps as it unfolds - the whole once it fits", "[ui][pace]")
{
    application();
    LessonWindow shown("8"); // four minutes; its story from 0 to 85 s, its first key moment at 10 s
    CHECK(test::widget<QComboBox>(shown.window, "speed")->currentText() == QStringLiteral("10×"));
    CHECK_FALSE(shown.view->followingLive());
    const auto near
        = [&](TimeMs a, TimeMs b) { return std::abs(a - b) <= TimeMs(shown.view->frame().axis.msPerPixel) + 1; };
    // The first step puts the first key moment at 70 %: 14,285 ms, and a twentieth of it after.
    CHECK(shown.view->visibleFrom() == 0);
    CHECK(near(shown.view->visibleTo(), 14999));
    // At 60 s the step that reaches the story's end: the whole story, a twentieth of 85 s each side (none before 0).
    shown.window.driver()->advanceBy(60000);
    CHECK(shown.view->frame().now == 60000);
    CHECK(shown.view->visibleFrom() == 0);
    CHECK(near(shown.view->visibleTo(), 85000 + 4250));
    // A lesson of 20 minutes opens at 30×, and a user's speed is theirs until the next lesson.
    REQUIRE(shown.window.lessons()->openLesson(QStringLiteral("13")));
    CHECK(test::widget<QComboBox>(shown.window, "speed")->currentText() == QStringLiteral("30×"));
}

TEST_CASE(
    "pace: when the script ends an untouched lesson's view fits its story - first send to last change", "[ui][pace]")
{
    application();
    LessonWindow shown("8");
    shown.window.driver()->advanceBy(4 * 60000);
    REQUIRE(shown.window.driver()->scriptEnded());
    // Lesson 8's story: its first send at 0 s, its last change (the fifth message deleted) at 85 s; a margin of a
    // twentieth of it on each side, none before 0 s.
    CHECK(shown.view->visibleFrom() == 0);
    CHECK(std::abs(shown.view->visibleTo() - (85000 + 4250)) <= TimeMs(shown.view->frame().axis.msPerPixel) + 1);
}

TEST_CASE("pace: the view stays where the user put it (a zoom) - a crash's story is framed with it", "[ui][pace]")
{
    application();
    {
        LessonWindow shown("8");
        shown.view->setFocus();
        QTest::keyClick(shown.view, Qt::Key_W); // zoom in
        const TimeMs from = shown.view->visibleFrom(), to = shown.view->visibleTo();
        shown.window.driver()->advanceBy(4 * 60000);
        REQUIRE(shown.window.driver()->scriptEnded());
        CHECK(shown.view->visibleFrom() == from);
        CHECK(shown.view->visibleTo() == to);
    }
    {
        LessonWindow shown("7");
        shown.window.driver()->advanceBy(3000);
        auto* tiles = test::widget<ui::ConsumerTiles>(shown.window, "consumerTiles");
        REQUIRE_FALSE(tiles->tiles().empty());
        tiles->toggle(0); // a crash: the story goes on differently, and the frame follows it
        shown.window.driver()->advanceBy(shown.window.simulation()->duration());
        REQUIRE(shown.window.driver()->scriptEnded());
        const picture::TimeSpan story = picture::storySpan(*shown.window.run());
        const TimeMs margin = picture::storyMargin(story.to - story.from);
        CHECK(shown.view->visibleFrom() == std::max<TimeMs>(0, story.from - margin));
        CHECK(
            std::abs(shown.view->visibleTo() - (story.to + margin)) <= TimeMs(shown.view->frame().axis.msPerPixel) + 1);
    }
}

TEST_CASE("pace: stop at each key moment - the run pauses on each with its caption, Space or N goes on", "[ui][pace]")
{
    application();
    LessonWindow lesson("8");
    QAction* stops = nullptr;
    for (QAction* menu : lesson.window.menuBar()->actions())
        if (menu->menu() && menu->text() == QStringLiteral("&Lessons"))
            for (QAction* item : menu->menu()->actions())
                if (item->text() == QStringLiteral("&Stop at each key moment"))
                    stops = item;
    REQUIRE(stops != nullptr);
    CHECK_FALSE(stops->isChecked()); // off unless the learner's settings say otherwise (the app's first lesson)
    stops->setChecked(true);
    auto* caption = test::widget<QLabel>(lesson.window, "momentStopCaption");
    ui::LiveDriver* driver = lesson.window.driver();
    // Playing, the run reaches lesson 8's first two moments (both at 10 s): it pauses and tells them together.
    driver->play();
    driver->advanceBy(12000);
    CHECK_FALSE(driver->playing());
    CHECK(caption->isVisible());
    CHECK_FALSE(lesson.view->frame().momentCallouts); // the caption says it once: the callouts wait
    const auto& moments = lesson.window.simulation()->summary().moments;
    REQUIRE(moments.size() >= 2);
    CHECK(caption->text()
        == QStringLiteral("1  %1\n2  %2\n(Space or N goes on)")
               .arg(QString::fromStdString(moments[0].caption), QString::fromStdString(moments[1].caption)));
    // N goes on: the caption goes, the run plays; the third moment (1m15s) stops it again.
    QTest::keyClick(lesson.view, Qt::Key_N);
    CHECK(driver->playing());
    CHECK_FALSE(caption->isVisible());
    CHECK(lesson.view->frame().momentCallouts);
    driver->advanceBy(70000);
    CHECK_FALSE(driver->playing());
    CHECK(caption->text().startsWith(QStringLiteral("3  ")));
    // Play (Space's action) goes on too; with the option off, moments pass without a stop.
    driver->play();
    CHECK_FALSE(caption->isVisible());
    stops->setChecked(false);
    lesson.window.restart();
    driver->play();
    driver->advanceBy(90000);
    CHECK(driver->playing());
    CHECK_FALSE(caption->isVisible());
}

TEST_CASE("start page: the seed's question and three doors - a door opens its lesson playing with stops, and Compare",
    "[ui][pace]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    ui::StartPage* page = window.showStartPage();
    REQUIRE(page != nullptr);
    CHECK(page->isVisible());
    CHECK(page->findChildren<QLabel*>().front()->text() == QStringLiteral("When does a message disappear, and why?"));
    // Each door says where its lesson sits on the course's path.
    const char* titles[]
        = { "Lesson 2 (One message, 3 of 9): ", "Lesson 7 (One message, 5 of 9): ", "Lesson 10 (Failures, 1 of 8): " };
    for (int i = 0; i < 3; ++i) {
        auto* door
            = test::widget<QCommandLinkButton>(*page, QStringLiteral("door%1").arg(i + 1).toLatin1().constData());
        CHECK(door->description().startsWith(QString::fromLatin1(titles[i])));
    }
    test::widget<QCommandLinkButton>(*page, "door2")->click();
    CHECK_FALSE(page->isVisible());
    CHECK(window.lessons()->lessonId() == QStringLiteral("consumer-crash"));
    CHECK(window.driver()->playing());
    window.driver()->pause();
    QAction* stops = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QStringLiteral("&Lessons"))
            for (QAction* item : menu->menu()->actions())
                if (item->text() == QStringLiteral("&Stop at each key moment"))
                    stops = item;
    REQUIRE(stops != nullptr);
    CHECK(stops->isChecked());
    CHECK(window.findChild<ui::ComparisonPane*>() != nullptr);
    // Asked again: the same page.
    CHECK(window.showStartPage() == page);
}

namespace {
// Frames of 33 ms of wall time until the script ends (or `most` frames): how many it took.
int framesToScriptEnd(ui::LiveDriver& driver, int most)
{
    int frames = 0;
    while (!driver.scriptEnded() && frames < most) {
        driver.frameAfter(33);
        ++frames;
    }
    return frames;
}
} // namespace

TEST_CASE("quiet waits: after two seconds without a change the clock runs 4 then 16 times faster, back at a change",
    "[ui][pace]")
{
    ui::QuietWaits quiet;
    CHECK(quiet.factor() == 1);
    quiet.noteFrame(0, 1990, 1999, 1, false);
    CHECK(quiet.factor() == 1);
    quiet.noteFrame(1990, 2020, 1, 1, false); // two seconds of quiet
    CHECK(quiet.factor() == 4);
    quiet.noteFrame(2020, 6000, 500, 4, false);
    quiet.noteFrame(6000, 10000, 499, 4, false);
    CHECK(quiet.factor() == 4);
    quiet.noteFrame(10000, 14000, 1, 4, false); // a second more
    CHECK(quiet.factor() == 16);
    quiet.noteFrame(14000, 30000, 33, 16, false);
    quiet.noteFrame(30000, 32000, 33, 16, true); // a change: back to the chosen speed, shown at it
    CHECK(quiet.factor() == 1);
    // One span per factor, frames that follow each other joined.
    CHECK(quiet.spans() == std::vector<ui::FastSpan> { { 2020, 14000, 4 }, { 14000, 32000, 16 } });
    quiet.noteFrame(32000, 33000, 33, 1, false);
    CHECK(quiet.spans().size() == 2);
    quiet.interrupt(); // a pause, a user's action: quiet counts again from nothing
    CHECK(quiet.factor() == 1);
    CHECK(quiet.spans().size() == 2);
    quiet.forget(); // a new run
    CHECK(quiet.spans().empty());
}

TEST_CASE(
    "quiet waits: a lesson's long waits pass faster, stop at each change, and the run is the same run", "[ui][pace]")
{
    application();
    // Lesson 13: a refused send at 0 s, then twenty quiet minutes. At 30× they would take 40 s; passed faster, 5 s.
    {
        LessonWindow shown("13");
        ui::LiveDriver* driver = shown.window.driver();
        CHECK(driver->speed() == 30);
        const int frames = framesToScriptEnd(*driver, 2000);
        CHECK(driver->scriptEnded());
        CHECK(frames * 33 <= 5500);
        REQUIRE_FALSE(driver->fastSpans().empty());
        CHECK(driver->fastSpans().back().factor == 16);
        CHECK(shown.view->frame().fastSpans == &driver->fastSpans());
        // The ruler says so, on the span and in its hover.
        const ui::FastSpan last = driver->fastSpans().back();
        const ui::TimelineFrame& frame = shown.view->frame();
        const double x = shown.view->timelineStyle().labelWidth + frame.axis.toX((last.from + last.to) / 2);
        const auto hover = shown.view->painter().hit(shown.view->rect(), frame, QPoint(int(x), 5));
        REQUIRE(hover.has_value());
        CHECK(hover->text
            == QStringLiteral("No message changed state from %1 to %2: played 16× faster")
                   .arg(QString::fromStdString(lifeline::formatDuration(last.from)),
                       QString::fromStdString(lifeline::formatDuration(last.to))));
    }
    // Lesson 2, passed with the quiet waits faster: every change is shown at the chosen speed (a span ends in the
    // frame's step that held a change, never later), and the log is the run's, event for event.
    LessonWindow faster("2");
    ui::LiveDriver* driver = faster.window.driver();
    const TimeMs step = TimeMs(33 * driver->speed());
    framesToScriptEnd(*driver, 20000);
    REQUIRE(driver->scriptEnded());
    REQUIRE_FALSE(driver->fastSpans().empty());
    const RunView& run = faster.window.simulation()->engine().run();
    for (const ui::FastSpan& span : driver->fastSpans())
        for (size_t i = 0; i < run.log().size(); ++i) {
            const Event e = run.log()[i];
            INFO("span " << span.from << " to " << span.to << " ×" << span.factor << ", change at " << e.time);
            if (e.from != e.to)
                CHECK_FALSE((e.time > span.from && e.time <= span.to - step));
        }
    LessonWindow straight("2");
    straight.window.driver()->advanceBy(straight.window.simulation()->duration());
    const RunView& same = straight.window.simulation()->engine().run();
    REQUIRE(same.log().size() == run.log().size());
    for (size_t i = 0; i < run.log().size(); ++i) {
        const Event a = run.log()[i], b = same.log()[i];
        CHECK((a.time == b.time && a.message == b.message && a.cause == b.cause && a.to == b.to));
    }
}

TEST_CASE("quiet waits: after the user crashes a consumer the clock keeps the chosen speed", "[ui][pace]")
{
    application();
    LessonWindow shown("7");
    ui::LiveDriver* driver = shown.window.driver();
    driver->advanceBy(3000);
    auto* tiles = test::widget<ui::ConsumerTiles>(shown.window, "consumerTiles");
    REQUIRE_FALSE(tiles->tiles().empty());
    tiles->toggle(0); // a crash: its message stays in flight for the timeout, and the learner watches it
    framesToScriptEnd(*driver, 20000);
    CHECK(driver->fastSpans().empty());
}

TEST_CASE("timeline: a consumer on its first long poll has its row while the poll runs", "[ui][pace]")
{
    application();
    LessonWindow shown("7"); // worker-2 starts at 1 s with a 20 s long poll that nothing answers before 30 s
    shown.window.driver()->advanceBy(9000);
    (void)shown.view->grab();
    // The queue's row and order #1's, the consumers' row, worker-1's and worker-2's.
    REQUIRE(shown.view->painter().totalRows() == 5);
    const auto row = shown.view->painter().rowAt(4);
    CHECK(row.kind == ui::LaneModel::ActorRow);
    CHECK(row.id == shown.window.simulation()->consumers()[1].actor);
}
