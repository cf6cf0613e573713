#include "timeline/lane_painter.h"

#include "lifeline/timeline/noisy_spans.h"
#include "timeline/picture_text.h"

#include <QFontMetricsF>
#include <QObject>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace lifeline::ui {

using picture::LaneMark;
using picture::Segment;
using picture::SegmentReader;

namespace {
// A mark's glyph: the style's size, larger in rows grown tall (up to twice, about 40 % of the row), read from a
// distance; never taller than its row.
int markPixels(const TimelineStyle& style, int rowHeight)
{
    return std::min(std::max(style.markPixels, std::min(rowHeight * 2 / 5, style.markPixels * 2)), rowHeight - 3);
}

// A mark's plate: a little wider than its glyph (16 px for the screen's 13 px).
double markHalfWidth(const TimelineStyle& style, int rowHeight)
{
    return std::max(8.0, markPixels(style, rowHeight) * 0.62);
}

// Draws segments of one row, folding runs of sub-3-pixel pieces into one block that says how many it holds.
class SegmentWriter {
public:
    SegmentWriter(QPainter& p, const TimelineStyle& s, int top, int height, double left, double right)
        : m_p(p)
        , m_s(s)
        , m_top(top)
        , m_height(height)
        , m_left(left)
        , m_right(right)
    {
    }
    ~SegmentWriter()
    {
        flush();
        // A state that lasted no time (visible for 0 ms between two receives) is a tick in its own colour, drawn
        // over its neighbours so the instant is seen.
        for (const auto& [x, state] : m_instants)
            m_p.fillRect(QRectF(x - 1, m_top + 2, 2, m_height - 4), m_s.fill(state));
    }

    // Where the row's marks are (sorted): labels keep clear of them.
    void setMarks(std::vector<double> xs) { m_marks = std::move(xs); }

    void add(double x0, double x1, MessageState state, const QString& label, const QString& shortLabel = {})
    {
        if (x1 == x0 && x0 >= m_left && x0 <= m_right) { // it lasted no time at all
            m_instants.emplace_back(x0, state);
            return;
        }
        x0 = std::max(x0, m_left);
        x1 = std::min(x1, m_right);
        if (x1 <= x0)
            return;
        if (x1 - x0 < kMinSegmentPixels) {
            if (m_mergedCount == 0)
                m_mergedFrom = x0;
            m_mergedTo = x1;
            m_mergedState = state;
            ++m_mergedCount;
            if (m_mergedTo - m_mergedFrom >= kMinSegmentPixels * 2)
                flush();
            return;
        }
        flush();
        const QRectF box(x0, m_top + 2, x1 - x0, m_height - 4);
        m_p.fillRect(box, m_s.fill(state));
        if (m_s.statePattern[size_t(state)] != Qt::NoBrush)
            m_p.fillRect(box, m_s.pattern(state));
        // A gap of background before every segment wide enough to keep one: neighbouring states, and back-to-back
        // receives (each its own in-flight segment), apart by more than their colours.
        if (box.width() > m_s.segmentGap * 3)
            m_p.fillRect(QRectF(x0, m_top + 2, m_s.segmentGap, m_height - 4), m_s.background);
        const double room = box.width() - 6;
        if (m_height < 10 || room < 12)
            return;
        // The whole label where it fits, else its short form ("in flight #2" becomes "#2"), never a cut one; and
        // never under a mark: it starts after any mark in its way.
        if (!m_metrics)
            m_metrics.emplace(m_p.font()); // once a row, and only for a row with a segment wide enough for words
        for (const QString& text : { label, shortLabel }) {
            if (text.isEmpty())
                continue;
            const double width = m_metrics->horizontalAdvance(text);
            double start = box.left() + 4;
            for (const double mark : m_marks)
                if (const double half = markHalfWidth(m_s, m_height);
                    mark + half + 2 > start && mark - half - 2 < start + width)
                    start = mark + half + 3;
            if (start + width > box.right() - 2)
                continue;
            m_p.setPen(m_s.darkSegmentText || state == MessageState::Visible || state == MessageState::Delayed
                    ? QColor(0x10, 0x10, 0x10)
                    : QColor(0xFF, 0xFF, 0xFF));
            m_p.drawText(QRectF(start, box.top(), box.right() - 2 - start, box.height()),
                Qt::AlignVCenter | Qt::AlignLeft, text);
            return;
        }
    }

