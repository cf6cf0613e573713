// The real main window driven offscreen as a user would: sliders, consumer tiles, the send dialog, lessons and
// their fix, the event log and the timeline in step, themes. Virtual time only: the driver is advanced by hand.
#include "lifeline/engine/engine.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/practice.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/course_progress.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/status_bar_controller.h"
#include "window/dialogs/lesson_picker.h"
#include "window/dialogs/send_message_dialog.h"
#include "window/main_window.h"
#include "window/panels/charts_panel.h"
#include "window/panels/consumer_tiles.h"
#include "window/panels/depth_chart.h"
#include "window/panels/event_log_panel.h"
#include "window/panels/glossary_links.h"
#include "window/panels/queue_controls.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTest>
#include <QTextBrowser>
#include <QTextCursor>
#include <cmath>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::scenarioFrom;

namespace {

std::string attribute(const ui::MainWindow& window, const std::string& queue, const std::string& name)
{
    return window.simulation()->engine().getQueueAttributes(queue, { name }).value().at(name);
}

size_t countCause(const Engine& engine, Cause cause)
{
    size_t n = 0;
    for (size_t i = 0; i < engine.log().size(); ++i)
        n += engine.log()[i].cause == cause ? 1 : 0;
    return n;
}

const char* kOneJob = R"({"queues": [{"name": "jobs", "attributes": {"VisibilityTimeout": 20}}],
    "producers": [{"queue": "jobs", "messages": [{"at": "0s", "body": "job"}]}],
    "consumers": [{"name": "w", "queue": "jobs", "processing": "60s"}]})";

} // namespace

TEST_CASE("window: moving the visibility slider sets the queue's VisibilityTimeout live", "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    window.show();
    ui::StopSlider* visibility = test::widget<ui::QueueControls>(window, "queueControls")->visibility();
    CHECK(visibility->value() == 20);
    // One key step right on the slider: the next stop after 20 s is 25 s.
    visibility->slider()->setFocus();
    QTest::keyClick(visibility->slider(), Qt::Key_Right);
    CHECK(attribute(window, "jobs", "VisibilityTimeout") == "25");
    CHECK(visibility->value() == 25);
    const Engine& engine = window.simulation()->engine();
    CHECK(engine.log().text(engine.log()[engine.log().size() - 2].detail) == "set VisibilityTimeout=25 on jobs");
    // On the timeline: a mark on the queue's row whose hover says what the operator did.
    const auto& notes = window.laneModel()->lanes().notes(0);
    REQUIRE(notes.size() == 1);
    ui::TimelineView* timeline = test::widget<ui::TimelineView>(window, "timeline");
    TimeAxis axis = timeline->frame().axis;
    axis.left = timeline->timelineStyle().labelWidth;
    const QPoint onMark(int(std::lround(axis.toX(engine.log()[notes[0]].time))),
        timeline->painter().rowTop(timeline->rect(), timeline->frame(), 0) + 5);
    const auto hit = timeline->painter().hit(timeline->rect(), timeline->frame(), onMark);
    REQUIRE(hit);
    CHECK(hit->text == QStringLiteral("operator at 0s\nset VisibilityTimeout=25 on jobs"));
    // Typing a value in the spin box commits it too; the slider follows to its stop.
    visibility->spinBox()->setValue(43200);
    CHECK(attribute(window, "jobs", "VisibilityTimeout") == "43200");
    CHECK(visibility->slider()->value() == visibility->slider()->maximum());
    // The DLQ switch writes a RedrivePolicy to a new dead-letter queue; off removes it.
    test::widget<ui::QueueControls>(window, "queueControls")->maxReceiveCount()->setValue(3);
    test::widget<ui::QueueControls>(window, "queueControls")->deadLetter()->setChecked(true);
    CHECK(attribute(window, "jobs", "RedrivePolicy")
        == "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:000000000000:jobs-dlq\",\"maxReceiveCount\":3}");
    test::widget<ui::QueueControls>(window, "queueControls")->deadLetter()->setChecked(false);
    CHECK(window.simulation()->engine().getQueueAttributes("jobs", { "RedrivePolicy" }).value().count("RedrivePolicy")
        == 0);
}

TEST_CASE("window: the sliders offer exactly SQS's ranges - round stops between, both ends reachable", "[ui][controls]")
{
    application();
    ui::MainWindow window;
    const auto ends = [](const ui::StopSlider* s) {
        return std::pair { s->spinBox()->minimum(), s->spinBox()->maximum() };
    };
    CHECK(ends(test::widget<ui::QueueControls>(window, "queueControls")->delay()) == std::pair { 0, 900 });
    CHECK(ends(test::widget<ui::QueueControls>(window, "queueControls")->visibility()) == std::pair { 0, 43200 });
    CHECK(ends(test::widget<ui::QueueControls>(window, "queueControls")->maxReceiveCount()) == std::pair { 1, 1000 });
    CHECK(ends(test::widget<ui::QueueControls>(window, "queueControls")->waitTime()) == std::pair { 0, 20 });
    CHECK(ui::StopSlider::stopsFor({ 0, 20 }) == std::vector { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20 });
    CHECK(ui::StopSlider::stopsFor({ 1, 1000 }).front() == 1);
    CHECK(ui::StopSlider::stopsFor({ 0, 43200 }).back() == 43200);
}

