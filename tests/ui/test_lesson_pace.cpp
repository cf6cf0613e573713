// A lesson in the window plays at a pace it can be followed, framed from 0 s to its script's end; when the script
// ends the view fits the story, unless the user has taken the view (zoomed, panned, crashed, sent, changed a setting).
#include "lifeline/teach/lessons.h"
#include "test_support.h"
#include "timeline/timeline_view.h"
#include "window/consumer_tiles.h"
#include "window/live_driver.h"
#include "window/main_window.h"

#include <QComboBox>
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
        REQUIRE(window.openLesson(QString::fromLatin1(lesson)));
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
    for (const auto& lesson : sim::builtinLessons()) {
        const TimeMs story = lesson.scenario.duration;
        const double wall = double(story) / 1000.0 / ui::LiveDriver::pacedSpeed(story);
        INFO(lesson.file << ": " << wall << " s of wall time");
        CHECK(wall >= 18);
        CHECK(wall <= 40);
    }
}

TEST_CASE(
    "pace: a lesson opens at its pace - framed from 0 s to its end - and the view stays while it plays", "[ui][pace]")
{
    application();
    LessonWindow shown("8"); // four minutes
    CHECK(test::widget<QComboBox>(shown.window, "speed")->currentText() == QStringLiteral("10×"));
    CHECK_FALSE(shown.view->followingLive());
    CHECK(shown.view->visibleFrom() == 0);
    CHECK(std::abs(shown.view->visibleTo() - 4 * 60000) <= 1000);
    const TimeMs to = shown.view->visibleTo();
    shown.window.driver()->advanceBy(60000);
    CHECK(shown.view->visibleFrom() == 0); // the now line moves across; the frame does not
    CHECK(shown.view->visibleTo() == to);
    CHECK(shown.view->frame().now == 60000);
    // A lesson of 20 minutes opens at 30×, and a user's speed is theirs until the next lesson.
    REQUIRE(shown.window.openLesson(QStringLiteral("13")));
    CHECK(test::widget<QComboBox>(shown.window, "speed")->currentText() == QStringLiteral("30×"));
    CHECK(std::abs(shown.view->visibleTo() - 20 * 60000) <= 5000);
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

TEST_CASE("pace: the view stays where the user put it - a zoom - a crash", "[ui][pace]")
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
        tiles->toggle(0); // a crash
        const TimeMs from = shown.view->visibleFrom(), to = shown.view->visibleTo();
        shown.window.driver()->advanceBy(shown.window.simulation()->duration());
        REQUIRE(shown.window.driver()->scriptEnded());
        CHECK(shown.view->visibleFrom() == from);
        CHECK(shown.view->visibleTo() == to);
    }
}
