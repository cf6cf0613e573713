#include "timeline/timeline_painter.h"

#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"
#include "timeline/actor_painter.h"
#include "timeline/compact_count.h"
#include "timeline/density_painter.h"
#include "timeline/fitting_text.h"
#include "timeline/flow_painter.h"
#include "timeline/lane_painter.h"

#include <QFontMetrics>
#include <QLocale>
#include <algorithm>
#include <cmath>

namespace lifeline::ui {

TimelinePainter::TimelinePainter(const LaneModel& model, const TimelineStyle& style)
    : m_model(model)
    , m_style(style)
    , m_rows(model)
    , m_legend(style)
{
}

QRect TimelinePainter::lanesArea(const QRect& rect, bool legend) const
{
    return rect.adjusted(0, m_style.rulerHeight, 0, legend ? -legendHeight(rect.width()) : 0);
}

QRect TimelinePainter::actorStrip(const QRect& rect, bool legend) const
{
    const QRect lanes = lanesArea(rect, legend);
    const int top = m_rows.actorsTop(), rows = totalRows() - top;
    const int height = rows * m_style.rowHeight;
    if (!m_model.run() || rows <= 1 || height > lanes.height() * 2 / 5)
        return {};
    const int underLanes = lanes.top() + top * m_style.rowHeight;
    return QRect(rect.left(), std::min(underLanes, lanes.bottom() + 1 - height), rect.width(), height);
}

int TimelinePainter::scrollableRows(const QRect& rect) const
{
    return actorStrip(rect, true).isNull() ? totalRows() : m_rows.actorsTop();
}

int TimelinePainter::rowsVisible(const QRect& rect) const
{
    const QRect strip = actorStrip(rect, true);
    const QRect lanes = lanesArea(rect, true);
    return ((strip.isNull() ? lanes.bottom() + 1 : strip.top()) - lanes.top()) / m_style.rowHeight + 1;
}

int TimelinePainter::roomForRows(const QRect& rect, bool legend) const
{
    const int height = lanesArea(rect, legend).height();
    const int callouts = int(std::min<size_t>(3, m_model.expectedMoments())) * (m_style.calloutPixels * 3 + 8);
    return height - std::min(callouts, height / 3);
}

int TimelinePainter::fillingRowHeight(int room, int least) const
{
    return std::clamp(room / std::max(1, totalRows()), least, std::max(least, m_style.maxRowHeight));
}

int TimelinePainter::rowTop(const QRect& rect, const TimelineFrame& frame, int flatRow) const
{
    // A pinned consumer's row is in its strip whatever the lanes' scroll.
    if (const QRect strip = actorStrip(rect, frame.legend); !strip.isNull() && flatRow >= m_rows.actorsTop())
        return strip.top() + (flatRow - m_rows.actorsTop()) * m_style.rowHeight;
    return lanesArea(rect, frame.legend).top() + (flatRow - frame.firstRow) * m_style.rowHeight;
}

void TimelinePainter::syncLegend() const
{
    // The legend lists only what the run has shown (the index knows every state and cause it has read).
    const LaneIndex& index = m_model.lanes();
    LegendContent shown;
    for (unsigned state = 0; state < unsigned(MessageState::Count); ++state)
        if (index.stateOccurred(MessageState(state)))
            shown.states |= 1u << state;
    for (const picture::LaneMark mark : picture::kLaneMarks)
        if (mark == picture::LaneMark::Duplicate ? index.duplicatesOccurred()
                                                 : index.causeOccurred(picture::markCause(mark)))
            shown.mark(mark);
    shown.crash = index.causeOccurred(Cause::ConsumerCrashed);
    shown.notObserved = index.causeOccurred(Cause::FirstSeen);
    shown.inferred = index.inferredOccurred();
    shown.polling = index.causeOccurred(Cause::PollEnded) || index.causeOccurred(Cause::PollStarted);
    shown.working = index.causeOccurred(Cause::ProcessingStarted);
    // A crash cuts its work short: that box is drawn as failed work.
    shown.failed = index.causeOccurred(Cause::ProcessingFailed) || shown.crash;
    for (const uint32_t actor : m_model.shownActors())
        shown.functionTimeout = shown.functionTimeout || index.functionTimeout(actor) > 0;
    const_cast<TimelineLegend&>(m_legend).setContent(shown);
}

LegendContent TimelinePainter::contentInView(const QRect& rect, const TimelineFrame& frame) const
{
    syncLegend();
    const LegendContent& everShown = m_legend.content();
    LegendContent shown;
    const RunView& run = *m_model.run();
    const LaneIndex& index = m_model.lanes();
    TimeAxis axis = frame.axis;
    axis.left = rect.left() + m_style.labelWidth;
    const TimeMs from = axis.start, to = axis.toTime(rect.right());
    bool actorsShown = false;
    std::vector<int> shownRows;
    for (const RowSpan& span : visibleRows(rect, frame))
        for (int r = span.from; r < span.to; ++r)
            shownRows.push_back(r);
    for (const int r : shownRows) {
        const RowRef row = rowAt(r);
        actorsShown = actorsShown || row.kind == LaneModel::ActorRow || row.kind == LaneModel::ActorBand;
        if (row.kind == LaneModel::QueueBand) { // a band draws the live states and a strip of the ended ones
            for (const MessageState state : { MessageState::Delayed, MessageState::Visible, MessageState::InFlight,
                     MessageState::Deleted, MessageState::DeadLettered, MessageState::Expired })
                shown.states |= everShown.states & (1u << unsigned(state));
            continue;
        }
        if (row.kind != LaneModel::MessageRow)
            continue;
        // Each segment that overlaps the window, and each mark in it.
        MessageState state = index.stateBefore(row.id); // None unless it began before the history held
        TimeMs since = index.forgottenUntil();
        TimeMs segmentEnd = frame.now; // the last segment's end: now, unless the lane goes on past the window
        for (uint32_t ev = index.lane(row.id).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            const Event& e = run.log()[ev];
            if (e.time > to) {
                segmentEnd = e.time;
                break;
            }
            const bool inWindow = e.time >= from;
            if (picture::isTransition(e)) {
                if (isLive(state) && e.time >= from)
                    shown.states |= 1u << unsigned(state);
                state = e.to;
                since = e.time;
                if (!isLive(state) && inWindow)
                    shown.states |= 1u << unsigned(state); // its end cap
            }
            if (!inWindow)
                continue;
            if (const auto mark = picture::laneMarkAt(e))
                shown.mark(*mark);
            shown.crash = shown.crash || e.cause == Cause::ConsumerCrashed;
            shown.notObserved = shown.notObserved || e.cause == Cause::FirstSeen;
            shown.inferred = shown.inferred || e.inferred();
        }
        if (isLive(state) && std::max(since, segmentEnd) >= from)
            shown.states |= 1u << unsigned(state);
    }
    if (actorsShown) { // consumer activity as the run has shown it
        shown.polling = everShown.polling;
        shown.working = everShown.working;
        shown.failed = everShown.failed;
        shown.crash = shown.crash || everShown.crash;
        shown.functionTimeout = everShown.functionTimeout;
    }
    return shown;
}

bool TimelinePainter::arrange(const QRect& rect, const TimelineFrame& frame)
{
    if (!m_model.run())
        return false;
    TimeAxis axis = frame.axis;
    axis.left = rect.left() + m_style.labelWidth;
    // Legible: a lane of 3 px or more. More lanes than that in the height, and the queues with many become bands.
    const int legible = std::max(1, lanesArea(rect, frame.legend).height() / 3);
    return m_rows.arrange(std::max<TimeMs>(0, axis.start), axis.toTime(rect.right()), legible);
}

QRect TimelinePainter::bandBox(const QRect& rect, const TimelineFrame& frame, int flatRow, const RowRef& row) const
{
    const int rows = row.kind == LaneModel::QueueBand ? RowLayout::kQueueBandRows : RowLayout::kActorBandRows;
    return QRect(rect.left(), rowTop(rect, frame, flatRow - row.part), rect.width(), rows * m_style.rowHeight);
}

std::vector<TimelinePainter::RowSpan> TimelinePainter::visibleRows(const QRect& rect, const TimelineFrame& frame) const
{
    const QRect lanes = lanesArea(rect, frame.legend);
    const QRect strip = actorStrip(rect, frame.legend);
    const QRect above
        = strip.isNull() ? lanes : QRect(lanes.left(), lanes.top(), lanes.width(), strip.top() - lanes.top());
    const int first = std::max(0, frame.firstRow);
    const int scrolled = strip.isNull() ? totalRows() : m_rows.actorsTop();
    std::vector<RowSpan> spans { { first, std::min(scrolled, first + above.height() / m_style.rowHeight + 1), above,
        lanes.top() } };
    if (!strip.isNull())
        spans.push_back({ m_rows.actorsTop(), totalRows(), strip, strip.top() });
    return spans;
}

int TimelinePainter::legendHeight(int width) const
{
    syncLegend();
    return m_legend.height(width);
}

QString TimelinePainter::rowLabel(const RowRef& row) const
{
    const RunView& run = *m_model.run();
    switch (row.kind) {
    case LaneModel::QueueGroup:
        return QString::fromStdString(run.queueInfo(QueueIndex(row.group)).name);
    case LaneModel::MessageRow: {
        const MessageRecord& record = run.message(row.id);
        QString label = QString::fromStdString(laneName(run, row.id));
        // The receive count, against the maxReceiveCount in force at the lane's last receive (a DLQ turned on later
        // does not relabel what was received before it), or now for a lane not received yet.
        const QueueAttributes* attributes = run.queueAttributes(record.queue);
        const uint32_t current
            = attributes && attributes->redrivePolicy ? uint32_t(attributes->redrivePolicy->maxReceiveCount) : 0;
        const TimeMs asOf = record.receiveCount > 0 ? run.times(row.id).receivedAt : run.now();
        const uint32_t maxReceiveCount = m_model.lanes().maxReceiveCountAt(record.queue, asOf).value_or(current);
        if (maxReceiveCount > 0)
            label += QStringLiteral("  ×%1/%2").arg(record.receiveCount).arg(maxReceiveCount);
        else if (record.receiveCount > 0)
            label += QStringLiteral("  ×%1").arg(record.receiveCount);
        return label;
    }
    case LaneModel::ActorGroup:
        return QObject::tr("Consumers");
    case LaneModel::ActorRow:
        return m_model.actorName(row.id);
    case LaneModel::QueueBand:
        return QObject::tr("▸ %1 messages").arg(QLocale::system().toString(qulonglong(m_rows.lanesOfQueue(row.group))));
    case LaneModel::ActorBand: {
        const DensitySeries& density = m_model.density();
        return QObject::tr("%1 ×%2")
            .arg(QString::fromStdString(density.groupName(size_t(row.group))))
            .arg(density.groupActors(size_t(row.group)));
    }
    }
    return {};
}

void TimelinePainter::paint(QPainter& p, const QRect& rect, const TimelineFrame& frame) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    if (m_style.textPixels > 0) { // a slide's type; the screen keeps the widget's font
        QFont font = p.font();
        font.setPixelSize(m_style.textPixels);
        p.setFont(font);
    }
    p.fillRect(rect, m_style.background);
    if (!m_model.run()) {
        p.restore();
        return;
    }
    const QRect lanes = lanesArea(rect, frame.legend);
    const double left = rect.left() + m_style.labelWidth;
    const double right = rect.right();
    TimelineFrame rowFrame = frame;
    rowFrame.axis.left = left;
    const TimeAxis& axis = rowFrame.axis;

