// A lesson's moments in the window: pins on their rows, callouts where they cover no lane, the lesson panel's
// list, N / Shift+N; and the end of a script: the view fits the moments, the queue keeps running.
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/moment_painter.h"
#include "timeline/timeline_view.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/presenter_controller.h"
#include "window/main_window.h"
#include "window/panels/comparison_pane.h"
#include "window/panels/moment_list.h"
#include "window/runtime/live_driver.h"

#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;

namespace {

size_t countCause(const Engine& engine, Cause cause)
{
    size_t n = 0;
    for (size_t i = 0; i < engine.log().size(); ++i)
        n += engine.log()[i].cause == cause ? 1 : 0;
    return n;
}

TimeMs middleOfView(const ui::TimelineView& view)
{
    return (view.visibleFrom() + view.visibleTo()) / 2;
}

} // namespace

TEST_CASE("window: lesson 8's moments are pinned - listed - reached with N and gone with the fix", "[ui][moments]")
{
    application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("8")));
    window.driver()->pause();
    window.driver()->advanceBy(4 * 60 * 1000); // to the script's end

    const QListWidget* list = test::widget<ui::MomentList>(window, "moments");
    REQUIRE(list->count() == 3);
    CHECK(list->item(0)->text()
        == QStringLiteral("1  10s  Visible again 10 s after its receive while worker-1 is still working on it"));
    CHECK(list->item(2)->text() == QStringLiteral("3  1m15s  worker-1 takes it too: processed twice"));
    CHECK(list->isVisibleTo(&window));

    // The script ended: the view shows the action (the moments), not the idle polling after it.
    ui::TimelineView* view = test::widget<ui::TimelineView>(window, "timeline");
    CHECK_FALSE(view->followingLive());
    CHECK(view->visibleFrom() <= 10000 - 5000);
    CHECK(view->visibleTo() >= 75000 + 5000);
    CHECK(view->visibleTo() <= 120000);

    // Each moment's pin is drawn on its row in the pin colour (above the digit, inside the circle).
    const QImage shot = view->grab().toImage();
    const auto placed = view->painter().placedMoments(view->rect(), view->frame());
    REQUIRE(placed.size() == 3);
    CHECK(placed[0].row == placed[1].row); // moments 1 and 2 are on the same lane at the same instant...
    CHECK(placed[1].pin.x() - placed[0].pin.x() >= 2 * ui::kMomentPinRadius); // ...and their pins stand side by side
    for (const auto& pin : placed) {
        INFO("pin " << pin.number);
        CHECK(shot.pixelColor(int(pin.pin.x()), int(pin.pin.y()) - 6) == view->timelineStyle().mark);
    }

    // N goes to the first moment: centred on it, its lane selected; N, N, Shift+N walk the list.
    view->setFocus();
    QTest::keyClick(view, Qt::Key_N);
    CHECK(view->focusedMoment() == 1);
    // As near the middle as a view that starts at 0 s at the earliest allows.
    CHECK(view->visibleFrom() >= 0);
    CHECK(
        std::abs(middleOfView(*view) - std::max<TimeMs>(10000, (view->visibleTo() - view->visibleFrom()) / 2)) <= 1000);
    CHECK(view->selected() == window.laneModel()->moments()[0].lane);
    QTest::keyClick(view, Qt::Key_N);
    QTest::keyClick(view, Qt::Key_N);
    CHECK(view->focusedMoment() == 3);
    CHECK(std::abs(middleOfView(*view) - 75000) <= 1000);
    QTest::keyClick(view, Qt::Key_N, Qt::ShiftModifier);
    CHECK(view->focusedMoment() == 2);
    CHECK(list->currentRow() == 1);

    // A click in the list goes there too.
    const QRect third = list->visualItemRect(list->item(2));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, third.center());
    CHECK(view->focusedMoment() == 3);

    // With the fix the problem is gone, and so are its moments.
    QTest::mouseClick(test::widget<QPushButton>(window, "applyFix"), Qt::LeftButton);
    window.driver()->pause();
    window.driver()->advanceBy(4 * 60 * 1000);
    CHECK(window.laneModel()->moments().empty());
    CHECK(list->count() == 0);
    CHECK_FALSE(list->isVisibleTo(&window));
    CHECK(view->focusedMoment() == 0);
}

