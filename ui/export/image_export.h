// The timeline as an image (PNG, SVG or PDF, by the file's extension), drawn by the same TimelinePainter as the
// screen on another paint device: the whole run or a window of it, at any size, with a title, the legend and
// the time axis, in the light style (for print). No window is needed.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/engine/engine.h"
#include "lifeline/support/outcome.h"
#include "timeline/row_layout.h"
#include "timeline/timeline_style.h"

#include <QByteArray>
#include <QPainter>
#include <QSize>
#include <QString>
#include <string>
#include <vector>

namespace lifeline::ui {

struct ImageExportRequest {
    QString path; // .png, .svg or .pdf
    QSize size { 1920, 1080 }; // a height of 0: the height that fits the lanes
    TimeMs from = 0;
    TimeMs to = -1; // -1: the end of the action (the last state change or moment, and a margin)
    QString title;
    QString claim; // what the run measured ("2 duplicate processings"), the line under the title
    QString subtitle; // empty: the queues' settings, written under the claim
    bool dark = false;
    bool highContrast = false; // white on black (TimelineStyle::highContrast), over `dark`
    std::vector<analysis::MomentSpec> moments; // a lesson's: their pins and callouts are drawn
    // Only the lanes alive in the window (--alive). Either way, lanes too many for rows of 3 px draw as density
    // bands, so the image of a huge run is never blank.
    bool aliveOnly = false;
    LaneOrder order = LaneOrder::Sent;
};

// One of the timelines of a comparison ("As written", "With the fix"), stacked on one shared time axis.
struct ExportPanel {
    const RunView* run = nullptr;
    std::vector<analysis::MomentSpec> moments;
    QString heading; // "As written"; the panel's queue settings follow it
};

// Nothing is left half-written: the file is written whole or not at all.
Outcome<> exportTimelineImage(const RunView& run, const ImageExportRequest& request);
// The same image in memory (the endpoint's GET /_lifeline/runs/current?format=png); the request's path names only
// its type (its extension).
Outcome<QByteArray> drawTimelineImage(const RunView& run, const ImageExportRequest& request);
// The endpoint's GET /_lifeline/runs/current?format=png|svg (EndpointServer::RunImageWriter): the whole run so far.
Outcome<std::string> drawEndpointRun(const RunView& run, bool svg, int width, int height);

// The panels stacked, each with its heading and its moments, under the request's title (its subtitle, when set,
// under the title; its moments are not used). The axis runs to the latest panel's end unless `to` says.
Outcome<> exportComparisonImage(const std::vector<ExportPanel>& panels, const ImageExportRequest& request);

class LaneModel;
// One slide: the title block and the timeline over [request.from, to] at the model's "now", its rows laid out for
// `layoutRows` rows (0: the model's own count): each frame of an animation.
void paintSlide(QPainter& p, const QRect& rect, const LaneModel& model, const TimelineStyle& style,
    const ImageExportRequest& request, TimeMs to, int layoutRows = 0);

// Where an export's default time window ends: the last state change of a message or the last moment, plus a margin
// (a tenth, at least 5 s); the idle polling after it is left out. When the clock stands at the last change, a
// twentieth (at least 1 s) after it, so what happened at that instant is drawn whole.
TimeMs actionEnd(const LaneModel& model);

// The timeline's style for an image of this size: type, rows, marks, pins and callouts grow with it (16 px type at
// 1920x1080, rows up to 64 px), so an export reads on a slide.
TimelineStyle slideStyle(TimelineStyle style, const QSize& size);

// "orders: visibility 30 s, delay 0 s, DLQ after 3 receives · orders-dlq: ..." for titles.
QString queueSettings(const RunView& run);

// An image's text alternative, for a reader who does not see it: the title, what the run measured, and each key
// moment drawn with its time and caption ("At 1m30s: worker crashes: ..."), a panel's moments under its heading.
// Written into a PNG as its Title and Description text chunks, into an SVG as its <title> and <desc>, and into a PDF's
// XMP metadata as its dc:description.
QString imageAltText(
    const QString& title, const QString& claim, const std::vector<std::pair<QString, const LaneModel*>>& panels);
// The text alternative the export of these panels with this request writes (one panel, no heading: a single run's;
// a comparison's figures that differ are its subtitle): what `lifeline run --alt` prints.
QString exportAltText(const std::vector<ExportPanel>& panels, const ImageExportRequest& request);

} // namespace lifeline::ui
