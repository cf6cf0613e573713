// UI figures, offscreen on a 1920x1080 QImage: paint time with a million messages in the model (whole run and one
// minute in view), a live frame (advance + model sync + paint) at 100x on a 2,000 messages/s scenario, and the
// model's bytes per lane.
#include "bench_util.h"
#include "export/animation_export.h"
#include "export/image_export.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_painter.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace lifeline::bench {

namespace {

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(double(v.size()) * p))];
}

scenario::Scenario load(const char* json)
{
    return std::get<scenario::Scenario>(scenario::parseScenario(std::string(json)));
}

double paintMs(const ui::TimelinePainter& painter, QImage& image, const ui::TimelineFrame& frame)
{
    const auto start = std::chrono::steady_clock::now();
    QPainter p(&image);
    painter.paint(p, image.rect(), frame);
    p.end();
    return secondsSince(start) * 1000.0;
}

} // namespace

void runExportBenchmark()
{
    // A 10,000-message run (100 messages/s for 100 s), the whole of it as a 3840x2160 PNG.
    sim::Simulation run(load(R"({"duration": "100s", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 5}}],
        "producers": [{"queue": "q", "rate": 100}],
        "consumers": [{"name": "w", "queue": "q", "count": 5, "maxMessages": 10, "processing": {"uniform": ["10ms", "60ms"]}}]})"));
    run.runToEnd();
    ui::ImageExportRequest request;
    request.path = QStringLiteral("/tmp/lifeline-bench-export.png");
    request.size = QSize(3840, 2160);
    request.title = QStringLiteral("bench");
    std::vector<double> times;
    for (int i = 0; i < 5; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (const auto exported = ui::exportTimelineImage(run.engine().run(), request); !exported)
            std::fprintf(stderr, "export failed: %s\n", exported.message().c_str());
        times.push_back(secondsSince(start) * 1000.0);
    }
    report("export.png_ms_10k", median(times), "ms");

    // Lesson 7 as a 1280x720, 8 s, 15 fps GIF (120 frames): simulated again, painted and encoded frame by frame.
    ui::AnimationRequest gif;
    gif.path = QStringLiteral("/tmp/lifeline-bench-lesson7.gif");
    gif.title = QStringLiteral("Lesson 7");
    std::vector<double> perFrame;
    for (int i = 0; i < 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (const auto exported = ui::exportAnimation(teach::findLesson("consumer-crash")->scenario, gif); !exported)
            std::fprintf(stderr, "animation failed: %s\n", exported.message().c_str());
        perFrame.push_back(secondsSince(start) * 1000.0 / ui::animationFrames(gif));
    }
    report("export.gif_ms_per_frame", median(perFrame), "ms");
    report("export.gif_bytes_lesson7", double(QFileInfo(gif.path).size()), "bytes");
    // The same as an MP4 (H.264).
    ui::AnimationRequest mp4 = gif;
    mp4.path = QStringLiteral("/tmp/lifeline-bench-lesson7.mp4");
    perFrame.clear();
    for (int i = 0; i < 3; ++i) {
        const auto start = std::chrono::steady_clock::now();
        if (const auto exported = ui::exportAnimation(teach::findLesson("consumer-crash")->scenario, mp4); !exported)
            std::fprintf(stderr, "animation failed: %s\n", exported.message().c_str());
        perFrame.push_back(secondsSince(start) * 1000.0 / ui::animationFrames(mp4));
    }
    report("export.mp4_ms_per_frame", median(perFrame), "ms");
    report("export.mp4_bytes_lesson7", double(QFileInfo(mp4.path).size()), "bytes");
}