    // Grid lines at the ruler's ticks.
    p.setPen(m_style.grid);
    for (const Tick& tick : ticks(axis, right - left))
        p.drawLine(QPointF(axis.toX(tick.time), lanes.top()), QPointF(axis.toX(tick.time), lanes.bottom()));

    // Rows: only the visible ones.
    const QFont before = p.font();
    if (m_style.rowTextPixels > 0) {
        QFont grown = before;
        grown.setPixelSize(m_style.rowTextPixels);
        p.setFont(grown);
    }
    for (const RowSpan& span : visibleRows(rect, frame)) {
        p.setClipRect(span.area);
        for (int r = span.from; r < span.to; ++r) {
            const RowRef row = rowAt(r);
            const bool band = row.kind == LaneModel::QueueBand || row.kind == LaneModel::ActorBand;
            if (band && row.part > 0 && r > span.from)
                continue; // drawn whole with its first row
            const int top = span.top + (r - span.from) * m_style.rowHeight;
            const QRect box
                = band ? bandBox(rect, frame, r, row) : QRect(rect.left(), top, rect.width(), m_style.rowHeight);
            paintRow(p, box, rowFrame, row);
        }
    }
    p.setFont(before);
    p.setClipping(false);
    paintForgotten(p, lanes.united(actorStrip(rect, frame.legend)), axis);
    if (frame.selected != kNoMessage) {
        const auto rowBox = [&](int flatRow) {
            const int top = rowTop(rect, frame, flatRow);
            return flatRow < 0 || top + m_style.rowHeight < lanes.top() || top > lanes.bottom()
                ? QRect()
                : QRect(rect.left(), top, rect.width(), m_style.rowHeight);
        };
        paintFlows(p, lanes, rowFrame, m_model, m_style, rowBox(rowOfLane(frame.selected)),
            [&](uint32_t actor) { return rowBox(m_rows.rowOfActor(actor)); });
    }
    paintMeasure(p, lanes, axis, frame);
    // The "now" line, under the moments: their callouts are read over it, not struck through.
    const double nowX = axis.toX(frame.now);
    if (nowX >= left && nowX <= right) {
        p.setPen(QPen(m_style.now, 2));
        p.drawLine(QPointF(nowX, rect.top() + m_style.rulerHeight - 6), QPointF(nowX, lanes.bottom()));
    }
    const int freeTop = std::min(lanes.bottom(), rowTop(rect, frame, totalRows()));
    paintMoments(p, lanes, freeTop, placedMoments(rect, frame), frame.focusedMoment, frame.momentCallouts, m_style);

