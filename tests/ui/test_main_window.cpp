// The main window over a finished run, offscreen: it shows each live queue with its exact counters.
#include "lifeline/engine.h"
#include "main_window.h"
#include "test_support.h"

#include <QLabel>

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
    ui::MainWindow window(engine);
    window.show();
    CHECK(summaryText(window).contains(
        QStringLiteral("<tr><td>orders</td><td align=right>0</td><td align=right>0</td><td align=right>1</td></tr>")));
    engine.advanceBy(5000);
    window.refresh();
    CHECK(summaryText(window).contains(
        QStringLiteral("<tr><td>orders</td><td align=right>1</td><td align=right>0</td><td align=right>0</td></tr>")));
    REQUIRE(engine.deleteQueue("orders").ok());
    window.refresh();
    CHECK_FALSE(summaryText(window).contains(QStringLiteral("orders")));
    const QImage shot = window.grab().toImage();
    CHECK(shot.width() == window.width());
}