TEST_CASE("window: past the script's end the queue keeps running and the window says so", "[ui][moments]")
{
    application();
    ui::MainWindow window;
    window.show();
    auto parsed = scenario::parseScenario(std::string(R"({"duration": "10s", "queues": [{"name": "q"}],
        "producers": [{"name": "p", "queue": "q", "rate": 1}],
        "consumers": [{"name": "c", "queue": "q", "processing": "500ms"}]})"));
    REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
    window.openScenario(std::get<scenario::Scenario>(parsed));
    window.driver()->pause();
    window.driver()->advanceBy(9000);
    CHECK_FALSE(window.driver()->scriptEnded());
    CHECK_FALSE(test::widget<QLabel>(window, "scriptBanner")->isVisibleTo(&window));
    window.driver()->advanceBy(6000);
    CHECK(window.simulation()->now() == 15000);
    CHECK(window.driver()->scriptEnded());
    CHECK(test::widget<QLabel>(window, "scriptBanner")->isVisibleTo(&window));
    CHECK(test::widget<QLabel>(window, "scriptBanner")
              ->text()
              .startsWith(QStringLiteral("The scenario's script has ended; the queue keeps running: send messages")));
    // The producer's steady rate goes on: a message a second from 0 s to 15 s.
    CHECK(countCause(window.simulation()->engine(), Cause::Send) == 16);
    // Step goes on too.
    window.driver()->step();
    CHECK(window.simulation()->now() > 15000);
    // Restart replays from the start and plays: the banner goes, the status bar says so.
    window.restart();
    CHECK(window.simulation()->now() == 0);
    CHECK(window.driver()->playing());
    CHECK(window.statusBar()->currentMessage() == QStringLiteral("Playing again from the start."));
    CHECK_FALSE(test::widget<QLabel>(window, "scriptBanner")->isVisibleTo(&window));
    CHECK_FALSE(window.driver()->scriptEnded());
    window.driver()->pause();
}

