// Paints the timeline (ruler, lanes, marks, now line, legend) on any QPainter: the widget, a QImage, an SVG or a
// PDF. It reads the model's lane chains and walks only the rows that are visible.
#pragma once

#include "timeline/lane_model.h"
#include "lifeline/timeline/time_axis.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <optional>

namespace lifeline::ui {

struct RowRef {
    LaneModel::RowKind kind = LaneModel::QueueGroup;
    int group = 0; // queue group (for QueueGroup / MessageRow)
    uint32_t id = 0; // lane (MessageRow) or actor (ActorRow)
};

// Which message lanes to show: by text (MessageId prefix, body, FIFO group, or a consumer's name: the messages it
// worked on) and by state.
struct LaneFilter {
    enum class State { All, Live, InFlight, Ended, DeadLettered, Duplicates };
    QString text;
    State state = State::All;
    bool active() const { return !text.isEmpty() || state != State::All; }
};

struct TimelineFrame {
    TimeAxis axis;
    int firstRow = 0; // scroll position, in rows
    TimeMs now = 0;
    MessageIndex selected = kNoMessage;
    bool legend = true;
    TimeMs measureFrom = -1, measureTo = -1; // a measured range, when both are set
};

// What is under the mouse: a lane's segment or mark, for the tooltip.
struct TimelineHit {
    RowRef row;
    TimeMs from = 0, to = 0;
    MessageState state = MessageState::None;
    QString text;
};

class TimelinePainter {
public:
    TimelinePainter(const LaneModel& model, const TimelineStyle& style);

    void paint(QPainter& painter, const QRect& rect, const TimelineFrame& frame) const;

    void setFilter(const LaneFilter& filter);
    const LaneFilter& filter() const { return m_filter; }
    void refreshFilter(); // re-evaluates the filter over the lanes as they are now (new lanes, new states)
    size_t shownLanes() const;

    int totalRows() const;
    RowRef rowAt(int flatRow) const;
    // The row under a point of the lanes area, its label column included; none over the ruler or the legend.
    std::optional<RowRef> rowUnder(const QRect& rect, const TimelineFrame& frame, QPoint at) const;
    int rowOfLane(MessageIndex lane) const; // -1 when not shown
    int rowTop(const QRect& rect, const TimelineFrame& frame, int flatRow) const;
    int rowsVisible(const QRect& rect) const;
    QRect lanesArea(const QRect& rect, bool legend) const;
    // The legend's height at this width: it wraps onto more lines rather than run off the right edge.
    int legendHeight(int width) const;
    std::optional<TimelineHit> hit(const QRect& rect, const TimelineFrame& frame, QPoint at) const;

private:
    void paintRuler(QPainter& p, const QRect& area, const TimeAxis& axis) const;
    void paintMessage(QPainter& p, const QRect& row, const TimelineFrame& frame, MessageIndex lane) const;
    void paintActor(QPainter& p, const QRect& row, const TimelineFrame& frame, uint32_t actor) const;
    void paintRefusals(QPainter& p, const QRect& row, const TimelineFrame& frame, QueueIndex queue) const;
    void paintLegend(QPainter& p, const QRect& area) const;
    QString rowLabel(const RowRef& row) const;
    const LaneModel::Lanes& lanesOf(int group) const;
    bool matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const;

    const LaneModel& m_model;
    const TimelineStyle& m_style;
    LaneFilter m_filter;
    mutable int m_legendWidth = -1; // legendHeight's last layout
    mutable int m_legendLines = 1;
    std::vector<LaneModel::Lanes> m_filtered; // per group, while a filter is active
};

} // namespace lifeline::ui
