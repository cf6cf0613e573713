// The timeline as an image (PNG, SVG or PDF, by the file's extension), drawn by the same TimelinePainter as the
// screen on another paint device: the whole run or a window of it, at any size, with a title, the legend and
// the time axis, in the light style (for print). No window is needed.
#pragma once

#include "lifeline/engine.h"
#include "lifeline/outcome.h"
#include "lifeline/sim/moments.h"

#include <QSize>
#include <QString>
#include <string>
#include <vector>

namespace lifeline::ui {

struct ImageExportRequest {
    QString path; // .png, .svg or .pdf
    QSize size { 1920, 1080 };
    TimeMs from = 0;
    TimeMs to = -1; // -1: the engine's "now" (the whole run)
    QString title;
    QString subtitle; // empty: the queues' settings, written under the title
    bool dark = false;
    std::vector<sim::MomentSpec> moments; // a lesson's: their pins and callouts are drawn
};

// One of the timelines of a comparison ("As written", "With the fix"), stacked on one shared time axis.
struct ExportPanel {
    const Engine* engine = nullptr;
    std::vector<std::string> actorNames;
    std::vector<sim::MomentSpec> moments;
    QString heading; // "As written"; the panel's queue settings follow it
};

// Nothing is left half-written: the file is written whole or not at all.
Outcome<> exportTimelineImage(
    const Engine& engine, const std::vector<std::string>& actorNames, const ImageExportRequest& request);

// The panels stacked, each with its heading and its moments, under the request's title (its subtitle, when set,
// under the title; its moments are not used). The axis runs to the latest panel's end unless `to` says.
Outcome<> exportComparisonImage(const std::vector<ExportPanel>& panels, const ImageExportRequest& request);

// "orders: visibility 30 s, delay 0 s, DLQ after 3 receives · orders-dlq: ..." for titles.
QString queueSettings(const Engine& engine);

} // namespace lifeline::ui