namespace {
// Ten queues at 2,000 messages a second with 300 consumers (docs/examples/ten-queues-at-scale.json): its 5th minute
// in view, lanes alive only, so every queue is a density band and the consumers bands per group.
void runDensityBenchmark(QImage& image)
{
    QFile file(QStringLiteral(LIFELINE_EXAMPLES_DIR "/ten-queues-at-scale.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(file.fileName()));
        return;
    }
    sim::Simulation run(load(file.readAll().constData()));
    run.runToEnd();
    ui::LaneModel model;
    const auto syncStart = std::chrono::steady_clock::now();
    model.setRun(&run.engine().run());
    report("ui.density_model_ms", secondsSince(syncStart) * 1000.0, "ms");
    const ui::TimelineStyle style = ui::TimelineStyle::light();
    ui::TimelinePainter painter(model, style);
    painter.rows().setAliveOnly(true);
    ui::TimelineFrame frame;
    frame.now = run.now();
    frame.axis.fit(240000, 300000, 1920 - style.labelWidth);
    std::vector<double> arranges, paints;
    for (int i = 0; i < 31; ++i) {
        // Each frame as following live would: the window moves a little, the rows are listed again.
        frame.axis.start = 240000 + (i % 2);
        const auto start = std::chrono::steady_clock::now();
        painter.arrange(image.rect(), frame);
        arranges.push_back(secondsSince(start) * 1000.0);
        paints.push_back(paintMs(painter, image, frame));
    }
    report("ui.paint_ms_density", median(paints), "ms");
    report("ui.density_arrange_ms", median(arranges), "ms");
    report("ui.density_lanes_alive", double(painter.rows().shownLanes()), "lanes");
    image.save(QStringLiteral("/tmp/lifeline-bench-density.png"));
}
} // namespace

void runUiBenchmarks()
{
    // A million messages: 2,000 per second for 500 s, each received and deleted after a short job.
    sim::Simulation million(
        load(R"({"duration": "500s", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "q", "rate": 2000}],
        "consumers": [{"name": "w", "queue": "q", "count": 50, "maxMessages": 10, "processing": {"uniform": ["5ms", "20ms"]}}]})"));
    million.runToEnd();
    ui::LaneModel model;
    const size_t before = heapInUse();
    model.setRun(&million.engine().run());
    const size_t after = heapInUse();
    report("ui.model_lanes", double(million.engine().messageCount()), "lanes");
    report("ui.model_bytes_per_lane", double(after - before) / double(million.engine().messageCount()), "B");

    const ui::TimelineStyle style = ui::TimelineStyle::light();
    ui::TimelinePainter painter(model, style);
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(1);
    ui::TimelineFrame frame;
    frame.now = million.now();
    frame.firstRow = 400000; // somewhere in the middle of the run
    frame.axis.fit(0, million.duration(), 1920 - style.labelWidth);
    std::vector<double> full, zoomed;
    for (int i = 0; i < 31; ++i)
        full.push_back(paintMs(painter, image, frame));
    frame.axis.fit(200000, 260000, 1920 - style.labelWidth);
    for (int i = 0; i < 31; ++i)
        zoomed.push_back(paintMs(painter, image, frame));
    report("ui.paint_ms_full", median(full), "ms");
    report("ui.paint_ms_zoomed", median(zoomed), "ms");

    // Live: 2,000 messages/s at 100x, 30 frames a second: each frame advances 3.3 virtual seconds.
    sim::Simulation live(load(R"({"duration": "10m", "queues": [{"name": "q", "attributes": {"VisibilityTimeout": 30}}],
        "producers": [{"queue": "q", "rate": 2000}],
        "consumers": [{"name": "w", "queue": "q", "count": 50, "maxMessages": 10, "processing": {"uniform": ["5ms", "20ms"]}}]})"));
    ui::LaneModel liveModel;
    liveModel.setRun(&live.engine().run());
    ui::TimelinePainter livePainter(liveModel, style);
    ui::TimelineFrame liveFrame;
    liveFrame.axis.msPerPixel = 50;
    std::vector<double> frames, advances, paints, syncs;
    for (int i = 0; i < 150; ++i) {
        const auto start = std::chrono::steady_clock::now();
        live.advanceTo(live.now() + 3333);
        advances.push_back(secondsSince(start) * 1000.0);
        const auto syncStart = std::chrono::steady_clock::now();
        liveModel.sync();
        syncs.push_back(secondsSince(syncStart) * 1000.0);
        const auto paintStart = std::chrono::steady_clock::now();
        liveFrame.now = live.now();
        liveFrame.axis.start = std::max<TimeMs>(0, live.now() - TimeMs(liveFrame.axis.msPerPixel * 1600));
        liveFrame.firstRow = std::max(0, livePainter.totalRows() - 60);
        QPainter p(&image);
        livePainter.paint(p, image.rect(), liveFrame);
        p.end();
        paints.push_back(secondsSince(paintStart) * 1000.0);
        frames.push_back(secondsSince(start) * 1000.0);
    }
    report("ui.live_frame_ms_p95", percentile(frames, 0.95), "ms");
    report("ui.live_frame_ms_median", median(frames), "ms");
    report("ui.live_advance_ms_median", median(advances), "ms");
    report("ui.live_sync_paint_ms_median", median(paints) + median(syncs), "ms");
    report("ui.live_sync_ms_median", median(syncs), "ms");
    report("ui.live_paint_ms_median", median(paints), "ms");
    runDensityBenchmark(image);
}

} // namespace lifeline::bench