TEST_CASE("window: a delay slider change on a standard queue says it applies to new messages only", "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    test::widget<ui::QueueControls>(window, "queueControls")->delay()->spinBox()->setValue(60);
    CHECK(attribute(window, "jobs", "DelaySeconds") == "60");
    bool said = false;
    for (const QLabel* label : test::widget<ui::QueueControls>(window, "queueControls")->findChildren<QLabel*>())
        said = said || label->text() == QStringLiteral("Standard: a change applies only to messages sent from now on.");
    CHECK(said);
}

TEST_CASE("window: the processing box shows milliseconds - a drawn time's middle - its tooltip says what is drawn",
    "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(R"({"queues": [{"name": "jobs"}],
        "consumers": [{"name": "w", "queue": "jobs", "processing": {"uniform": ["5ms", "15ms"]}}]})"));
    QDoubleSpinBox* processing = test::widget<ui::QueueControls>(window, "queueControls")->processingSeconds();
    CHECK(processing->value() == Approx(0.010)); // one decimal showed this as 0.0 s
    CHECK(processing->text() == QStringLiteral("0.010 s"));
    CHECK(processing->toolTip().contains(QStringLiteral("Now drawn for each message: 5ms to 15ms")));
    processing->setValue(0.005); // the user sets it: fixed from now on, and said so
    CHECK(processing->text() == QStringLiteral("0.005 s"));
    const Engine& engine = window.simulation()->engine();
    CHECK(
        engine.log().text(engine.log()[engine.log().size() - 1].detail) == "processing time of jobs's consumers: 5ms");
    window.openScenario(scenarioFrom(kOneJob)); // a fixed time: the value itself, no word of drawing
    CHECK(processing->text() == QStringLiteral("60.000 s"));
    CHECK_FALSE(processing->toolTip().contains(QStringLiteral("drawn")));
}

TEST_CASE("window: the status bar says how much history the run holds", "[ui][status]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    window.driver()->advanceBy(2000);
    const Engine& engine = window.simulation()->engine();
    // The queue's creation, then one message: its send, its receive, the poll that returned it, its processing's start.
    // The window keeps a run of 10 minutes (a scenario's default length) whole and a minute more (View > History kept
    // says 10), and has forgotten nothing yet. The megabytes are the engine's fixed tables (the log's chunks and kind
    // table).
    CHECK(engine.messageCount() == 1);
    const QString expected = QStringLiteral("history: 1 message · 5 events (the last 11 min kept) · 0.4 MB");
    REQUIRE(engine.log().size() == 5);
    CHECK(window.historyText() == expected);
    // Beside it, the whole window's resident memory: more than the run's, as it holds the run and more.
    bool shown = false;
    for (const QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
        const QString text = label->text();
        if (!text.startsWith(expected + QStringLiteral(" · the window ")) || !text.endsWith(QStringLiteral(" MB")))
            continue;
        shown = true;
        const double windowMb = text.section(QStringLiteral(" · the window "), 1).chopped(3).toDouble();
        CHECK(windowMb > 0.4);
        CHECK(windowMb == Approx(double(ui::StatusBarController::residentBytes()) / 1e6).margin(50));
    }
    CHECK(shown);
    CHECK(engine.log().firstRetained() == 0);
    // Past the warning's threshold (lowered here to a megabyte), the window says so once a run.
    auto* status = window.findChild<ui::StatusBarController*>();
    REQUIRE(status != nullptr);
    status->setMemoryWarningBytes(1000000);
    window.driver()->advanceBy(1000);
    CHECK(window.statusText().startsWith(QStringLiteral("The window holds ")));
    CHECK(window.statusText().contains(QStringLiteral("choose a shorter View > History kept and Restart")));
    window.statusBar()->clearMessage();
    window.driver()->advanceBy(1000);
    CHECK(window.statusText().isEmpty());
}