TEST_CASE("moments: callouts go in the free space below the rows and never cover each other", "[ui][moments]")
{
    application();
    const ui::TimelineStyle style = ui::TimelineStyle::light();
    QImage image(900, 400, QImage::Format_RGB32);
    image.fill(style.background);
    QPainter p(&image);
    const QRect lanes(0, 26, 900, 374);
    const int freeTop = 26 + 5 * 18; // five rows
    std::vector<ui::PlacedMoment> moments;
    const QRect row(0, 26 + 18, 900, 18); // three moments close together on the second row
    for (int i = 0; i < 3; ++i) {
        moments.push_back({ i + 1, ui::momentPinCentre(row, 300 + 10 * i, lanes), 300.0 + 10 * i, row,
            QStringLiteral("A caption long enough to take a good part of a callout's width") });
    }
    ui::spreadPins(moments);
    // Pins never touch: at least three pixels between any two on a row.
    for (size_t i = 0; i < moments.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            CHECK(std::abs(moments[i].pin.x() - moments[j].pin.x()) >= 2 * ui::kMomentPinRadius + 3);
    const auto boxes = ui::paintMoments(p, lanes, freeTop, moments, 0, true, style);
    REQUIRE(boxes.size() == 3);
    for (size_t i = 0; i < boxes.size(); ++i) {
        CHECK(boxes[i].top() >= freeTop);
        CHECK(lanes.contains(boxes[i]));
        for (size_t j = 0; j < i; ++j)
            CHECK_FALSE(boxes[i].intersects(boxes[j]));
    }
    // With no free space, only the focused moment gets a callout when the others would cover it.
    const auto crowded = ui::paintMoments(p, lanes, lanes.bottom(), moments, 2, false, style);
    CHECK(crowded.size() == 1);
}

TEST_CASE("window: compare with the fix stacks both runs with linked zoom and the figures that differ", "[ui][moments]")
{
    application();
    ui::MainWindow window;
    window.show();
    CHECK(window.compareWithFix() == nullptr); // no lesson yet
    REQUIRE(window.lessons()->openLesson(QStringLiteral("visibility-too-short")));
    window.driver()->pause();
    ui::ComparisonPane* comparison = window.compareWithFix();
    REQUIRE(comparison != nullptr);
    CHECK(comparison->windowTitle()
        == QStringLiteral("Lesson 8: Visibility timeout shorter than processing: the same message is processed twice"
                          " - as written and with the fix"));
    CHECK(comparison->claimText()
        == QStringLiteral("As written → with the fix: duplicate processings 2 → 0 · receives 7 → 5 · empty receives "
                          "14 → 17 · longest wait from send to first receive 20 s → 10 s · longest from send to "
                          "delete 45 s → 35 s · key moments 3 → 0"));
    // Each run has its own moments: three as written, none with the fix.
    CHECK(comparison->asWrittenView()
              ->painter()
              .placedMoments(comparison->asWrittenView()->rect(), comparison->asWrittenView()->frame())
              .size()
        == 3);
    CHECK(comparison->fixedView()
              ->painter()
              .placedMoments(comparison->fixedView()->rect(), comparison->fixedView()->frame())
              .empty());
    // Zoom one: the other shows the same window.
    comparison->asWrittenView()->zoomAround(400, 2.0);
    CHECK(comparison->fixedView()->visibleFrom() == comparison->asWrittenView()->visibleFrom());
    CHECK(comparison->fixedView()->frame().axis.msPerPixel == comparison->asWrittenView()->frame().axis.msPerPixel);
    comparison->fixedView()->panPixels(-120);
    CHECK(comparison->asWrittenView()->visibleFrom() == comparison->fixedView()->visibleFrom());
    comparison->close();

    // At 1024x700 the two runs do not fit beside the lesson: they scroll below the heading, never overlapping (a
    // squeezed layout drew "With the fix" over the first run's legend), and Close stays in view.
    window.resize(1024, 700);
    QCoreApplication::processEvents();
    ui::ComparisonPane* small = window.compareWithFix();
    REQUIRE(small != nullptr);
    QCoreApplication::processEvents();
    CHECK(small->asWrittenView()->geometry().bottom() < small->fixedView()->geometry().top());
    CHECK(small->asWrittenView()->height() >= small->asWrittenView()->minimumHeight());
    const auto* close = small->findChild<QPushButton*>(QStringLiteral("closeComparison"));
    REQUIRE(close != nullptr);
    CHECK(window.rect().contains(QRect(close->mapTo(&window, QPoint(0, 0)), close->size())));
    auto* scroll = small->findChild<QScrollArea*>(QStringLiteral("comparisonScroll"));
    REQUIRE(scroll != nullptr);
    scroll->ensureWidgetVisible(small->fixedView());
    QCoreApplication::processEvents();
    CHECK(scroll->verticalScrollBar()->value() > 0); // reached by scrolling
    small->close();
}

TEST_CASE(
    "window: a 1024x700 screen gets tabbed docks and no charts - 1366x768 its tiles - a wide one the lesson's column",
    "[ui][layout]")
{
    application();
    const auto dockOf = [](const ui::MainWindow& window, const char* name) {
        return window.findChild<QDockWidget*>(QLatin1String(name));
    };
    {
        ui::MainWindow small;
        CHECK(small.minimumSizeHint().width() < 1000);
        small.resize(1000, 660);
        small.show();
        QCoreApplication::processEvents(); // the first show arranges the docks once laid out
        CHECK(small.tabifiedDockWidgets(dockOf(small, "queueDock")).contains(dockOf(small, "consumersDock")));
        CHECK(small.tabifiedDockWidgets(dockOf(small, "lessonDock")).contains(dockOf(small, "messageDock")));
        // The charts and the event log give way to the timeline (the View menu brings them back).
        CHECK_FALSE(dockOf(small, "chartsDock")->isVisible());
        CHECK_FALSE(dockOf(small, "eventLogDock")->isVisible());
        // The side columns as narrow as their controls read: the timeline more than 42 % of the window (it had 39 %).
        QCoreApplication::processEvents(); // the docks' new widths are laid out
        CHECK(small.centralWidget()->width() >= small.width() * 42 / 100);
    }
    {
        // 1366x768: short, but wide enough for the consumers' tiles (the crash buttons) beside the queue controls.
        ui::MainWindow laptop;
        laptop.resize(1366, 740);
        laptop.show();
        QCoreApplication::processEvents();
        CHECK(laptop.tabifiedDockWidgets(dockOf(laptop, "queueDock")).isEmpty());
        CHECK(dockOf(laptop, "consumersDock")->isVisible());
        CHECK(laptop.tabifiedDockWidgets(dockOf(laptop, "lessonDock")).contains(dockOf(laptop, "messageDock")));
        CHECK_FALSE(dockOf(laptop, "chartsDock")->isVisible());
    }
    ui::MainWindow wide;
    wide.resize(1440, 900);
    wide.show();
    QCoreApplication::processEvents();
    CHECK(wide.tabifiedDockWidgets(dockOf(wide, "lessonDock")).isEmpty());
    CHECK(wide.corner(Qt::BottomRightCorner) == Qt::RightDockWidgetArea);
    CHECK(dockOf(wide, "lessonDock")->height() > dockOf(wide, "messageDock")->height());
}

TEST_CASE("window: presenter mode - the timeline alone and larger - its keys - Esc leaves", "[ui][presenter]")
{
    application();
    ui::MainWindow window;
    window.resize(1440, 900);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("8")));
    window.driver()->pause();
    window.driver()->advanceBy(15000);
    const int rowHeight = test::widget<ui::TimelineView>(window, "timeline")->timelineStyle().rowHeight;
    window.presenter()->setPresenting(true);
    QApplication::setActiveWindow(&window); // the presenter's keys are the window's shortcuts
    CHECK(window.presenter()->presenting());
    CHECK(window.isFullScreen());
    CHECK_FALSE(window.menuBar()->isVisible());
    CHECK_FALSE(window.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
    CHECK(window.presenter()->clock()->isVisible());
    CHECK(window.presenter()->clock()->text() == QStringLiteral("15s"));
    CHECK(
        test::widget<ui::TimelineView>(window, "timeline")->timelineStyle().rowHeight == std::lround(rowHeight * 1.6));
    // The caption is the latest moment reached: moments 1 and 2 at 10 s.
    CHECK(window.presenter()->caption()->text() == QStringLiteral("2  worker-2 takes it too: processed twice"));
    // Right goes to the first moment; C crashes the first working consumer.
    QTest::keyClick(test::widget<ui::TimelineView>(window, "timeline"), Qt::Key_Right);
    CHECK(test::widget<ui::TimelineView>(window, "timeline")->focusedMoment() == 1);
    CHECK(window.presenter()->caption()->text().startsWith(QStringLiteral("1  Visible again 10 s after its receive")));
    QTest::keyClick(test::widget<ui::TimelineView>(window, "timeline"), Qt::Key_C);
    const auto consumers = window.simulation()->consumers();
    CHECK(consumers[0].state == sim::ConsumerState::Crashed);
    // Esc leaves: the docks and the menus come back, the rows their size.
    QTest::keyClick(test::widget<ui::TimelineView>(window, "timeline"), Qt::Key_Escape);
    CHECK_FALSE(window.presenter()->presenting());
    CHECK(window.menuBar()->isVisible());
    CHECK(window.findChild<QDockWidget*>(QStringLiteral("lessonDock"))->isVisible());
    CHECK(test::widget<ui::TimelineView>(window, "timeline")->timelineStyle().rowHeight == rowHeight);
}

