// One focus rule: Space plays and pauses wherever the focus is. After typing in a spin box, Space commits what was
// typed and plays; Enter commits and gives the focus back; a focused consumer tile crashes with Enter, not Space.
#include "lifeline/engine/engine.h"
#include "lifeline/sim/simulation.h"
#include "test_support.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"
#include "window/panels/consumer_tiles.h"
#include "window/runtime/live_driver.h"

#include <QApplication>
#include <QSpinBox>
#include <QTest>

using namespace lifeline;
using lifeline::test::application;
using lifeline::test::scenarioFrom;

namespace {
const char* kTwoWorkers = R"({"duration": "2m", "queues": [{"name": "jobs", "attributes": {"VisibilityTimeout": 20}}],
    "producers": [{"name": "p", "queue": "jobs", "rate": 1}],
    "consumers": [{"name": "w", "queue": "jobs", "count": 2, "processing": "5s"}]})";

std::string visibility(const ui::MainWindow& window)
{
    return window.simulation()
        ->engine()
        .getQueueAttributes("jobs", { "VisibilityTimeout" })
        .value()
        .at("VisibilityTimeout");
}

QSpinBox* visibilityBox(ui::MainWindow& window)
{
    auto* slider = window.findChild<QWidget*>(QStringLiteral("visibilitySlider"));
    REQUIRE(slider != nullptr);
    auto* box = slider->findChild<QSpinBox*>();
    REQUIRE(box != nullptr);
    return box;
}

void typeInto(QSpinBox* box, const QString& text)
{
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
}
} // namespace

TEST_CASE("focus: after typing in a spin box, Space commits the value and plays - Enter commits and gives focus back",
    "[ui][keys][focus]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openScenario(scenarioFrom(kTwoWorkers));
    window.driver()->pause();
    QApplication::processEvents();
    auto* timeline = test::widget<ui::TimelineView>(window, "timeline");
    QSpinBox* box = visibilityBox(window);

    typeInto(box, QStringLiteral("45"));
    QTest::keyClick(box, Qt::Key_Space);
    CHECK(box->value() == 45);
    CHECK(box->text() == QStringLiteral("45 s")); // not emptied by the space
    CHECK(visibility(window) == "45");
    CHECK(window.driver()->playing());
    CHECK(timeline->hasFocus());
    QTest::keyClick(timeline, Qt::Key_Space);
    CHECK_FALSE(window.driver()->playing());

    typeInto(box, QStringLiteral("50"));
    QTest::keyClick(box, Qt::Key_Return);
    QApplication::processEvents();
    CHECK(visibility(window) == "50");
    CHECK(timeline->hasFocus());
    CHECK_FALSE(window.driver()->playing()); // Enter commits; it does not play
}

TEST_CASE(
    "focus: with a consumer tile focused, Space plays and pauses - Enter crashes the consumer", "[ui][keys][focus]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    window.openScenario(scenarioFrom(kTwoWorkers));
    window.driver()->pause();
    window.driver()->advanceBy(3000);
    auto* tiles = test::widget<ui::ConsumerTiles>(window, "consumerTiles");
    REQUIRE(tiles->tiles().size() == 2);
    QApplication::setActiveWindow(&window);
    tiles->setFocus(Qt::TabFocusReason);
    REQUIRE(tiles->hasFocus());
    QTest::keyClick(tiles, Qt::Key_Space);
    CHECK(window.driver()->playing());
    CHECK(tiles->tiles()[0].state != sim::ConsumerState::Crashed);
    QTest::keyClick(tiles, Qt::Key_Space);
    CHECK_FALSE(window.driver()->playing());
    QTest::keyClick(tiles, Qt::Key_Return);
    CHECK(tiles->tiles()[0].state == sim::ConsumerState::Crashed);
}

TEST_CASE("focus: after Restart the Queue panel shows what the run uses, not a value left typed", "[ui][keys][focus]")
{
    application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    QApplication::setActiveWindow(&window);
    window.openScenario(scenarioFrom(kTwoWorkers)); // VisibilityTimeout 20
    window.driver()->pause();
    QSpinBox* box = visibilityBox(window);
    typeInto(box, QStringLiteral("10")); // typed, not committed
    window.restart();
    window.driver()->pause();
    QApplication::processEvents();
    CHECK(visibility(window) == "20");
    CHECK(box->value() == 20);
    CHECK(box->text() == QStringLiteral("20 s"));
}