TEST_CASE("window: clicking a consumer tile crashes it and its message returns after the timeout", "[ui][consumers]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    window.show();
    window.driver()->advanceBy(2000);
    ui::ConsumerTiles* tiles = test::widget<ui::ConsumerTiles>(window, "consumerTiles");
    REQUIRE(tiles->tiles().size() == 1);
    const MessageIndex held = tiles->tiles()[0].holding;
    REQUIRE(held != kNoMessage);
    CHECK(tiles->tiles()[0].state == sim::ConsumerState::Working);
    QTest::mouseClick(tiles, Qt::LeftButton, {}, tiles->tileRect(0).center());
    CHECK(tiles->tiles()[0].state == sim::ConsumerState::Crashed);
    CHECK(
        window.statusText() == QStringLiteral("w crashed: what it held comes back when its visibility timeout ends."));
    const Engine& engine = window.simulation()->engine();
    CHECK(engine.log()[engine.log().size() - 1].cause == Cause::ConsumerCrashed);
    window.driver()->advanceBy(17999); // received at 0 s with a 20 s timeout: still in flight at 19.999 s
    CHECK(engine.message(held).state == MessageState::InFlight);
    window.driver()->advanceBy(1);
    CHECK(engine.message(held).state == MessageState::Visible);
    CHECK(engine.message(held).receiveCount == 1);
    // Click again: it restarts, receives the message once more, with receive count + 1.
    QTest::mouseClick(tiles, Qt::LeftButton, {}, tiles->tileRect(0).center());
    window.driver()->advanceBy(100);
    CHECK(tiles->tiles()[0].state == sim::ConsumerState::Working);
    CHECK(engine.message(held).receiveCount == 2);
    // A click on the consumer's lane in the timeline crashes it too.
    ui::TimelineView* timeline = test::widget<ui::TimelineView>(window, "timeline");
    QPoint onLane;
    for (int y = 0; y < timeline->height() && onLane.isNull(); ++y) {
        const auto row = timeline->painter().rowUnder(timeline->rect(), timeline->frame(), QPoint(300, y));
        if (row && row->kind == ui::LaneModel::ActorRow && row->id == tiles->tiles()[0].actor)
            onLane = QPoint(300, y);
    }
    REQUIRE_FALSE(onLane.isNull());
    QTest::mouseClick(timeline, Qt::LeftButton, {}, onLane);
    CHECK(tiles->tiles()[0].state == sim::ConsumerState::Crashed);
    // Adding a consumer gives it a tile and a name.
    test::widget<ui::QueueControls>(window, "queueControls")->stepConsumers(1);
    CHECK(tiles->tiles().size() == 2);
    CHECK(tiles->tiles()[1].name == "w-2");
    CHECK(window.laneModel()->actorName(tiles->tiles()[1].actor) == QStringLiteral("w-2"));
}

TEST_CASE("window: a refused FIFO message timer shows SQS's text and changes nothing", "[ui][send]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(R"({"queues": [{"name": "orders.fifo", "type": "fifo",
        "attributes": {"ContentBasedDeduplication": "true"}}]})"));
    window.show();
    window.showSendDialog();
    auto* dialog = window.findChild<ui::SendMessageDialog*>();
    REQUIRE(dialog != nullptr);
    dialog->useDelay()->setChecked(true);
    dialog->delay()->setValue(5);
    const Engine& engine = window.simulation()->engine();
    const size_t messages = engine.messageCount();
    QAbstractButton* sendButton = nullptr;
    for (auto* button : dialog->findChild<QDialogButtonBox*>()->buttons())
        if (button->text() == QStringLiteral("&Send"))
            sendButton = button;
    REQUIRE(sendButton != nullptr);
    QTest::mouseClick(sendButton, Qt::LeftButton);
    const QString expected = QStringLiteral("InvalidParameterValue: Value 5 for parameter DelaySeconds is invalid. "
                                            "Reason: The request include parameter that is not valid for this queue "
                                            "type.");
    CHECK(dialog->error()->text() == expected);
    CHECK(window.statusText() == QStringLiteral("Refused: ") + expected);
    CHECK(dialog->isVisible()); // open, to fix the mistake
    CHECK(engine.messageCount() == messages);
    CHECK(countCause(engine, Cause::RequestRefused) == 1);
    // Ctrl+Enter and Shift+Enter in the body start a new line; nothing is sent.
    dialog->useDelay()->setChecked(false);
    dialog->body()->setPlainText(QStringLiteral("line 1"));
    dialog->body()->moveCursor(QTextCursor::End);
    QTest::keyClick(dialog->body(), Qt::Key_Return, Qt::ControlModifier);
    QTest::keyClicks(dialog->body(), QStringLiteral("line 2"));
    QTest::keyClick(dialog->body(), Qt::Key_Enter, Qt::ShiftModifier);
    CHECK(dialog->body()->toPlainText() == QStringLiteral("line 1\nline 2\n"));
    CHECK(engine.messageCount() == messages);
    // Without the timer it goes through, by Enter in the body, and the dialog closes.
    QTest::keyClick(dialog->body(), Qt::Key_Return);
    CHECK(engine.messageCount() == messages + 1);
    CHECK(engine.run().message(MessageIndex(messages)).body.view() == "line 1\nline 2\n");
    CHECK_FALSE(dialog->isVisible());
}

