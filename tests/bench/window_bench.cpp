// The whole window live, offscreen: each frame advances the simulation (2,000 messages/s at 100x: 3.3 virtual
// seconds), and the window refreshes everything it shows (timeline, overview, counters, consumer tiles, controls,
// charts, event log), then renders itself into an image as the screen would.
#include "bench_util.h"
#include "lifeline/engine.h"
#include "lifeline/sim/simulation.h"
#include "window/event_log_panel.h"
#include "window/live_driver.h"
#include "window/main_window.h"

#include <QApplication>
#include <QDockWidget>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <algorithm>
#include <vector>

namespace lifeline::bench {

void runWindowBenchmark()
{
    auto parsed = sim::parseScenario(
        std::string(R"({"duration": "10m", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "q", "rate": 2000}],
        "consumers": [{"name": "w", "queue": "q", "count": 50, "maxMessages": 10, "processing": {"uniform": ["5ms", "20ms"]}}]})"));
    ui::MainWindow window;
    window.resize(1920, 1080);
    window.openScenario(std::get<sim::Scenario>(parsed));
    window.show();
    QApplication::processEvents();
    QImage image(window.size(), QImage::Format_ARGB32_Premultiplied);
    std::vector<double> frames, refreshes;
    for (int i = 0; i < 120; ++i) {
        const auto start = std::chrono::steady_clock::now();
        window.driver()->advanceBy(3333); // the simulation, then every panel's refresh
        refreshes.push_back(secondsSince(start) * 1000.0);
        QPainter painter(&image);
        window.render(&painter);
        painter.end();
        frames.push_back(secondsSince(start) * 1000.0);
    }
    std::sort(frames.begin(), frames.end());
    std::sort(refreshes.begin(), refreshes.end());
    report("ui.window_frame_ms_p95", frames[frames.size() * 95 / 100], "ms");
    report("ui.window_frame_ms_median", frames[frames.size() / 2], "ms");
    report("ui.window_advance_refresh_ms_median", refreshes[refreshes.size() / 2], "ms");
    // The event log sat behind the Charts tab and took no rows; picking its tab takes the run's millions at once.
    const size_t events = window.simulation()->engine().log().size();
    const auto catchUpStart = std::chrono::steady_clock::now();
    window.findChild<QDockWidget*>(QStringLiteral("eventLogDock"))->raise();
    QApplication::processEvents();
    report("ui.event_log_catch_up_ms", secondsSince(catchUpStart) * 1000.0, "ms");
    report("ui.event_log_rows", double(window.eventLog()->model()->rowCount()), "rows"); // = the events
    // Filtering it (millions of events) for one cause, as a user types it.
    const auto filterStart = std::chrono::steady_clock::now();
    window.eventLog()->filterText()->setText(QStringLiteral("visibility-timeout"));
    report("ui.event_log_filter_ms", secondsSince(filterStart) * 1000.0, "ms");
    report("ui.event_log_events", double(events), "events");
}

} // namespace lifeline::bench
