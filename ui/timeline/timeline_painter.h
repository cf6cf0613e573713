// Paints the timeline (ruler, rows, now line, measured range, legend) on any QPainter: the widget, a QImage, an SVG
// or a PDF. It places the rows and delegates each to its piece: lane_painter (messages, queues), actor_painter
// (consumers, Lambda pollers), timeline_legend; row_layout says which rows there are, timeline_hit what is under
// the mouse. It walks only the rows that are visible.
#pragma once

#include "timeline/lane_model.h"
#include "timeline/moment_painter.h"
#include "timeline/row_layout.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_hit.h"
#include "timeline/timeline_legend.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <optional>
#include <vector>

namespace lifeline::ui {

class TimelinePainter {
public:
    TimelinePainter(const LaneModel& model, const TimelineStyle& style);

    void paint(QPainter& painter, const QRect& rect, const TimelineFrame& frame) const;

    void setFilter(const LaneFilter& filter) { m_rows.setFilter(filter); }
    // The rows at scale (row_layout.h): only the lanes alive in view, their order, density bands.
    RowLayout& rows() { return m_rows; }
    const RowLayout& rows() const { return m_rows; }
    // Fits the rows to what this paint shows (its time window, its height): call before paint(); true when the
    // rows changed.
    bool arrange(const QRect& rect, const TimelineFrame& frame);
    const LaneFilter& filter() const { return m_rows.filter(); }
    void refreshFilter() { m_rows.refreshFilter(); }
    size_t shownLanes() const { return m_rows.shownLanes(); }

    int totalRows() const { return m_rows.totalRows(); }
    RowRef rowAt(int flatRow) const { return m_rows.rowAt(flatRow); }
    int rowOfLane(MessageIndex lane) const { return m_rows.rowOfLane(lane); } // -1 when not shown
    // The row under a point of the lanes area, its label column included; none over the ruler or the legend.
    std::optional<RowRef> rowUnder(const QRect& rect, const TimelineFrame& frame, QPoint at) const;
    int rowTop(const QRect& rect, const TimelineFrame& frame, int flatRow) const;
    // The consumers' rows in a strip of their own, so arriving lanes and scrolling never move them: under the lanes
    // as they are unscrolled, or at the bottom once the lanes outgrow the height. Only while they take two fifths
    // of the height or less (else every row scrolls together, as before); an empty rect when not pinned.
    QRect actorStrip(const QRect& rect, bool legend) const;
    // The rows that scroll: the lanes' while the consumers are pinned, else all of them.
    int scrollableRows(const QRect& rect) const;
    int rowsVisible(const QRect& rect) const;
    // What the rows may fill: the lanes area less a band below for moments' callouts (up to three, at most a third).
    int roomForRows(const QRect& rect, bool legend) const;
    // The row height that fills `room` with the rows there are, between `least` and the style's tallest.
    int fillingRowHeight(int room, int least) const;
    QRect lanesArea(const QRect& rect, bool legend) const;
    // The legend's height at this width: it wraps onto more lines rather than run off the right edge.
    int legendHeight(int width) const;
    // The legend as it stands for what the run has shown so far.
    const TimelineLegend& legend() const
    {
        syncLegend();
        return m_legend;
    }
    std::optional<TimelineHit> hit(const QRect& rect, const TimelineFrame& frame, QPoint at) const;
    // The moments in view, where they are drawn; and the number of the one whose pin is under a point (0: none).
    std::vector<PlacedMoment> placedMoments(const QRect& rect, const TimelineFrame& frame) const;
    // What the visible rows show in the visible time window: the legend lists only that (its height is laid out for
    // what the whole run has shown, so rows do not jump as the view moves).
    LegendContent contentInView(const QRect& rect, const TimelineFrame& frame) const;
    int momentAt(const QRect& rect, const TimelineFrame& frame, QPoint at) const;
    // The row a moment is drawn on (its lane, its consumer's row, or its queue's), or -1 when it is not shown.
    int rowOfMoment(const analysis::Moment& moment) const;
    // The rows a paint shows (and the accessible table reads): flat rows [from, to) drawn in `area`. The lanes from the
    // scroll position (down to the consumers' strip when it is pinned), then the pinned consumers.
    struct RowSpan {
        int from, to;
        QRect area;
        int top; // where row `from` begins
    };
    std::vector<RowSpan> visibleRows(const QRect& rect, const TimelineFrame& frame) const;

private:
    void paintRow(QPainter& p, const QRect& box, const TimelineFrame& frame, const RowRef& row) const;
    // A band's rows as one box: the row `flatRow` is its part `row.part`.
    QRect bandBox(const QRect& rect, const TimelineFrame& frame, int flatRow, const RowRef& row) const;
    void paintRuler(QPainter& p, const QRect& area, const TimelineFrame& frame) const;
    // The waits that played faster: the ruler under them shaded, "»16×" at each one's start. Where the notes are,
    // returned so the ticks' labels keep off them.
    std::vector<QRectF> paintFastSpans(QPainter& p, const QRect& area, const TimelineFrame& frame) const;
    void paintMeasure(QPainter& p, const QRect& lanes, const TimeAxis& axis, const TimelineFrame& frame) const;
    // What the run no longer remembers (a bounded history): from the start to where the held history begins, one
    // grey hatched area over every row, saying so, instead of rows that look empty.
    void paintForgotten(QPainter& p, const QRect& area, const TimeAxis& axis) const;
    QString rowLabel(const RowRef& row) const;
    void syncLegend() const;

    const LaneModel& m_model;
    const TimelineStyle& m_style;
    RowLayout m_rows;
    TimelineLegend m_legend;
};

} // namespace lifeline::ui