TEST_CASE("window: choosing a lesson loads it and applying the fix takes duplicates to zero", "[ui][lessons]")
{
    application();
    ui::MainWindow window;
    window.show();
    // A scenario that is no lesson has no fix: no button to offer one.
    window.openScenario(scenarioFrom(kOneJob));
    CHECK_FALSE(test::widget<QPushButton>(window, "applyFix")->isVisible());
    // Through the Lessons menu, as a user would.
    QAction* lesson8 = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Lessons"))
            for (QAction* block : menu->menu()->actions())
                if (block->menu())
                    for (QAction* item : block->menu()->actions())
                        if (item->text().endsWith(QStringLiteral("&8. Visibility timeout shorter than processing: the "
                                                                 "same message is processed twice")))
                            lesson8 = item;
    REQUIRE(lesson8 != nullptr);
    lesson8->trigger();
    window.driver()->pause();
    CHECK(window.lessons()->lessonId() == QStringLiteral("visibility-too-short"));
    CHECK(window.windowTitle().startsWith(QStringLiteral("Lifeline - Lesson 8: ")));
    CHECK(window.simulation()->scenario().lesson->id == "visibility-too-short");
    window.simulation()->runToEnd();
    CHECK(window.simulation()->duplicateProcessings() > 0);
    REQUIRE(test::widget<QPushButton>(window, "applyFix")->isEnabled());
    CHECK(test::widget<QPushButton>(window, "applyFix")->isVisible());
    QTest::mouseClick(test::widget<QPushButton>(window, "applyFix"), Qt::LeftButton);
    window.driver()->pause();
    CHECK(window.lessons()->fixApplied());
    CHECK(attribute(window, window.simulation()->scenario().queues[0].name, "VisibilityTimeout") == "60");
    window.simulation()->runToEnd();
    CHECK(window.simulation()->duplicateProcessings() == 0);
    CHECK(test::widget<QPushButton>(window, "applyFix")->text() == QStringLiteral("Back to the lesson as &written"));
    // What to watch is now the fixed run's story: the lesson's fix text, not the as-written run's.
    const auto& text = *teach::findLesson("visibility-too-short")->scenario.lesson;
    // The panel's words as written (long names such as VisibilityTimeout carry zero-width spaces to wrap at).
    const QString shown = window.lessons()->htmlShown().remove(QChar(0x200B));
    CHECK(shown.contains(QStringLiteral("(with the fix)</h3>")));
    CHECK(shown.contains(
        QStringLiteral("<b>What to watch:</b> %1").arg(QString::fromStdString(text.fix).toHtmlEscaped())));
    CHECK_FALSE(shown.contains(QString::fromStdString(text.watch).toHtmlEscaped()));
    QTest::mouseClick(test::widget<QPushButton>(window, "applyFix"), Qt::LeftButton);
    window.driver()->pause();
    CHECK_FALSE(window.lessons()->fixApplied());
    CHECK(window.lessons()->htmlShown().contains(
        QStringLiteral("<b>What to watch:</b> %1").arg(QString::fromStdString(text.watch).toHtmlEscaped())));
    // The lesson panel shows the lesson only; the quick reference cards (the limits a run cannot show, the same for
    // every lesson) are Help > Quick reference.
    CHECK_FALSE(window.lessons()->htmlShown().contains(QStringLiteral("Quick reference")));
    QAction* quickReference = nullptr;
    for (QAction* action : window.menuBar()->actions())
        if (action->menu() && action->text() == QStringLiteral("&Help"))
            for (QAction* item : action->menu()->actions())
                if (item->text() == QStringLiteral("&Quick reference"))
                    quickReference = item;
    REQUIRE(quickReference != nullptr);
    quickReference->trigger();
    CHECK(
        test::widget<QTextBrowser>(window, "quickReference")
            ->toPlainText()
            .contains(QStringLiteral("A message (body and attributes) is at most 1 MiB (1,048,576 bytes) since 2025")));
    quickReference->trigger(); // asked again: the same window
    CHECK(window.findChildren<QTextBrowser*>(QStringLiteral("quickReference")).size() == 1);
    // The lesson list holds every lesson file, under the course's six block headings, and hands back the chosen id.
    ui::LessonPicker picker(QStringLiteral("redrive"));
    int lessons = 0;
    QStringList headings;
    for (int row = 0; row < picker.list()->count(); ++row) {
        const QListWidgetItem* item = picker.list()->item(row);
        if (item->data(Qt::UserRole).toString().isEmpty())
            headings << item->text();
        else
            ++lessons;
    }
    CHECK(lessons == QDir(QStringLiteral(LIFELINE_LESSONS_DIR)).entryList({ QStringLiteral("*.json") }).size());
    CHECK(headings.size() == 6);
    CHECK(headings.front().startsWith(QStringLiteral("One message (")));
    CHECK(picker.chosenId() == QStringLiteral("redrive"));
}