TEST_CASE("window: presenter mode - Space, R, C, 1-9 and Esc work by key, and say what they did on the stage",
    "[ui][presenter]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("7")));
    ui::LiveDriver* driver = window.driver();
    driver->pause();
    driver->advanceBy(3000); // worker-1 holds order #1; worker-2 polls
    window.presenter()->setPresenting(true);
    QApplication::setActiveWindow(&window);
    auto* timeline = test::widget<ui::TimelineView>(window, "timeline");
    QLabel* notice = window.presenter()->notice();
    // Space plays and pauses, though the toolbar's Play is hidden.
    QTest::keyClick(timeline, Qt::Key_Space);
    CHECK(driver->playing());
    CHECK(notice->isVisible());
    CHECK(notice->text() == QStringLiteral("Playing"));
    QTest::keyClick(timeline, Qt::Key_Space);
    CHECK_FALSE(driver->playing());
    CHECK(notice->text() == QStringLiteral("Paused"));
    // 1-9: consumer N crashes, and again restarts; a consumer the run does not have is said so.
    QTest::keyClick(timeline, Qt::Key_2);
    CHECK(window.simulation()->consumers()[1].state == sim::ConsumerState::Crashed);
    CHECK(notice->text() == QStringLiteral("worker-2 crashed"));
    QTest::keyClick(timeline, Qt::Key_2);
    CHECK(window.simulation()->consumers()[1].state != sim::ConsumerState::Crashed);
    CHECK(notice->text() == QStringLiteral("worker-2 restarted"));
    QTest::keyClick(timeline, Qt::Key_9);
    CHECK(notice->text() == QStringLiteral("No consumer 9: this run has 2"));
    // C crashes the first working consumer; with none working it says so on the stage.
    QTest::keyClick(timeline, Qt::Key_C);
    CHECK(window.simulation()->consumers()[0].state == sim::ConsumerState::Crashed);
    CHECK(notice->text() == QStringLiteral("worker-1 crashed"));
    QTest::keyClick(timeline, Qt::Key_C);
    CHECK(notice->text() == QStringLiteral("Nothing to crash: no consumer is working"));
    // R replays from the start and plays, still presenting: the lanes come back as the clock moves.
    QTest::keyClick(timeline, Qt::Key_R);
    CHECK(window.presenter()->presenting());
    CHECK(window.isFullScreen());
    CHECK(driver->playing());
    CHECK(window.simulation()->now() == 0);
    CHECK(notice->text() == QStringLiteral("From the start"));
    driver->pause();
    driver->advanceBy(2000);
    CHECK(window.presenter()->clock()->text() == QStringLiteral("2s"));
    CHECK(timeline->painter().totalRows() >= 4); // the queue, order #1, the consumers and their two rows
    CHECK(timeline->timelineStyle().rowHeight >= 29); // 18 px × 1.6 at the least
    CHECK(timeline->isVisible());
    // Esc leaves; the notice is for the stage only.
    QTest::keyClick(timeline, Qt::Key_Escape);
    CHECK_FALSE(window.presenter()->presenting());
    CHECK_FALSE(window.presenter()->bar()->isVisible());
}