    paintRuler(p, QRect(rect.left(), rect.top(), rect.width(), m_style.rulerHeight), rowFrame);
    if (frame.legend) {
        const int height = legendHeight(rect.width());
        TimelineLegend inView(m_style);
        inView.setContent(contentInView(rect, frame));
        inView.paint(p, QRect(rect.left(), rect.bottom() - height + 1, rect.width(), height));
    }
    p.restore();
}

void TimelinePainter::paintRow(QPainter& p, const QRect& box, const TimelineFrame& frame, const RowRef& row) const
{
    const bool group = row.kind == LaneModel::QueueGroup || row.kind == LaneModel::ActorGroup;
    if (group)
        p.fillRect(box, m_style.groupBackground);
    if (row.kind == LaneModel::QueueGroup)
        paintQueueRow(p, box, frame, m_model, m_style, QueueIndex(row.group));
    else if (row.kind == LaneModel::MessageRow)
        paintMessageRow(p, box, frame, m_model, m_style, row.id);
    else if (row.kind == LaneModel::ActorRow)
        paintActorRow(p, box, frame, m_model, m_style, row.id);
    int32_t bandScale = 0;
    if (row.kind == LaneModel::QueueBand)
        bandScale
            = paintQueueBand(p, box, frame, m_model, m_style, QueueIndex(row.group), &m_rows.listedLanes(row.group));
    else if (row.kind == LaneModel::ActorBand)
        paintActorBand(p, box, frame, m_model, m_style, size_t(row.group));
    if (row.kind == LaneModel::MessageRow && row.id == frame.selected) {
        p.setPen(QPen(m_style.selection, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(box.adjusted(1, 1, -2, -2));
    }
    // Label column.
    const QRect label(box.left(), box.top(), m_style.labelWidth - 6, box.height());
    p.fillRect(label, group ? m_style.groupBackground : m_style.background);
    const QFont before = p.font();
    QFont font = before;
    font.setBold(group);
    // Type no taller than its line (rows squeezed into an export); lines too short for 7 px type lose their labels.
    const bool band = row.kind == LaneModel::QueueBand || row.kind == LaneModel::ActorBand;
    const int line = band ? std::min(box.height() / 2, m_style.rowHeight) : box.height();
    if (QFontMetrics(font).height() > line + 1)
        font.setPixelSize(std::max(1, line - 2));
    if (font.pixelSize() > 0 && font.pixelSize() < 7) {
        p.setFont(before);
        return;
    }
    p.setFont(font);
    p.setPen(m_style.text);
    const QRect first = label.adjusted(group ? 4 : 14, 0, 0, band ? line - box.height() : 0);
    const QFontMetrics metrics(font);
    QString text = rowLabel(row);
    // A queue band's count too wide for the header: "1.08M messages", or "1.08M", rather than "1,080,...messages".
    if (row.kind == LaneModel::QueueBand) {
        const QString count = compactCount(m_rows.lanesOfQueue(row.group));
        text = fittingText(
            metrics, first.width(), { text, QObject::tr("▸ %1 messages").arg(count), QStringLiteral("▸ ") + count });
    }
    p.drawText(first, Qt::AlignVCenter | Qt::AlignLeft, metrics.elidedText(text, Qt::ElideMiddle, first.width()));
    // A band's second line: its scale, or what its colours are.
    if (band) {
        QColor secondary = m_style.text;
        secondary.setAlphaF(0.7f);
        p.setPen(secondary);
        const QString scale = QLocale::system().toString(bandScale);
        const QString second = row.kind == LaneModel::QueueBand
            ? fittingText(metrics, first.width(),
                { bandScale == 1 ? QObject::tr("height: 1 message") : QObject::tr("height: %1 messages").arg(scale),
                    QObject::tr("height: %1").arg(scale), scale })
            : fittingText(metrics, first.width(), { QObject::tr("working, polling") });
        p.drawText(first.translated(0, line), Qt::AlignVCenter | Qt::AlignLeft, second);
    }
    p.setFont(before);
}

void TimelinePainter::paintMeasure(
    QPainter& p, const QRect& lanes, const TimeAxis& axis, const TimelineFrame& frame) const
{
    // A measured range: a band across the lanes and its length on the ruler.
    if (frame.measureFrom < 0 || frame.measureTo < 0 || frame.measureFrom == frame.measureTo)
        return;
    const TimeMs a = std::min(frame.measureFrom, frame.measureTo), b = std::max(frame.measureFrom, frame.measureTo);
    const double x0 = std::max(axis.left, axis.toX(a)), x1 = std::min(double(lanes.right()), axis.toX(b));
    if (x1 <= x0)
        return;
    QColor band = m_style.selection;
    band.setAlpha(40);
    p.fillRect(QRectF(x0, lanes.top(), x1 - x0, lanes.height()), band);
    p.setPen(m_style.text);
    p.drawText(QRectF(x0, lanes.top() + 2, std::max(x1 - x0, 120.0), 16), Qt::AlignLeft | Qt::AlignTop,
        QObject::tr("  %1").arg(QString::fromStdString(lifeline::formatDuration(b - a))));
}

void TimelinePainter::paintForgotten(QPainter& p, const QRect& area, const TimeAxis& axis) const
{
    const TimeMs until = m_model.lanes().forgottenUntil();
    const double from = std::max<double>(axis.left, axis.toX(0));
    const double to = std::min<double>(area.right() + 1, axis.toX(until));
    if (until <= 0 || to <= from)
        return;
    const QRectF box(from, area.top(), to - from, area.height());
    p.fillRect(box, m_style.unobserved);
    p.fillRect(box, QBrush(m_style.unobservedInk, Qt::BDiagPattern));
    // One line where it fits, else the word and what is kept below it, else the word alone.
    const QString kept = QObject::tr("the window keeps the last %1")
                             .arg(QString::fromStdString(lifeline::describeDuration(m_model.run()->historyMs())));
    const QString word = QObject::tr("forgotten");
    const QString line = QObject::tr("%1: %2 (View > History kept)").arg(word, kept);
    const QFontMetrics metrics = p.fontMetrics();
    const auto fits = [&](const QString& text) { return metrics.horizontalAdvance(text) + 16 <= box.width(); };
    const QString shown = fits(line) ? line
        : fits(kept)                 ? word + QLatin1Char('\n') + kept
        : fits(word)                 ? word
                                     : QString();
    if (shown.isEmpty())
        return;
    const int lines = int(shown.count(QLatin1Char('\n'))) + 1;
    const double width = metrics.horizontalAdvance(lines > 1 ? kept : shown) + 12;
    const QRectF plate(box.left() + (box.width() - width) / 2,
        box.top() + box.height() / 2 - metrics.height() * lines / 2.0 - 4, width, metrics.height() * lines + 8);
    p.fillRect(plate, m_style.background);
    p.setPen(m_style.text);
    p.drawText(plate, Qt::AlignCenter, shown);
}

std::vector<QRectF> TimelinePainter::paintFastSpans(QPainter& p, const QRect& area, const TimelineFrame& frame) const
{
    std::vector<QRectF> notes;
    if (!frame.fastSpans)
        return notes;
    const TimeAxis& axis = frame.axis;
    const QFontMetrics metrics = p.fontMetrics();
    for (const FastSpan& span : *frame.fastSpans) {
        const double from = std::max<double>(axis.left, axis.toX(span.from));
        const double to = std::min<double>(area.right() + 1, axis.toX(std::min(span.to, frame.now)));
        if (to <= from)
            continue;
        p.fillRect(QRectF(from, area.top(), to - from, area.height()), m_style.fastForward);
        const QString note = QStringLiteral("»%1×").arg(span.factor);
        const double width = metrics.horizontalAdvance(note) + 6;
        if (to - from < width)
            continue;
        const QRectF box(from + 3, area.top(), width, area.height() - 4);
        p.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, note);
        notes.push_back(box);
    }
    return notes;
}

void TimelinePainter::paintRuler(QPainter& p, const QRect& area, const TimelineFrame& frame) const
{
    const TimeAxis& axis = frame.axis;
    p.fillRect(area, m_style.groupBackground);
    p.setPen(m_style.text);
    const std::vector<QRectF> notes = paintFastSpans(p, area, frame);
    const double width = area.right() - axis.left;
    const QFontMetrics metrics = p.fontMetrics();
    double labelsEnd = -1e9; // a label that would run into the one before it is left out (its tick stays)
    for (const Tick& tick : ticks(axis, width)) {
        const double x = axis.toX(tick.time);
        p.drawLine(QPointF(x, area.bottom() - (tick.major ? 8 : 4)), QPointF(x, area.bottom()));
        const QString label = QString::fromStdString(tickLabel(tick.time));
        const QRectF box(x + 3, area.top(), metrics.horizontalAdvance(label), area.height());
        const auto onNote = [&](const QRectF& note) { return note.intersects(box); };
        if (x + 3 < labelsEnd || std::any_of(notes.begin(), notes.end(), onNote))
            continue;
        p.drawText(QRectF(x + 3, area.top(), 200, area.height() - 4), Qt::AlignLeft | Qt::AlignVCenter, label);
        labelsEnd = x + 3 + metrics.horizontalAdvance(label) + 8;
    }
    p.drawLine(area.bottomLeft(), area.bottomRight());
}

int TimelinePainter::rowOfMoment(const analysis::Moment& moment) const
{
    if (moment.onActorRow)
        return m_rows.rowOfActor(moment.actor);
    if (moment.lane != kNoMessage)
        return m_rows.rowOfLane(moment.lane);
    return m_rows.rowOfQueue(moment.queue);
}

std::vector<PlacedMoment> TimelinePainter::placedMoments(const QRect& rect, const TimelineFrame& frame) const
{
    std::vector<PlacedMoment> placed;
    if (!m_model.run())
        return placed;
    const QRect lanes = lanesArea(rect, frame.legend);
    const QRect strip = actorStrip(rect, frame.legend);
    TimeAxis axis = frame.axis;
    axis.left = rect.left() + m_style.labelWidth;
    const auto& moments = m_model.moments();
    for (size_t i = 0; i < moments.size(); ++i) {
        const double x = axis.toX(moments[i].at);
        if (x < axis.left || x > rect.right())
            continue;
        const int row = rowOfMoment(moments[i]);
        if (row < 0)
            continue;
        const QRect box(rect.left(), rowTop(rect, frame, row), rect.width(), m_style.rowHeight);
        if (box.bottom() < lanes.top() || box.top() > lanes.bottom())
            continue;
        if (!strip.isNull() && row < m_rows.actorsTop() && box.top() >= strip.top())
            continue; // a lane scrolled under the consumers' strip
        placed.push_back({ int(i) + 1, momentPinCentre(box, x, lanes, m_style.pinRadius), x, box,
            QString::fromStdString(moments[i].caption) });
    }
    spreadPins(placed, m_style.pinRadius);
    return placed;
}

int TimelinePainter::momentAt(const QRect& rect, const TimelineFrame& frame, QPoint at) const
{
    for (const PlacedMoment& m : placedMoments(rect, frame))
        if (std::hypot(m.pin.x() - at.x(), m.pin.y() - at.y()) <= m_style.pinRadius + 2)
            return m.number;
    return 0;
}

std::optional<RowRef> TimelinePainter::rowUnder(const QRect& rect, const TimelineFrame& frame, QPoint at) const
{
    const QRect lanes = lanesArea(rect, frame.legend);
    if (!m_model.run() || !lanes.contains(at))
        return std::nullopt;
    int flat = frame.firstRow + (at.y() - lanes.top()) / m_style.rowHeight;
    if (const QRect strip = actorStrip(rect, frame.legend); !strip.isNull()) {
        if (at.y() >= strip.top()) // the pinned consumers', under the lanes whatever their scroll
            flat = at.y() <= strip.bottom() ? m_rows.actorsTop() + (at.y() - strip.top()) / m_style.rowHeight : -1;
        else if (flat >= m_rows.actorsTop())
            return std::nullopt; // below the last lane, above the strip
    }
    if (flat < 0 || flat >= totalRows())
        return std::nullopt;
    return rowAt(flat);
}

std::optional<TimelineHit> TimelinePainter::hit(const QRect& rect, const TimelineFrame& frame, QPoint at) const
{
    if (at.x() < rect.left() + m_style.labelWidth)
        return std::nullopt;
    TimeAxis axis = frame.axis;
    axis.left = rect.left() + m_style.labelWidth;
    if (at.y() < rect.top() + m_style.rulerHeight && frame.fastSpans) {
        const TimeMs time = axis.toTime(at.x());
        for (const FastSpan& span : *frame.fastSpans)
            if (time >= span.from && time < std::min(span.to, frame.now)) {
                TimelineHit note;
                note.from = span.from;
                note.to = span.to;
                note.text = QObject::tr("No message changed state from %1 to %2: played %3× faster")
                                .arg(QString::fromStdString(lifeline::formatDuration(span.from)),
                                    QString::fromStdString(lifeline::formatDuration(span.to)))
                                .arg(span.factor);
                return note;
            }
    }
    const auto row = rowUnder(rect, frame, at);
    if (!row)
        return std::nullopt;
    return hitRow(m_model, *row, axis, frame.now, at.x());
}

} // namespace lifeline::ui
