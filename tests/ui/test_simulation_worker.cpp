// The simulation on a worker thread: the window's frames hand it a target and sync to where it is; the worker
// advances between them, holding the gate the GUI holds while it reads. The run is the same, event for event, as one
// advanced on the GUI thread. These tests wait for the worker to reach its target (a condition, not a sleep).
#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"
#include "test_support.h"
#include "timeline/lane_model.h"
#include "window/controllers/lesson_controller.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/simulation_gate.h"
#include "window/runtime/simulation_worker.h"

using namespace lifeline;
using lifeline::test::application;
using Hold = ui::SimulationGate::GuiHold;

namespace {
void requireSameEvents(const Engine& a, const Engine& b)
{
    REQUIRE(a.log().size() == b.log().size());
    for (size_t i = 0; i < a.log().size(); ++i) {
        const Event x = a.log()[i];
        const Event y = b.log()[i];
        INFO("event " << i);
        REQUIRE(std::tie(x.time, x.message, x.actor, x.detail, x.queue, x.from, x.to, x.cause)
            == std::tie(y.time, y.message, y.actor, y.detail, y.queue, y.from, y.to, y.cause));
    }
}
} // namespace

TEST_CASE("worker: frames on a worker thread play the same run as the GUI thread - event for event", "[ui][worker]")
{
    application();
    ui::MainWindow window;
    REQUIRE(window.lessons()->openLesson(QStringLiteral("poison-pill")));
    window.show();
    sim::Simulation reference(window.simulation()->scenario());
    ui::LiveDriver* driver = window.driver();
    driver->setThreaded(true);
    REQUIRE(driver->worker() != nullptr);
    for (int frame = 0; frame < 20; ++frame) {
        {
            const Hold hold; // what GatedApplication::notify does around the frame's timer event
            driver->frameTo(window.simulation()->now() + 3000);
        }
        driver->worker()->waitIdle(); // the GUI's idle time between two frames
    }
    {
        const Hold hold;
        driver->frameTo(window.simulation()->now()); // syncs the view to where the worker got
        CHECK(window.simulation()->now() == 60000);
        CHECK_FALSE(driver->lagging());
        reference.advanceTo(60000);
        requireSameEvents(window.simulation()->engine(), reference.engine());
        CHECK(window.laneModel()->lanes().laneCount() == reference.engine().messageCount());
    }
    driver->setThreaded(false);
    CHECK(driver->worker() == nullptr);
}

TEST_CASE(
    "worker: the window lags when the worker did less than half of a frame's time - given the chance", "[ui][worker]")
{
    // Asked 5 s from 10 s: at 12.4 s it did less than half, at 12.5 s half.
    CHECK(ui::LiveDriver::behind(15000, 12400, 5000, true));
    CHECK_FALSE(ui::LiveDriver::behind(15000, 12500, 5000, true));
    CHECK_FALSE(ui::LiveDriver::behind(15000, 15000, 5000, true));
    // The GUI held the gate all along (a modal dialog): not behind, however little was done.
    CHECK_FALSE(ui::LiveDriver::behind(15000, 10000, 5000, false));
    // Nothing asked (paused, or at the script's end): never behind.
    CHECK_FALSE(ui::LiveDriver::behind(10000, 10000, 0, true));
}

TEST_CASE("worker: pausing leaves it nothing to chase - the clock stays where the last frame left it", "[ui][worker]")
{
    application();
    ui::MainWindow window;
    REQUIRE(window.lessons()->openLesson(QStringLiteral("consumer-crash")));
    window.show();
    ui::LiveDriver* driver = window.driver();
    driver->setThreaded(true);
    TimeMs now = 0;
    {
        const Hold hold; // the worker cannot start before the pause: the GUI holds the gate
        now = window.simulation()->now();
        driver->frameTo(now + 3600000);
        driver->pause();
        CHECK(driver->worker()->target() == now);
    }
    driver->worker()->waitIdle();
    {
        const Hold hold;
        CHECK(window.simulation()->now() == now);
    }
    // A step on the GUI thread, then a frame: the worker chases from where the step left the clock.
    {
        const Hold hold;
        driver->step();
        now = window.simulation()->now();
        driver->frameTo(now + 5000);
    }
    driver->worker()->waitIdle();
    {
        const Hold hold;
        CHECK(window.simulation()->now() == now + 5000);
        CHECK_FALSE(driver->lagging());
        // Two frames while the GUI never let go of the gate (as a modal dialog's event loop does): the worker had no
        // chance, so the simulation waits rather than lags.
        const TimeMs before = window.simulation()->now();
        driver->frameTo(before + 5000);
        driver->frameTo(before + 5000);
        CHECK_FALSE(driver->lagging());
        CHECK(window.simulation()->now() == before);
    }
    driver->worker()->waitIdle();
    {
        const Hold hold;
        driver->frameTo(window.simulation()->now());
        CHECK_FALSE(driver->lagging()); // it caught up in the idle time
        driver->pause();
        CHECK_FALSE(driver->lagging());
    }
    // Another run, its clock at 0: the worker's last target (the old run's time) says nothing about it.
    {
        const Hold hold;
        REQUIRE(window.lessons()->openLesson(QStringLiteral("poison-pill")));
        REQUIRE(window.simulation()->now() == 0);
        driver->frameTo(3000);
        CHECK_FALSE(driver->lagging());
    }
    driver->worker()->waitIdle();
    {
        const Hold hold;
        driver->frameTo(6000);
        CHECK_FALSE(driver->lagging());
        CHECK(window.simulation()->now() == 3000);
    }
}

TEST_CASE("lagging: said only after eight frames in a row fall short - a hiccup is not lagging", "[ui][worker]")
{
    application();
    ui::MainWindow window;
    auto parsed = scenario::parseScenario(std::string(R"({"duration": "1h", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "rate": 2000}],
        "consumers": [{"queue": "q", "count": 50, "maxMessages": 10, "processing": "10ms"}]})"));
    window.openScenario(std::get<scenario::Scenario>(parsed));
    ui::LiveDriver* driver = window.driver();
    driver->pause();
    // One frame asking for an hour falls short; the next asks for nothing more and is where it was asked to be.
    driver->frameTo(3600000);
    REQUIRE(window.simulation()->now() < 3600000);
    driver->frameTo(window.simulation()->now());
    CHECK_FALSE(driver->lagging());
    // Eight that fall short in a row: lagging, until a pause.
    for (int frame = 1; frame <= 8; ++frame) {
        driver->frameTo(3600000);
        REQUIRE(window.simulation()->now() < 3600000);
        CHECK(driver->lagging() == (frame == 8));
    }
    driver->pause();
    CHECK_FALSE(driver->lagging());
}
