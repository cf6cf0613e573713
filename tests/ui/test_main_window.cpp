// The main window over a finished run, offscreen: it shows each live queue with its exact counters.
#include "lifeline/engine/engine.h"
#include "lifeline/io/run_file.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QTextBrowser>
#include <cstdio>

using namespace lifeline;
using lifeline::test::application;

namespace {
QString summaryText(const ui::MainWindow& window)
{
    QString all;
    for (const QLabel* label : window.findChildren<QLabel*>())
        all += label->text();
    return all;
}
} // namespace

TEST_CASE("the window lists live queues with their counters and follows the engine", "[ui]")
{
    application();
    Engine engine;
    REQUIRE(engine.createQueue("orders", { { "DelaySeconds", "5" } }).ok());
    SendMessageRequest send;
    send.queue = "orders";
    send.body = "one";
    REQUIRE(engine.sendMessage(send).ok());
    ui::MainWindow window(engine.run());
    window.show();
    CHECK(summaryText(window).contains(QStringLiteral("<p><b>orders</b><br>0 visible · 0 in flight · 1 delayed</p>")));
    engine.advanceBy(5000);
    window.refresh();
    CHECK(summaryText(window).contains(QStringLiteral("<p><b>orders</b><br>1 visible · 0 in flight · 0 delayed</p>")));
    REQUIRE(engine.deleteQueue("orders").ok());
    window.refresh();
    CHECK_FALSE(summaryText(window).contains(QStringLiteral("orders")));
    const QImage shot = window.grab().toImage();
    CHECK(shot.width() == window.width());
}

TEST_CASE("a saved run reopens in the window with the same lanes and counters", "[ui][runfile]")
{
    application();
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->runToEnd();
    const std::string path = "/tmp/lifeline-ui-test-run.lifeline";
    REQUIRE(saveRun(simulation->engine().run(), "Lesson 7", path).ok());
    auto opened = openRun(path);
    REQUIRE(opened.ok());
    ui::MainWindow window;
    window.showRecordedRun(std::move(opened).value());
    window.show();
    CHECK(window.windowTitle() == QStringLiteral("Lifeline - Lesson 7"));
    CHECK(window.laneModel()->lanesOfGroup(0).size() == 1);
    CHECK(window.laneModel()->shownActors().size() == 2);
    CHECK(summaryText(window).contains(QStringLiteral("<p><b>orders</b><br>0 visible · 0 in flight · 0 delayed</p>")));
    std::remove(path.c_str());
}

TEST_CASE("window: everything fits a 1024x700 screen (its smallest size, every dock shown)", "[ui][window]")
{
    application();
    ui::MainWindow window;
    window.show();
    // The left docks used to need 431 px for the consumers' one-line hint: 1063 px in all.
    CHECK(window.minimumSizeHint().width() <= 962); // what the window takes of 1024 px (94 %)
    CHECK(window.minimumSizeHint().height() <= 658);
}

TEST_CASE(
    "window: at 1024x700 the queue controls fit their dock's width (rows wrap below their labels)", "[ui][window]")
{
    application();
    ui::MainWindow window;
    window.resize(962, 658); // what a 1024x700 screen gives the window
    window.show();
    QApplication::processEvents();
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("queueDock"));
    REQUIRE(dock);
    auto* scroll = qobject_cast<QScrollArea*>(dock->widget());
    REQUIRE(scroll);
    // Before, the form kept every slider beside its label and the dock scrolled sideways: the values (a
    // VisibilityTimeout's "30 s", the processing time's "0.010 s") were cut at its edge.
    CHECK(scroll->width() < 400);
    CHECK(scroll->horizontalScrollBar()->maximum() == 0);
    for (auto* slider : scroll->findChildren<QSlider*>())
        if (slider->isVisible())
            CHECK(slider->width() >= 90); // still long enough to drag
}

TEST_CASE("window: a selected lane's details show its name, its MessageId and its body, short or long, escaped and cut "
          "at 200 bytes",
    "[ui]")
{
    application();
    Engine engine;
    REQUIRE(engine.createQueue("orders").ok());
    const std::string bodies[] = { "message-3600000", "<b>two</b> widgets & a receipt for them",
        std::string(150, 'a') + std::string(100, 'b') };
    for (const auto& body : bodies) {
        SendMessageRequest send;
        send.queue = "orders";
        send.body = body;
        REQUIRE(engine.sendMessage(send).ok());
    }
    ui::MainWindow window(engine.run());
    window.show();
    test::widget<ui::TimelineView>(window, "timeline")->select(0);
    CHECK(test::widget<QTextBrowser>(window, "messageDetails")
              ->toPlainText()
              .startsWith(QStringLiteral("message-3600000\n") + QString::fromStdString(engine.messageId(0))
                  + QStringLiteral("\n")));
    // The body is the name: said once.
    CHECK(test::widget<QTextBrowser>(window, "messageDetails")->toPlainText().count(QStringLiteral("message-3600000"))
        == 1);
    test::widget<ui::TimelineView>(window, "timeline")->select(1);
    CHECK(test::widget<QTextBrowser>(window, "messageDetails")
              ->toPlainText()
              .startsWith(QStringLiteral("<b>two</b> widgets & a…\n") + QString::fromStdString(engine.messageId(1))
                  + QStringLiteral("\n<b>two</b> widgets & a receipt for them\n")));
    test::widget<ui::TimelineView>(window, "timeline")->select(2);
    const QString cut = QString(150, QLatin1Char('a')) + QString(50, QLatin1Char('b'));
    CHECK(test::widget<QTextBrowser>(window, "messageDetails")
              ->toPlainText()
              .contains(QLatin1Char('\n') + cut + QLatin1Char('\n')));
}