TEST_CASE("course: a lesson is seen once its key moments are reached - the list, the menu and the block say so",
    "[ui][lessons]")
{
    application();
    QSettings().remove(QStringLiteral("course"));
    QSettings().remove(QStringLiteral("practice"));
    const auto headingOf = [](const ui::LessonPicker& picker, int row) { return picker.list()->item(row)->text(); };
    {
        ui::LessonPicker before;
        CHECK(headingOf(before, 0) == QStringLiteral("One message (0 of 9 seen · 0 of 19 exercises passed)"));
        CHECK(before.list()->item(1)->text() == QStringLiteral("    1. The life of a message: send, receive, delete"));
    }
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("1")));
    window.driver()->pause();
    // Its panel opens with where it sits on the path and what it builds on.
    CHECK(window.lessons()->htmlShown().contains(
        QStringLiteral("<p><i>One message, 1 of 9. Start here: one message, one consumer, from its send to its "
                       "delete.</i></p>")));
    // Its glossary links are anchors, whose definition the panel shows on them.
    CHECK(window.lessons()->htmlShown().contains(
        QStringLiteral("<a href=\"glossary:visibility-timeout\">visibility timeout</a>")));
    CHECK_FALSE(window.lessons()->htmlShown().contains(QStringLiteral("[[")));
    window.driver()->advanceBy(1000);
    CHECK_FALSE(ui::progress::lessonSeen("life-of-a-message")); // its moments are still ahead
    window.driver()->advanceBy(window.simulation()->duration());
    CHECK(ui::progress::lessonSeen("life-of-a-message"));
    ui::LessonPicker after;
    CHECK(headingOf(after, 0) == QStringLiteral("One message (1 of 9 seen · 0 of 19 exercises passed)"));
    CHECK(after.list()->item(1)->text() == QStringLiteral("✓ 1. The life of a message: send, receive, delete"));
    // The Lessons menu's block says it too, when it opens.
    QMenu* block = window.findChild<QMenu*>(QStringLiteral("courseBlock-one-message"));
    REQUIRE(block != nullptr);
    emit qobject_cast<QMenu*>(block->parent())->aboutToShow();
    CHECK(block->menuAction()->text() == QStringLiteral("&1 One message  (1 of 9 seen)"));
    CHECK(block->actions().front()->text() == QStringLiteral("✓ &1. The life of a message: send, receive, delete"));
    // An exercise passed counts in its lesson's block.
    ui::progress::markExercisePassed("crash-comes-back");
    CHECK(ui::progress::blockSummary(teach::courseBlocks().front())
        == QStringLiteral("1 of 9 seen · 1 of 19 exercises passed"));
    QSettings().remove(QStringLiteral("course"));
    QSettings().remove(QStringLiteral("practice"));
}

TEST_CASE("window: the event log and the timeline select the same message both ways", "[ui][eventlog]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    window.resize(1440, 900); // tall enough for the charts and the log (a short screen hides them)
    window.show();
    QApplication::processEvents();
    window.findChild<QAction*>(QStringLiteral("engineeringLayout"))->setChecked(true); // the log is an engineer's
    QApplication::processEvents();
    window.findChild<QDockWidget*>(QStringLiteral("chartsDock"))->raise();
    window.driver()->advanceBy(30000);
    ui::EventLogPanel* log = test::widget<ui::EventLogPanel>(window, "eventLog");
    // Behind the Charts tab it takes no rows; shown, it catches up with every event.
    REQUIRE(log->visibleRegion().isEmpty()); // Qt moves a tab behind another out of view
    CHECK(size_t(log->model()->rowCount()) < window.simulation()->engine().log().size());
    window.findChild<QDockWidget*>(QStringLiteral("eventLogDock"))->raise();
    QApplication::processEvents();
    REQUIRE_FALSE(log->visibleRegion().isEmpty());
    CHECK(size_t(log->model()->rowCount()) == window.simulation()->engine().log().size());
    // Timeline -> log.
    test::widget<ui::TimelineView>(window, "timeline")->select(0);
    const QModelIndex current = log->table()->currentIndex();
    REQUIRE(current.isValid());
    CHECK(log->model()->data(current, ui::EventLogModel::LaneRole).toUInt() == 0);
    CHECK(log->model()->data(log->model()->index(current.row(), ui::EventLogModel::Cause)).toString()
        == QStringLiteral("send"));
    // Log -> timeline: clear, then pick the row of the visibility timeout.
    test::widget<ui::TimelineView>(window, "timeline")->select(kNoMessage);
    int timeoutRow = -1;
    for (int row = 0; row < log->model()->rowCount(); ++row)
        if (log->model()->data(log->model()->index(row, ui::EventLogModel::Cause)).toString()
            == QStringLiteral("visibility-timeout"))
            timeoutRow = row;
    REQUIRE(timeoutRow >= 0);
    log->table()->selectRow(timeoutRow);
    CHECK(test::widget<ui::TimelineView>(window, "timeline")->selected() == 0);
    // The filter keeps matching rows only; "only the selected message" keeps that message's.
    log->filterText()->setText(QStringLiteral("visibility-timeout"));
    CHECK(log->model()->rowCount() == 1);
    log->filterText()->clear();
    log->onlySelected()->setChecked(true);
    for (int row = 0; row < log->model()->rowCount(); ++row)
        CHECK(log->model()->data(log->model()->index(row, 0), ui::EventLogModel::LaneRole).toUInt() == 0);
}

