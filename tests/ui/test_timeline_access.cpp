// The timeline without a mouse and without sight: Up and Down move between lanes, Left and Right along the selected
// lane's events, Enter tells its story in the status bar; and the accessible table a screen reader reads (rows the
// lanes and consumers in view, cells a row's facts at the run's now), its indexes checked, its cells let go when their
// rows go. (tests/app/screen_reader.py reads the same table through AT-SPI, as Orca does.)
#include "lifeline/sim/simulation.h"
#include "test_support.h"
#include "timeline/timeline_style.h"
#include "timeline/timeline_view.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/moment_announcer.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QAccessible>
#include <QApplication>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::scenarioFrom;

namespace {
// Two orders a second apart, one worker that takes 15 s over each; the visibility timeout is 20 s.
const char* kTwoOrders = R"({"duration": "2m", "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 20}}],
    "producers": [{"name": "shop", "queue": "orders", "messages": [{"at": "1s", "label": "order #1"},
        {"at": "2s", "label": "order #2"}]}],
    "consumers": [{"name": "worker", "queue": "orders", "processing": "15s"}]})";

std::vector<std::vector<std::string>> tableText(QAccessibleTableInterface* table)
{
    std::vector<std::vector<std::string>> rows;
    for (int r = 0; r < table->rowCount(); ++r) {
        rows.emplace_back();
        for (int c = 0; c < table->columnCount(); ++c)
            rows.back().push_back(table->cellAt(r, c)->text(QAccessible::Name).toStdString());
    }
    return rows;
}

struct Shown {
    ui::MainWindow window;
    ui::TimelineView* timeline = nullptr;
    Shown()
    {
        window.resize(1366, 768);
        window.show();
        window.openScenario(scenarioFrom(kTwoOrders));
        window.driver()->pause();
        window.driver()->advanceBy(5000);
        QApplication::processEvents();
        timeline = test::widget<ui::TimelineView>(window, "timeline");
        timeline->setFocus();
        QApplication::processEvents();
    }
};
} // namespace

TEST_CASE("timeline keys: Down and Up between lanes, Right and Left along one, Enter tells its story - Right with no "
          "lane is still the window's step",
    "[ui][keys][accessibility]")
{
    application();
    Shown shown;
    ui::TimelineView* timeline = shown.timeline;
    REQUIRE(timeline->selected() == kNoMessage);
    QTest::keyClick(timeline, Qt::Key_Down);
    CHECK(timeline->selected() == 0);
    QTest::keyClick(timeline, Qt::Key_Down);
    CHECK(timeline->selected() == 1);
    QTest::keyClick(timeline, Qt::Key_Down); // the last lane: Down stays (the consumer's row is not a lane)
    CHECK(timeline->selected() == 1);
    QTest::keyClick(timeline, Qt::Key_Up);
    CHECK(timeline->selected() == 0);

    // At 5 s: order #1 received at 1 s by the worker, in flight until 21 s; order #2 waits, visible.
    QTest::keyClick(timeline, Qt::Key_Return);
    CHECK(shown.window.statusText().toStdString()
        == "order #1 in orders: in flight since 1s, received 1 time, held by worker, visible again in 16 s.");
    QTest::keyClick(timeline, Qt::Key_Down);
    QTest::keyClick(timeline, Qt::Key_Return);
    CHECK(shown.window.statusText().toStdString() == "order #2 in orders: visible since 2s, not received yet.");

    // Right with a lane selected steps along its events (the run's clock stays); Esc, then Right steps the run.
    const TimeMs now = shown.window.simulation()->now();
    QTest::keyClick(timeline, Qt::Key_Up);
    QTest::keyClick(timeline, Qt::Key_Right);
    CHECK(shown.window.simulation()->now() == now);
    QTest::keyClick(timeline, Qt::Key_Escape);
    CHECK(timeline->selected() == kNoMessage);
    QTest::keyClick(timeline, Qt::Key_Right);
    QApplication::processEvents();
    CHECK(shown.window.simulation()->now() > now);
}

