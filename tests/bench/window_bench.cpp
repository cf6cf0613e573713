// The whole window live, offscreen: each frame moves the simulation on by 3.3 virtual seconds (2,000 messages/s at
// 100x), the window refreshes everything it shows (timeline, overview, counters, consumer tiles, controls, charts,
// event log), and Qt's event loop does what it does for a frame: posted layouts, the charts' axes, and the repaint
// of every widget that changed into the (offscreen) backing store, as on screen. Measured twice: with the simulation
// on the GUI thread (as before the worker, and as the tests drive it) and as the window plays, with the simulation on
// its worker between frames. Apart: a repaint of the whole window (a resize, an expose), rendered into an image.
#include "bench_util.h"
#include "lifeline/engine/engine.h"
#include "lifeline/sim/simulation.h"
#include "window/main_window.h"
#include "window/panels/event_log_panel.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/simulation_gate.h"
#include "window/runtime/simulation_worker.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <algorithm>
#include <vector>

namespace lifeline::bench {

namespace {
const char* const kScenario = R"({"duration": "10m", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "q", "rate": 2000}],
        "consumers": [{"name": "w", "queue": "q", "count": 50, "maxMessages": 10, "processing": {"uniform": ["5ms", "20ms"]}}]})";

double p95(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() * 95 / 100];
}

void openBenchmarkRun(ui::MainWindow& window)
{
    auto parsed = scenario::parseScenario(std::string(kScenario));
    window.resize(1920, 1080);
    window.openScenario(std::get<scenario::Scenario>(parsed));
    window.show();
    QApplication::processEvents();
}

// The simulation on the GUI thread, as the window ran before its worker (and as the tests drive it): each frame
// advances, refreshes and renders. For comparison.
void sameThreadFrames()
{
    ui::MainWindow window;
    openBenchmarkRun(window);
    std::vector<double> frames;
    for (int i = 0; i < 120; ++i) {
        const auto start = std::chrono::steady_clock::now();
        window.driver()->advanceBy(3333);
        QApplication::processEvents(); // layouts, the charts' axes, the repaint of what changed
        frames.push_back(secondsSince(start) * 1000.0);
    }
    report("ui.window_frame_ms_p95_same_thread", p95(frames), "ms");
    report("ui.window_frame_ms_median_same_thread", median(frames), "ms");
}
} // namespace

void runWindowBenchmark()
{
    sameThreadFrames();
    // As the window plays: a frame (holding the gate, as GatedApplication does around its events) hands the worker
    // the next 3.3 virtual seconds, syncs and refreshes every panel to where the simulation is, and repaints; the
    // worker advances in the GUI's idle time between frames (waited for here, and timed apart).
    ui::MainWindow window;
    openBenchmarkRun(window);
    window.driver()->setThreaded(true);
    ui::SimulationWorker* worker = window.driver()->worker();
    QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frames, refreshes, advances, renders;
    for (int i = 0; i < 120; ++i) {
        {
            const auto start = std::chrono::steady_clock::now();
            const ui::SimulationGate::GuiHold hold;
            window.driver()->frameTo(window.simulation()->now() + 3333);
            refreshes.push_back(secondsSince(start) * 1000.0);
            QApplication::processEvents();
            frames.push_back(secondsSince(start) * 1000.0);
            const auto renderStart = std::chrono::steady_clock::now();
            QPainter painter(&image);
            window.render(&painter);
            painter.end();
            renders.push_back(secondsSince(renderStart) * 1000.0);
        }
        worker->waitIdle();
        advances.push_back(worker->takeBusyMs());
    }
    window.driver()->setThreaded(false);
    report("ui.window_frame_ms_p95", p95(frames), "ms");
    report("ui.window_frame_ms_median", median(frames), "ms");
    report("ui.window_refresh_ms_median", median(refreshes), "ms");
    report("ui.window_render_full_ms_median", median(renders), "ms");
    report("ui.window_worker_ms_median", median(advances), "ms");
    report("ui.window_worker_ms_p95", p95(advances), "ms");
    // The event log sat behind the Charts tab and took no rows; picking its tab takes the run's millions at once.
    const size_t events = window.simulation()->engine().log().size();
    const auto catchUpStart = std::chrono::steady_clock::now();
    window.findChild<QDockWidget*>(QStringLiteral("eventLogDock"))->raise();
    QApplication::processEvents();
    report("ui.event_log_catch_up_ms", secondsSince(catchUpStart) * 1000.0, "ms");
    report("ui.event_log_rows",
        double(window.findChild<ui::EventLogPanel*>(QStringLiteral("eventLog"))->model()->rowCount()),
        "rows"); // = the events
    // Filtering it (millions of events) for one cause, as a user types it.
    const auto filterStart = std::chrono::steady_clock::now();
    window.findChild<ui::EventLogPanel*>(QStringLiteral("eventLog"))
        ->filterText()
        ->setText(QStringLiteral("visibility-timeout"));
    report("ui.event_log_filter_ms", secondsSince(filterStart) * 1000.0, "ms");
    report("ui.event_log_events", double(events), "events");
}

// The scale example (docs/examples/ten-queues-at-scale.json: ten queues, 2,000 messages a second, 300 consumers) in
// the window at 1920x1080 for an hour of virtual time, a frame every virtual second, each panel as it comes; the
// process's resident memory along the way. Goal: 1,000 MB or less at 30 minutes; with the default history kept (10
// minutes, View > History kept) it levels off once the run forgets, so the hour's figure is the 30 minutes'.
void runWindowMemoryBenchmark()
{
    QFile file(QStringLiteral(LIFELINE_EXAMPLES_DIR "/ten-queues-at-scale.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(file.fileName()));
        return;
    }
    auto parsed = scenario::parseScenario(file.readAll().toStdString());
    ui::MainWindow window;
    window.resize(1920, 1080);
    window.openScenario(std::get<scenario::Scenario>(parsed));
    window.show();
    QApplication::processEvents();
    for (int second = 1; second <= 3600; ++second) {
        window.driver()->advanceBy(1000);
        QApplication::processEvents();
        if (second % 600 == 0 || second == 300)
            report(("window.rss_mb_" + std::to_string(second / 60) + "min").c_str(), residentBytes() / 1e6, "MB");
    }
}

} // namespace lifeline::bench