TEST_CASE("window: charts stay downsampled on a long run and the dark theme covers every panel", "[ui][charts]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(R"({"duration": "2h", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "rate": 2}], "consumers": [{"queue": "q", "count": 3, "processing": "1s"}]})"));
    window.show();
    window.driver()->advanceBy(2 * 3600 * 1000);
    test::widget<ui::TimelineView>(window, "timeline")->setFollowLive(false);
    test::widget<ui::TimelineView>(window, "timeline")->fitRange(0, 2 * 3600 * 1000);
    const auto counts = test::widget<ui::ChartsPanel>(window, "charts")->depthChart()->pointCounts();
    REQUIRE(counts.size() == 4);
    const size_t buckets = test::widget<ui::ChartsPanel>(window, "charts")->series().buckets().size();
    // Two points per bucket (its value held across it), and one more at "now" when the last bucket ends before it.
    CHECK(counts[0] >= 2 * buckets);
    CHECK(counts[0] <= 2 * buckets + 1);
    CHECK(counts[0] <= 1025);
    CHECK(counts[0] >= 500);
    // Ten minutes in view: only their buckets, one either side, and none past the view ("now" is far after it).
    const TimeMs bucketMs = test::widget<ui::ChartsPanel>(window, "charts")->series().bucketMs();
    test::widget<ui::TimelineView>(window, "timeline")->fitRange(3600 * 1000, 3600 * 1000 + 10 * 60 * 1000);
    const TimeMs from = test::widget<ui::TimelineView>(window, "timeline")->visibleFrom();
    const TimeMs to = test::widget<ui::TimelineView>(window, "timeline")->visibleTo();
    const size_t inView = size_t((to - from) / bucketMs);
    const size_t shown = test::widget<ui::ChartsPanel>(window, "charts")->depthChart()->pointCounts()[0];
    CHECK(shown >= 2 * inView);
    CHECK(shown <= 2 * (inView + 4));
    CHECK(shown < buckets / 4);
    window.setDarkTheme(true);
    CHECK(test::widget<ui::TimelineView>(window, "timeline")->timelineStyle().dark);
    CHECK(application().palette().color(QPalette::Window).lightness() < 80);
    window.setDarkTheme(false);
    CHECK_FALSE(test::widget<ui::TimelineView>(window, "timeline")->timelineStyle().dark);
}

TEST_CASE(
    "window: the charts are steps - a bucket's count holds across its bucket, at the time it happened", "[ui][charts]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("8")));
    window.driver()->pause();
    window.driver()->advanceBy(40000);
    auto* charts = test::widget<ui::ChartsPanel>(window, "charts");
    const TimeMs bucketMs = charts->series().bucketMs();
    // Lesson 8's first duplicate processing is at 10 s: its bucket holds 1 from its start to its end.
    const std::vector<QPointF> duplicates = charts->activityChart()->points(1);
    REQUIRE(duplicates.size() >= 4);
    bool found = false;
    for (size_t i = 0; i + 1 < duplicates.size(); ++i) {
        const QPointF a = duplicates[i], b = duplicates[i + 1];
        INFO("points " << a.x() << "," << a.y() << " and " << b.x() << "," << b.y());
        CHECK((a.x() == b.x() || a.y() == b.y())); // flat, or a jump where a bucket starts: never a slope
        if (a.y() == 1 && b.y() == 1 && a.x() <= 10.0 && b.x() > 10.0) {
            found = true;
            CHECK(b.x() - a.x() == Approx(double(bucketMs) / 1000));
        }
    }
    CHECK(found);
    for (const QPointF& p : charts->depthChart()->points(1)) // in flight: never past now (40 s)
        CHECK(p.x() <= 40.0);
    CHECK(charts->activityChart()->pointCounts().size() == 2); // no faults injected: no line for them
    // Lesson 36 injects SQS's duplicate deliveries: a third line counts them, bucket by bucket.
    REQUIRE(window.lessons()->openLesson(QStringLiteral("at-least-once")));
    window.driver()->pause();
    window.driver()->advanceBy(120000);
    REQUIRE(charts->activityChart()->pointCounts().size() == 3);
    double injected = 0;
    const std::vector<QPointF> faults = charts->activityChart()->points(2);
    for (size_t i = 0; i + 1 < faults.size(); i += 2) // a bucket is two points at its value
        injected += faults[i].y();
    CHECK(injected == double(window.session()->simulation()->summary().faultsByKind.at("duplicate")));
    CHECK(injected > 0);
}