TEST_CASE("timeline table: a row per lane and consumer in view, its facts at now - indexes checked, cells of a run "
          "replaced let go",
    "[ui][accessibility]")
{
    application();
    Shown shown;
    QAccessibleInterface* access = QAccessible::queryAccessibleInterface(shown.timeline);
    REQUIRE(access != nullptr);
    CHECK(access->role() == QAccessible::Table);
    CHECK(access->text(QAccessible::Name) == QStringLiteral("Timeline"));
    QAccessibleTableInterface* table = access->tableInterface();
    REQUIRE(table != nullptr);
    std::vector<std::string> headings;
    for (int c = 0; c < table->columnCount(); ++c)
        headings.push_back(table->columnDescription(c).toStdString());
    CHECK(headings == std::vector<std::string> { "Message", "Queue", "State", "Since", "Receives", "Held by", "Next" });
    CHECK(tableText(table)
        == std::vector<std::vector<std::string>> {
            { "order #1", "orders", "in flight", "1s", "1", "worker", "visible again in 16 s" },
            { "order #2", "orders", "visible", "2s", "0", "", "" },
            { "worker", "consumer", "working", "1s", "", "order #1", "" } });
    CHECK(access->childCount() == 21);
    REQUIRE(access->child(7) != nullptr);
    CHECK(access->child(7)->text(QAccessible::Name) == QStringLiteral("order #2"));
    CHECK(access->indexOfChild(access->child(7)) == 7);
    // Out of range is nothing, never a crash (Qt's own table was crashed by cellAt(-1, -1)).
    CHECK(table->cellAt(-1, -1) == nullptr);
    CHECK(table->cellAt(3, 0) == nullptr);
    CHECK(table->cellAt(0, 7) == nullptr);
    CHECK(access->child(-1) == nullptr);
    CHECK(access->child(21) == nullptr);
    CHECK(table->columnDescription(9).isEmpty());

    // Selecting a row selects its lane (the history panel follows); a consumer's row is not selectable.
    CHECK(table->selectRow(1));
    CHECK(shown.timeline->selected() == 1);
    CHECK(table->selectedRows() == QList<int> { 1 });
    CHECK_FALSE(table->selectRow(2));

    // At 22 s: the worker finished order #1 at 16 s and deleted it, then took order #2 (in flight until 36 s). A cell
    // handed out before says the new words.
    QAccessibleInterface* firstState = table->cellAt(0, 2);
    shown.window.driver()->advanceBy(17000);
    QApplication::processEvents();
    QTest::qWait(300); // the table follows the run a few times a second
    CHECK(firstState->text(QAccessible::Name) == QStringLiteral("deleted"));
    CHECK(tableText(table)
        == std::vector<std::vector<std::string>> { { "order #1", "orders", "deleted", "16s", "1", "", "" },
            { "order #2", "orders", "in flight", "16s", "1", "worker", "visible again in 14 s" },
            { "worker", "consumer", "working", "16s", "", "order #2", "" } });

    // Another run: the old cells are let go (no dangling cell), the new rows read.
    const QAccessible::Id oldCell = QAccessible::uniqueId(firstState);
    shown.window.openScenario(scenarioFrom(
        R"({"duration": "1m", "queues": [{"name": "q"}], "producers": [{"queue": "q", "messages": [{"at": "0s", "body": "hello"}]}]})"));
    shown.window.driver()->pause();
    shown.window.driver()->advanceBy(1000);
    QApplication::processEvents();
    QTest::qWait(300);
    // Its id is free (Qt may give it to another widget's interface at once), and no cell of the table holds it.
    const QAccessibleInterface* holder = QAccessible::accessibleInterface(oldCell);
    CHECK((holder == nullptr || holder->role() != QAccessible::Cell));
    CHECK(table->rowCount() == 1);
    CHECK(table->cellAt(0, 1)->text(QAccessible::Name) == QStringLiteral("q"));
}

TEST_CASE("high contrast: View - High contrast (Ctrl+Shift+H) turns the timeline and the widgets white on black - and "
          "back to the theme chosen before",
    "[ui][accessibility][contrast]")
{
    application();
    Shown shown;
    QAction* toggle = nullptr;
    for (QAction* action : shown.window.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(QStringLiteral("Ctrl+Shift+H")))
            toggle = action;
    REQUIRE(toggle != nullptr);
    CHECK(toggle->text() == QStringLiteral("&High contrast"));
    toggle->trigger();
    CHECK(shown.window.highContrast());
    CHECK(shown.timeline->timelineStyle().background == QColor(0, 0, 0));
    CHECK(shown.timeline->timelineStyle().segmentGap == 2);
    CHECK(QApplication::palette().color(QPalette::Window) == QColor(0, 0, 0));
    CHECK(QApplication::palette().color(QPalette::WindowText) == QColor(0xFF, 0xFF, 0xFF));
    shown.window.setDarkTheme(true); // the dark choice is kept under high contrast
    CHECK(shown.timeline->timelineStyle().background == QColor(0, 0, 0));
    toggle->trigger();
    CHECK_FALSE(shown.window.highContrast());
    CHECK(shown.timeline->timelineStyle().background == ui::TimelineStyle::darkTheme().background);
    shown.window.setDarkTheme(false);
    CHECK(shown.timeline->timelineStyle().background == ui::TimelineStyle::light().background);
    CHECK(QApplication::palette().color(QPalette::Window) != QColor(0, 0, 0));
}

TEST_CASE("moments said: each key moment reached becomes an alert a screen reader speaks, and the status bar's text - "
          "once a run",
    "[ui][accessibility]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("7")));
    window.driver()->pause();
    auto* announcer = window.findChild<ui::MomentAnnouncer*>();
    REQUIRE(announcer != nullptr);
    QAccessibleInterface* notice = QAccessible::queryAccessibleInterface(announcer->notice());
    REQUIRE(notice != nullptr);
    CHECK(notice->role() == QAccessible::AlertMessage);
    CHECK(announcer->lastSaid().isEmpty());
    window.driver()->advanceBy(6000);
    QApplication::processEvents();
    const std::string first = "Key moment 1 at 5s: worker-1 crashes holding the message: nobody will delete it.";
    CHECK(announcer->lastSaid().toStdString() == first);
    CHECK(notice->text(QAccessible::Name).toStdString() == first);
    CHECK(announcer->notice()->isVisible());
    CHECK(window.statusText().toStdString() == first);
    // At 30 s two moments at once: said together, in order.
    window.driver()->advanceBy(25000);
    QApplication::processEvents();
    CHECK(announcer->lastSaid().toStdString()
        == "Key moment 2 at 30s: The visibility timeout ends 30 s after the receive: the message worker-1 held is "
           "visible again. Key moment 3 at 30s: worker-2 receives it (#2).");
}