    void flush()
    {
        if (m_mergedCount == 0)
            return;
        const QRectF box(m_mergedFrom, m_top + 2, std::max(m_mergedTo - m_mergedFrom, 2.0), m_height - 4);
        if (m_mergedCount == 1) { // one short state: its own colour, 2 px at least
            m_p.fillRect(box, m_s.fill(m_mergedState));
            m_mergedCount = 0;
            return;
        }
        m_p.fillRect(box, m_s.dark ? QColor(0x80, 0x80, 0x80) : QColor(0x70, 0x70, 0x70));
        if (m_mergedCount > 1 && box.width() > 14) {
            m_p.setPen(QColor(0xFF, 0xFF, 0xFF));
            m_p.drawText(box, Qt::AlignCenter, QString::number(m_mergedCount));
        }
        m_mergedCount = 0;
    }

private:
    QPainter& m_p;
    const TimelineStyle& m_s;
    int m_top, m_height;
    double m_left, m_right;
    double m_mergedFrom = 0, m_mergedTo = 0;
    int m_mergedCount = 0;
    MessageState m_mergedState = MessageState::None;
    std::vector<std::pair<double, MessageState>> m_instants;
    std::vector<double> m_marks;
    std::optional<QFontMetricsF> m_metrics;
};

struct PlacedMark {
    double x;
    QColor color;
    QString glyph;
};

// The lane's marks in view, 4 px apart at least.
std::vector<PlacedMark> laneMarks(const EventLog& log, const LaneIndex& index, const LaneChain& chain,
    const TimeAxis& axis, double left, double right, const TimelineStyle& style)
{
    std::vector<PlacedMark> marks;
    for (uint32_t ev = chain.first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = log[ev];
        const double x = axis.toX(e.time);
        if (x > right)
            break;
        if (x < left || (!marks.empty() && x - marks.back().x < 4))
            continue;
        if (const auto mark = picture::laneMarkAt(e))
            marks.push_back({ x, laneMarkColor(*mark, style), markGlyph(*mark) });
    }
    return marks;
}

// A message in flight now: where its visibility timeout ends, a bracket "]" with a dotted line from now to it, so
// the time left is seen (and a heartbeat that extends the timeout moves the bracket).
void paintDeadline(QPainter& p, const QRect& row, const TimeAxis& axis, TimeMs now, TimeMs dueAt, double right,
    const TimelineStyle& style)
{
    const double x0 = std::max(axis.left, axis.toX(now)), x1 = axis.toX(dueAt);
    if (dueAt <= now || x1 < axis.left || x0 > right)
        return;
    const QColor ink = style.stateColor[size_t(MessageState::InFlight)];
    const double middle = row.top() + row.height() / 2.0;
    p.setPen(QPen(ink, 1, Qt::DotLine));
    p.drawLine(QPointF(x0, middle), QPointF(std::min(x1, right), middle));
    if (x1 > right)
        return;
    p.setPen(QPen(ink, 2));
    const double top = row.top() + 2, bottom = row.bottom() - 1;
    p.drawLine(QPointF(x1, top), QPointF(x1, bottom));
    p.drawLine(QPointF(x1 - 4, top), QPointF(x1, top));
    p.drawLine(QPointF(x1 - 4, bottom), QPointF(x1, bottom));
}

// A lane a timer holds, at now: "visible again in 23 s" or "receivable in 12 s" just after the now line, in the
// state's colour, large (half the row, up to twice a mark's size), so the time left is read from the back of a room
// and counts down as the clock moves. Drawn where the future is (no state to hide); not on rows too short to read.
void paintCountdown(QPainter& p, const QRect& row, const TimeAxis& axis, TimeMs now, const picture::SegmentPhrase& left,
    double right, const TimelineStyle& style)
{
    if (row.height() < 16)
        return;
    const double x = axis.toX(now) + 6;
    if (x < axis.left || x > right - 24)
        return;
    // The largest size at which the words fit before the view's edge; else the time alone ("18 s"); else nothing.
    const SegmentWords words = segmentWords(left);
    QFont font = p.font();
    const QFont rowFont = font;
    font.setBold(true);
    QString text;
    for (const QString& candidate : { words.label, words.shortLabel }) {
        for (int pixels = std::clamp(row.height() / 2, style.markPixels, style.markPixels * 2);
             pixels >= style.markPixels && text.isEmpty(); pixels -= 2) {
            font.setPixelSize(pixels);
            if (QFontMetricsF(font).horizontalAdvance(candidate) + 8 <= right - x)
                text = candidate;
        }
        if (!text.isEmpty())
            break;
    }
    if (text.isEmpty())
        return;
    p.setFont(font);
    const QFontMetricsF metrics(font);
    const QRectF plate(x, row.top() + (row.height() - metrics.height()) / 2 - 1, metrics.horizontalAdvance(text) + 8,
        metrics.height() + 2);
    p.fillRect(plate, style.background);
    const MessageState state
        = left.phrase == picture::Phrase::VisibleAgainIn ? MessageState::InFlight : MessageState::Delayed;
    p.setPen(stateInk(state, style));
    p.drawText(plate.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
    p.setFont(rowFont);
}

// Each mark's glyph outlined in the background colour so it reads over any bar, without a plate that would hide the
// state under it (the bar's colour shows around and between its strokes); at least 12 px.
void paintMarks(QPainter& p, const QRect& row, const std::vector<PlacedMark>& marks, const TimelineStyle& style)
{
    if (marks.empty())
        return;
    if (row.height() < 10) { // too short for a glyph: a coloured tick
        for (const PlacedMark& m : marks)
            p.fillRect(QRectF(m.x - 1, row.top(), 2, row.height()), m.color);
        return;
    }
    QFont font = p.font();
    font.setPixelSize(markPixels(style, row.height()));
    font.setBold(true);
    const QFontMetricsF metrics(font);
    const double baseline = row.top() + (row.height() + metrics.ascent() - metrics.descent()) / 2.0;
    const QPen halo(style.background, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    for (const PlacedMark& m : marks) {
        QPainterPath glyph;
        glyph.addText(QPointF(m.x - metrics.horizontalAdvance(m.glyph) / 2.0, baseline), font, m.glyph);
        p.strokePath(glyph, halo);
        p.fillPath(glyph, m.color);
    }
}

// The recording proxy's first sighting of a message it did not see sent: from its send (or the proxy's start) to
// then, grey and cross-hatched, "not observed", never a guessed state.
void paintNotObserved(QPainter& p, const QRect& row, const TimeAxis& axis, TimeMs from, TimeMs to, double right,
    const TimelineStyle& style)
{
    const double x0 = std::max(axis.left, axis.toX(from)), x1 = std::min(right, axis.toX(to));
    if (x1 <= x0)
        return;
    const QRectF box(x0, row.top() + 2, x1 - x0, row.height() - 4);
    p.fillRect(box, style.unobserved);
    p.fillRect(box, QBrush(style.unobservedInk, Qt::DiagCrossPattern));
}

} // namespace

QColor laneMarkColor(LaneMark mark, const TimelineStyle& style)
{
    switch (mark) {
    case LaneMark::Extended:
        return style.mark;
    case LaneMark::Crash:
    case LaneMark::ReceivedByNobody:
        return style.crash;
    case LaneMark::Duplicate:
        return style.duplicate;
    case LaneMark::DeadLetter:
        return style.stateColor[size_t(MessageState::DeadLettered)];
    case LaneMark::Expired:
        return style.stateColor[size_t(MessageState::Expired)];
    case LaneMark::Purged:
        return style.stateColor[size_t(MessageState::Purged)];
    case LaneMark::Redriven:
        return style.stateColor[size_t(MessageState::Redriven)];
    case LaneMark::Copy:
        return style.duplicate;
    case LaneMark::Count:
        break;
    }
    return style.mark;
}

QColor stateInk(MessageState state, const TimelineStyle& style)
{
    const auto luminance = [](const QColor& c) {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double under = luminance(style.background);
    const bool darkTheme = under < 0.2;
    QColor ink = style.stateColor[size_t(state)];
    for (int step = 0; step < 20; ++step) { // WCAG's ratio; 20 steps reach white or black from any colour
        const double over = luminance(ink);
        if ((std::max(over, under) + 0.05) / (std::min(over, under) + 0.05) >= 4.5)
            break;
        ink = darkTheme ? ink.lighter(112) : ink.darker(112);
    }
    return ink;
}

namespace {
// What `lifeline import` inferred from a queue's settings (no span saw it): thin crossed lines in the text's colour
// over the segment's fill, its words still readable (docs/import.md).
void paintInferred(QPainter& p, const QRect& row, double from, double to, const TimelineStyle& style)
{
    if (to <= from)
        return;
    // The lines in the ink of the segment's own label, lighter: in every theme they read as one with the label
    // instead of crossing it in the opposite colour (white lines over dark text in the dark and high-contrast themes).
    QColor ink = inkOn(style.stateColor[size_t(MessageState::Visible)]); // what the rules infer leaves visible
    ink.setAlphaF(0.35);
    p.fillRect(QRectF(from, row.top() + 4, to - from, row.height() - 8), QBrush(ink, Qt::DiagCrossPattern));
}
} // namespace

void paintMessageRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, MessageIndex lane)
{
    const RunView& run = *model.run();
    const EventLog& log = run.log();
    const LaneIndex& index = model.lanes();
    const LaneChain& chain = index.lane(lane);
    const TimeAxis& axis = frame.axis;
    const double left = axis.left, right = row.right();
    const TimeMs viewEnd = axis.toTime(right);
    SegmentWriter writer(p, style, row.top(), row.height(), left, right);
    const std::vector<PlacedMark> marks = laneMarks(log, index, chain, axis, left, right, style);
    std::vector<double> markXs;
    markXs.reserve(marks.size());
    for (const PlacedMark& m : marks)
        markXs.push_back(m.x);
    writer.setMarks(markXs);
    if (chain.first != kNoEvent && log[chain.first].cause == Cause::FirstSeen)
        paintNotObserved(p, row, axis, run.times(lane).sentAt, log[chain.first].time, right, style);
    const bool atNow = frame.now == run.now(); // the lane's deadline is now's, not a past frame's
    std::vector<std::pair<double, double>> inferred; // hatched over the segments once they are drawn
    SegmentReader segments(run, lane, atNow);
    segments.beginAfterForgotten(index);
    for (uint32_t ev = chain.first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = log[ev];
        const MessageState state = segments.current().state;
        if (e.time > viewEnd && state != MessageState::None && !isLive(state))
            break;
        if (const auto ended = segments.read(e)) {
            const SegmentWords words = segmentWords(segments.phrase(*ended));
            writer.add(axis.toX(ended->start.time), axis.toX(e.time), ended->state, words.label, words.shortLabel);
            if (ended->start.inferred())
                inferred.emplace_back(axis.toX(ended->start.time), axis.toX(e.time));
        }
        if (picture::isTransition(e)
            && !isLive(e.to)) { // the lane ends here: an end cap in the terminal state's colour
            writer.flush();
            const double x = axis.toX(e.time);
            if (x >= left && x <= right)
                p.fillRect(QRectF(x, row.top() + 3, 4, row.height() - 6), style.fill(e.to));
        }
    }
    const Segment& last = segments.current();
    const MessageState state = last.state;
    if (isLive(state)) {
        const SegmentWords words = segmentWords(segments.phrase(last));
        writer.add(axis.toX(last.start.time), axis.toX(std::max(last.start.time, frame.now)), state, words.label,
            words.shortLabel);
        if (last.start.inferred())
            inferred.emplace_back(axis.toX(last.start.time), axis.toX(std::max(last.start.time, frame.now)));
    }
    writer.flush();
    for (const auto& [from, to] : inferred)
        paintInferred(p, row, std::max(from, left), std::min(to, right), style);
    if (state == MessageState::InFlight && atNow)
        paintDeadline(p, row, axis, frame.now, run.times(lane).dueAt, right, style);
    paintMarks(p, row, marks, style);
    if (atNow)
        if (const auto left = picture::laneCountdown(run, lane))
            paintCountdown(p, row, axis, frame.now, *left, right, style);
}

namespace {
// Fair queues: a band along the queue's row while a tenant is noisy, named where it fits ("tenant-a noisy"); tenants
// noisy at once share the row's height.
void paintNoisyTenants(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue)
{
    const std::vector<NoisySpan> spans = noisySpans(*model.run(), model.lanes(), queue, frame.now);
    int levels = 1;
    for (const NoisySpan& s : spans)
        levels = std::max(levels, s.slot + 1);
    const double height = double(row.height() - 4) / levels;
    QColor fill = style.crash;
    fill.setAlphaF(0.22F);
    for (const NoisySpan& s : spans) {
        const double left = std::max(frame.axis.toX(s.from), frame.axis.left);
        const double right = std::min(frame.axis.toX(s.to), double(row.right()));
        if (right <= left)
            continue;
        const QRectF band(left, row.top() + 2 + s.slot * height, right - left, height);
        p.fillRect(band, fill);
        p.fillRect(QRectF(left, band.top(), 2, band.height()), style.crash);
        const QString name = QObject::tr("%1 noisy").arg(QString::fromStdString(s.tenant));
        if (QFontMetricsF(p.font()).horizontalAdvance(name) + 8 <= band.width() && band.height() >= 10) {
            p.setPen(style.text);
            p.drawText(band.adjusted(6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, name);
        }
    }
}
} // namespace

void paintQueueRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue)
{
    paintNoisyTenants(p, row, frame, model, style, queue);
    // Operator actions and warnings first: a refusal at the same instant (a refused change) is drawn over them.
    double lastNote = -1e9;
    const EventLog& events = model.run()->log();
    for (const uint32_t ev : model.lanes().notes(queue)) {
        const double x = frame.axis.toX(events[ev].time);
        if (x < frame.axis.left || x > row.right() || x - lastNote < 11)
            continue;
        lastNote = x;
        const Cause cause = events[ev].cause;
        const bool warning = cause == Cause::Warning || cause == Cause::FaultInjected;
        const QRectF badge(x - 5, row.top() + 3, 10, row.height() - 6);
        if (cause == Cause::AlarmFired || cause == Cause::AlarmOk) { // a bell: ringing in the crash's red, or quiet
            p.fillRect(
                badge, cause == Cause::AlarmFired ? style.crash : style.stateColor[size_t(MessageState::Deleted)]);
            p.setPen(QColor(0xFF, 0xFF, 0xFF));
            p.drawText(badge, Qt::AlignCenter, QStringLiteral("\u237E"));
            continue;
        }
        p.fillRect(badge, warning ? style.stateColor[size_t(MessageState::Delayed)] : style.mark);
        p.setPen(style.background);
        p.drawText(badge, Qt::AlignCenter, warning ? QStringLiteral("!") : QStringLiteral("\u2699"));
    }
    const auto& refusals = model.lanes().refusals(queue);
    const EventLog& log = model.run()->log();
    double last = -1e9;
    for (const uint32_t ev : refusals) {
        const double x = frame.axis.toX(log[ev].time);
        if (x < frame.axis.left || x > row.right() || x - last < 11)
            continue;
        last = x;
        // A badge, wider than the "now" line: a request refused this very instant stays visible under it.
        const QRectF badge(x - 5, row.top() + 3, 10, row.height() - 6);
        p.fillRect(badge, style.crash);
        p.setPen(QColor(0xFF, 0xFF, 0xFF));
        p.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
    }
}

} // namespace lifeline::ui