TEST_CASE("window: a queue shared by tenants charts each tenant's dwell and the fair queue's metrics", "[ui][charts]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("28")));
    window.driver()->pause();
    window.driver()->advanceBy(60000);
    QApplication::processEvents();
    auto* charts = test::widget<ui::ChartsPanel>(window, "charts");
    // acme and bistro send to one queue: their dwell in place of the empty receives.
    CHECK(charts->activityChart()->isHidden());
    CHECK_FALSE(charts->dwellChart()->isHidden());
    CHECK_FALSE(charts->fairChart()->isHidden());
    REQUIRE(charts->dwellChart()->pointCounts().size() == 2);
    // As written, bistro's first job (sent at 10 s) has waited 50 s at 60 s: its line is at 50 there.
    double bistro = 0;
    for (const QPointF& p : charts->dwellChart()->points(1))
        if (p.x() <= 60.0)
            bistro = std::max(bistro, p.y());
    CHECK(bistro >= 49.9);
    CHECK(bistro <= 50.0 + double(charts->tenants().bucketMs()) / 1000.0);
    // No group ids: no fair queue, no noisy group.
    for (const QPointF& p : charts->fairChart()->points(0))
        CHECK(p.y() == 0);

    // One queue, one producer: the activity chart as before.
    window.openScenario(scenarioFrom(R"({"duration": "1m", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "rate": 1}], "consumers": [{"queue": "q"}]})"));
    window.driver()->advanceBy(5000);
    QApplication::processEvents();
    CHECK_FALSE(charts->activityChart()->isHidden());
    CHECK(charts->dwellChart()->isHidden());
    // Each line says which CloudWatch metric it is.
    for (const char* metric : { "ApproximateNumberOfMessagesVisible", "ApproximateNumberOfMessagesNotVisible",
             "ApproximateNumberOfMessagesDelayed", "NumberOfMessagesSent does not" })
        CHECK(charts->depthChart()->toolTip().contains(QLatin1String(metric)));
    CHECK(charts->activityChart()->toolTip().startsWith(
        QStringLiteral("Empty receives is CloudWatch's NumberOfEmptyReceives")));
}

TEST_CASE("window: the depth chart shows the run after a jump in time, however many events it held", "[ui][charts]")
{
    application();
    ui::MainWindow window;
    window.resize(1920, 1080);
    window.show();
    // Thousands of events in 5 s: a jump of virtual time brings them all in one sync.
    window.openScenario(
        scenarioFrom(R"({"duration": "5m", "queues": [{"name": "q"}], "producers": [{"queue": "q", "rate": 400}],
        "consumers": [{"queue": "q", "count": 20, "processing": "500ms"}]})"));
    window.driver()->pause();
    QApplication::processEvents();
    window.driver()->advanceBy(5000);
    QApplication::processEvents();
    auto* charts = test::widget<ui::ChartsPanel>(window, "charts");
    int peak = 0;
    for (const auto& b : charts->series().buckets())
        peak = std::max(peak, b.inFlight);
    REQUIRE(peak == 20); // 400 a second for 20 consumers: every one of them busy
    double drawn = 0;
    for (const QPointF& p : charts->depthChart()->points(1))
        drawn = std::max(drawn, p.y());
    CHECK(drawn == double(peak));
}

TEST_CASE("window: a narrow chart labels fewer seconds, never cutting them to \"1…\"", "[ui][charts]")
{
    application();
    std::unique_ptr<ui::DepthChart> chart(ui::createDepthChart(nullptr));
    const auto labels = [&](int width) {
        chart->resize(width, 160);
        chart->setTimeRange(0, 300000); // five minutes: labels of three digits
        return 300.0 / chart->timeTickInterval();
    };
    // A label every 70 px at most, over the 60 % of the width the plot takes beside the legend.
    CHECK(labels(300) <= 300 * 0.6 / 70 + 1);
    CHECK(labels(1200) == 300.0 / 50); // wide: every 50 s, eight at most
}

TEST_CASE("window: changing the queue type rebuilds the run with FIFO queues", "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(kOneJob));
    window.setQueueType(true);
    CHECK(window.simulation()->scenario().queues[0].name == "jobs.fifo");
    CHECK(window.simulation()->engine().queueInfo(0).fifo);
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->queue() == QStringLiteral("jobs.fifo"));
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->queueType()->currentIndex() == 1);
}

TEST_CASE("window: the charts shade a selected message's life - to its end once it has ended", "[ui][charts]")
{
    application();
    ui::MainWindow window;
    // One job, processed in 5 s and deleted; the run goes on to 60 s.
    window.openScenario(scenarioFrom(R"({"queues": [{"name": "jobs"}],
        "producers": [{"queue": "jobs", "messages": [{"at": "2s", "body": "job"}]}],
        "consumers": [{"name": "w", "queue": "jobs", "processing": "5s"}]})"));
    window.show();
    window.driver()->advanceBy(4000);
    test::widget<ui::TimelineView>(window, "timeline")->select(0);
    CHECK(test::widget<ui::ChartsPanel>(window, "charts")->highlight()
        == std::make_pair(TimeMs(2000), TimeMs(4000))); // alive: to now
    window.driver()->advanceBy(56000);
    test::widget<ui::TimelineView>(window, "timeline")->select(0);
    const Engine& engine = window.simulation()->engine();
    TimeMs deletedAt = -1;
    for (size_t i = 0; i < engine.log().size(); ++i)
        if (engine.log()[i].cause == Cause::Delete)
            deletedAt = engine.log()[i].time;
    REQUIRE(deletedAt > 2000);
    CHECK(deletedAt < 60000);
    CHECK(test::widget<ui::ChartsPanel>(window, "charts")->highlight()
        == std::make_pair(TimeMs(2000), deletedAt)); // to its delete, not to 60 s
}

TEST_CASE("window: the controls follow the loaded lesson - maxReceiveCount and what consumers wait", "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.show();
    // Lesson 15 (redrive): orders has a DLQ after 2 receives.
    REQUIRE(window.lessons()->openLesson(QStringLiteral("redrive")));
    window.driver()->pause();
    REQUIRE(test::widget<ui::QueueControls>(window, "queueControls")->queue() == QStringLiteral("orders"));
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->deadLetter()->isChecked());
    const int lessonMax = test::widget<ui::QueueControls>(window, "queueControls")->maxReceiveCount()->value();
    CHECK(lessonMax == int(teach::findLesson("redrive")->scenario.queues[0].maxReceiveCount));
    // Lesson 7 has no DLQ: the box shows the default again, not lesson 15's count.
    REQUIRE(window.lessons()->openLesson(QStringLiteral("consumer-crash")));
    window.driver()->pause();
    CHECK_FALSE(test::widget<ui::QueueControls>(window, "queueControls")->deadLetter()->isChecked());
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->maxReceiveCount()->value() == 5);
    // Its queue's ReceiveMessageWaitTimeSeconds is 0, but its consumers long-poll 20 s themselves.
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->waitTime()->value() == 0);
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->waitNote()->text()
        == QStringLiteral("The consumers ask for 20 s themselves: their WaitTimeSeconds wins over this default."));
}

TEST_CASE("window: the consumer and rate boxes show what a busy scenario runs, beyond what they offer to set",
    "[ui][controls]")
{
    application();
    ui::MainWindow window;
    window.openScenario(scenarioFrom(R"({"duration": "1m", "queues": [{"name": "work"}],
        "producers": [{"queue": "work", "rate": 2000}],
        "consumers": [{"name": "w", "queue": "work", "count": 100, "processing": {"uniform": ["5ms", "20ms"]}}]})"));
    window.driver()->advanceBy(100);
    // The boxes offer up to 64 consumers and 1,000 messages/s; clamped, they said 64 and 1000 while 100 and 2,000 ran.
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->consumerCount()->value() == 100);
    CHECK(test::widget<ui::QueueControls>(window, "queueControls")->producerRate()->value() == 2000.0);
    // Set by hand from there, the run follows.
    test::widget<ui::QueueControls>(window, "queueControls")->consumerCount()->setValue(80);
    int running = 0;
    for (const auto& c : window.simulation()->consumers())
        running += c.removed ? 0 : 1;
    CHECK(running == 80);
}

TEST_CASE("glossary: every lesson's and exercise's links become anchors with a definition - no brackets are left",
    "[ui][lessons]")
{
    application();
    for (const auto& lesson : teach::builtinLessons()) {
        const auto& text = *lesson.scenario.lesson;
        INFO(text.id);
        const QString html = ui::lessonHtml(QString::fromStdString(text.title), QString::fromStdString(text.idea),
            QString::fromStdString(text.watch), QString::fromStdString(text.trap), QString::fromStdString(text.fix));
        CHECK_FALSE(html.contains(QStringLiteral("[[")));
        size_t links = 0;
        for (const std::string* field : { &text.idea, &text.watch, &text.trap, &text.fix })
            for (const auto& piece : teach::textPieces(*field))
                links += piece.link ? 1 : 0;
        CHECK(size_t(html.count(QStringLiteral("<a href=\"glossary:"))) == links);
    }
    for (const auto& exercise : teach::practiceExercises()) {
        INFO(exercise.id);
        CHECK_FALSE(ui::htmlWithGlossaryLinks(exercise.question).contains(QStringLiteral("[[")));
        CHECK_FALSE(ui::withoutGlossaryLinks(exercise.hint).contains(QStringLiteral("[[")));
    }
    CHECK(ui::glossaryDefinitionHtml(QStringLiteral("glossary:in-flight"))
        == QStringLiteral("<p style=\"white-space:normal\"><b>in flight</b>: Received by a consumer and not yet "
                          "deleted: hidden from other consumers until its visibility timeout ends. "
                          "ApproximateNumberOfMessagesNotVisible counts these messages.</p>"));
    CHECK(ui::glossaryDefinitionHtml(QStringLiteral("https://example.com")).isEmpty());
    CHECK(ui::glossaryDefinitionHtml(QStringLiteral("glossary:no-such-term")).isEmpty());
}
