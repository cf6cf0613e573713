#include "timeline/timeline_painter.h"

#include "lifeline/event_text.h"
#include "lifeline/sim/duration.h"

#include <QFontMetrics>
#include <algorithm>

namespace lifeline::ui {

namespace {
constexpr double kMinSegmentPixels = 3.0; // narrower segments merge into one counted block

bool isTransition(const Event& e)
{
    return e.cause != Cause::RequestRefused && e.from != e.to;
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
    ~SegmentWriter() { flush(); }

    void add(double x0, double x1, MessageState state, const QString& label)
    {
        x0 = std::max(x0, m_left);
        x1 = std::min(x1, m_right);
        if (x1 <= x0)
            return;
        if (x1 - x0 < kMinSegmentPixels) {
            if (m_mergedCount == 0)
                m_mergedFrom = x0;
            m_mergedTo = x1;
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
        // Each receive starts its own in-flight segment: a hairline keeps back-to-back receives apart.
        if (state == MessageState::InFlight && box.width() > 4)
            m_p.fillRect(QRectF(x0, m_top + 2, 1, m_height - 4), m_s.background);
        if (!label.isEmpty() && box.width() > 60 && m_height >= 10) {
            m_p.setPen(state == MessageState::Visible || state == MessageState::Delayed ? QColor(0x10, 0x10, 0x10)
                                                                                        : QColor(0xFF, 0xFF, 0xFF));
            m_p.drawText(box.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, label);
        }
    }

    void flush()
    {
        if (m_mergedCount == 0)
            return;
        const QRectF box(m_mergedFrom, m_top + 2, std::max(m_mergedTo - m_mergedFrom, 1.0), m_height - 4);
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
};

// The first 8 hex digits of the MessageId: what a lane label shows.
QString shortId(const MessageRecord& record)
{
    return QStringLiteral("%1").arg(uint32_t(record.idHi >> 32), 8, 16, QLatin1Char('0'));
}

QString stateLabel(MessageState state, uint32_t receiveCount)
{
    switch (state) {
    case MessageState::Delayed:
        return QObject::tr("delayed");
    case MessageState::Visible:
        return QObject::tr("visible");
    case MessageState::InFlight:
        return QObject::tr("in flight #%1").arg(receiveCount);
    default:
        return {};
    }
}
} // namespace

TimelinePainter::TimelinePainter(const LaneModel& model, const TimelineStyle& style)
    : m_model(model)
    , m_style(style)
{
}

void TimelinePainter::setFilter(const LaneFilter& filter)
{
    m_filter = filter;
    refreshFilter();
}

const LaneModel::Lanes& TimelinePainter::lanesOf(int group) const
{
    if (m_filter.active() && size_t(group) < m_filtered.size())
        return m_filtered[size_t(group)];
    return m_model.lanesOfGroup(group);
}

size_t TimelinePainter::shownLanes() const
{
    size_t n = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        n += lanesOf(g).size();
    return n;
}

bool TimelinePainter::matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const
{
    const Engine& engine = *m_model.engine();
    const LaneChain& chain = m_model.lanes().lane(lane);
    switch (m_filter.state) {
    case LaneFilter::State::All:
        break;
    case LaneFilter::State::Live:
        if (!isLive(chain.state))
            return false;
        break;
    case LaneFilter::State::InFlight:
        if (chain.state != MessageState::InFlight)
            return false;
        break;
    case LaneFilter::State::Ended:
        if (isLive(chain.state))
            return false;
        break;
    case LaneFilter::State::DeadLettered:
        if (chain.state != MessageState::DeadLettered
            && !(engine.extra(lane) && !engine.extra(lane)->deadLetterQueueSourceArn.empty()))
            return false;
        break;
    case LaneFilter::State::Duplicates:
        if (chain.duplicates == 0)
            return false;
        break;
    }
    if (m_filter.text.isEmpty())
        return true;
    if (lane < workedOnByNamedActor.size() && workedOnByNamedActor[lane])
        return true;
    const MessageRecord& record = engine.message(lane);
    const std::string needle = m_filter.text.toStdString();
    if (record.messageId().starts_with(needle) || record.body.find(needle) != std::string::npos)
        return true;
    const MessageExtra* extra = engine.extra(lane);
    return extra && extra->groupId == needle;
}

void TimelinePainter::refreshFilter()
{
    m_filtered.clear();
    if (!m_filter.active() || !m_model.engine())
        return;
    // A consumer's name selects the messages it worked on.
    std::vector<bool> workedOn;
    const LaneIndex& index = m_model.lanes();
    for (const uint32_t actor : m_model.shownActors()) {
        if (m_model.actorName(actor).compare(m_filter.text, Qt::CaseInsensitive) != 0)
            continue;
        workedOn.resize(index.laneCount(), false);
        const auto& steps = index.actorSteps(actor);
        for (size_t i = 0; i < steps.size(); ++i)
            if (steps[i].cause() == Cause::ProcessingStarted && steps[i].lane() < workedOn.size())
                workedOn[steps[i].lane()] = true;
    }
    m_filtered.resize(size_t(m_model.queueGroupCount()));
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        for (const MessageIndex lane : m_model.lanesOfGroup(g))
            if (matches(lane, workedOn))
                m_filtered[size_t(g)].push_back(lane);
}

int TimelinePainter::totalRows() const
{
    int rows = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        rows += 1 + int(lanesOf(g).size());
    return rows + 1 + int(m_model.shownActors().size());
}

RowRef TimelinePainter::rowAt(int flatRow) const
{
    for (int g = 0; g < m_model.queueGroupCount(); ++g) {
        const int lanes = int(lanesOf(g).size());
        if (flatRow == 0)
            return RowRef { LaneModel::QueueGroup, g, 0 };
        if (flatRow <= lanes)
            return RowRef { LaneModel::MessageRow, g, lanesOf(g)[size_t(flatRow - 1)] };
        flatRow -= lanes + 1;
    }
    if (flatRow <= 0)
        return RowRef { LaneModel::ActorGroup, 0, 0 };
    const auto& actors = m_model.shownActors();
    return RowRef { LaneModel::ActorRow, 0, actors[std::min<size_t>(size_t(flatRow - 1), actors.size() - 1)] };
}

int TimelinePainter::rowOfLane(MessageIndex lane) const
{
    const QModelIndex index = m_model.indexOfLane(lane);
    if (!index.isValid())
        return -1;
    const int group = index.parent().row();
    int row = 0;
    for (int g = 0; g < group; ++g)
        row += 1 + int(lanesOf(g).size());
    const auto& lanes = lanesOf(group);
    const auto it = std::lower_bound(lanes.begin(), lanes.end(), lane);
    if (it == lanes.end() || *it != lane)
        return -1; // filtered out
    return row + 1 + int(it - lanes.begin());
}

QRect TimelinePainter::lanesArea(const QRect& rect, bool legend) const
{
    return rect.adjusted(0, m_style.rulerHeight, 0, legend ? -legendHeight(rect.width()) : 0);
}

int TimelinePainter::rowsVisible(const QRect& rect) const
{
    return lanesArea(rect, true).height() / m_style.rowHeight + 1;
}

int TimelinePainter::rowTop(const QRect& rect, const TimelineFrame& frame, int flatRow) const
{
    return lanesArea(rect, frame.legend).top() + (flatRow - frame.firstRow) * m_style.rowHeight;
}

QString TimelinePainter::rowLabel(const RowRef& row) const
{
    const Engine& engine = *m_model.engine();
    switch (row.kind) {
    case LaneModel::QueueGroup:
        return QString::fromStdString(engine.queueInfo(QueueIndex(row.group)).name);
    case LaneModel::MessageRow: {
        const MessageRecord& record = engine.message(row.id);
        QString label = shortId(record);
        // The receive count, against maxReceiveCount when the queue has a DLQ.
        const QueueAttributes* attributes = engine.queueAttributes(record.queue);
        if (attributes && attributes->redrivePolicy)
            label
                += QStringLiteral("  ×%1/%2").arg(record.receiveCount).arg(attributes->redrivePolicy->maxReceiveCount);
        else if (record.receiveCount > 0)
            label += QStringLiteral("  ×%1").arg(record.receiveCount);
        return label;
    }
    case LaneModel::ActorGroup:
        return QObject::tr("Consumers");
    case LaneModel::ActorRow:
        return m_model.actorName(row.id);
    }
    return {};
}

void TimelinePainter::paint(QPainter& p, const QRect& rect, const TimelineFrame& frame) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect, m_style.background);
    if (!m_model.engine()) {
        p.restore();
        return;
    }
    const QRect lanes = lanesArea(rect, frame.legend);
    const double left = rect.left() + m_style.labelWidth;
    const double right = rect.right();
    TimeAxis axis = frame.axis;
    axis.left = left;

    // Grid lines at the ruler's ticks.
    p.setPen(m_style.grid);
    for (const Tick& tick : ticks(axis, right - left))
        p.drawLine(QPointF(axis.toX(tick.time), lanes.top()), QPointF(axis.toX(tick.time), lanes.bottom()));

    // Rows: only the visible ones.
    const int total = totalRows();
    const int last = std::min(total, frame.firstRow + lanes.height() / m_style.rowHeight + 1);
    p.setClipRect(lanes);
    for (int r = std::max(0, frame.firstRow); r < last; ++r) {
        const RowRef row = rowAt(r);
        const QRect box(
            rect.left(), lanes.top() + (r - frame.firstRow) * m_style.rowHeight, rect.width(), m_style.rowHeight);
        const bool group = row.kind == LaneModel::QueueGroup || row.kind == LaneModel::ActorGroup;
        if (group)
            p.fillRect(box, m_style.groupBackground);
        TimelineFrame rowFrame = frame;
        rowFrame.axis = axis;
        if (row.kind == LaneModel::QueueGroup)
            paintRefusals(p, box, rowFrame, QueueIndex(row.group));
        if (row.kind == LaneModel::MessageRow)
            paintMessage(p, box, rowFrame, row.id);
        else if (row.kind == LaneModel::ActorRow)
            paintActor(p, box, rowFrame, row.id);
        if (row.kind == LaneModel::MessageRow && row.id == frame.selected) {
            p.setPen(QPen(m_style.selection, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(box.adjusted(1, 1, -2, -2));
        }
        // Label column.
        QRect label(rect.left(), box.top(), m_style.labelWidth - 6, box.height());
        p.fillRect(label, group ? m_style.groupBackground : m_style.background);
        QFont font = p.font();
        font.setBold(group);
        p.setFont(font);
        p.setPen(m_style.text);
        // Rows too short for text (a whole run squeezed into an export) keep their colours and lose their labels.
        if (group || m_style.rowHeight >= 10)
            p.drawText(label.adjusted(group ? 4 : 14, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, rowLabel(row));
        font.setBold(false);
        p.setFont(font);
    }
    p.setClipping(false);

    // A measured range: a band across the lanes and its length on the ruler.
    if (frame.measureFrom >= 0 && frame.measureTo >= 0 && frame.measureFrom != frame.measureTo) {
        const TimeMs a = std::min(frame.measureFrom, frame.measureTo), b = std::max(frame.measureFrom, frame.measureTo);
        const double x0 = std::max(left, axis.toX(a)), x1 = std::min(right, axis.toX(b));
        if (x1 > x0) {
            QColor band = m_style.selection;
            band.setAlpha(40);
            p.fillRect(QRectF(x0, lanes.top(), x1 - x0, lanes.height()), band);
            p.setPen(m_style.text);
            p.drawText(QRectF(x0, lanes.top() + 2, std::max(x1 - x0, 120.0), 16), Qt::AlignLeft | Qt::AlignTop,
                QObject::tr("  %1").arg(QString::fromStdString(sim::formatDuration(b - a))));
        }
    }

    // The "now" line.
    const double nowX = axis.toX(frame.now);
    if (nowX >= left && nowX <= right) {
        p.setPen(QPen(m_style.now, 2));
        p.drawLine(QPointF(nowX, rect.top() + m_style.rulerHeight - 6), QPointF(nowX, lanes.bottom()));
    }
    paintRuler(p, QRect(rect.left(), rect.top(), rect.width(), m_style.rulerHeight), axis);
    if (frame.legend) {
        const int height = legendHeight(rect.width());
        paintLegend(p, QRect(rect.left(), rect.bottom() - height + 1, rect.width(), height));
    }
    p.restore();
}

void TimelinePainter::paintRuler(QPainter& p, const QRect& area, const TimeAxis& axis) const
{
    p.fillRect(area, m_style.groupBackground);
    p.setPen(m_style.text);
    const double width = area.right() - axis.left;
    const TimeMs step = tickStep(axis.msPerPixel);
    for (const Tick& tick : ticks(axis, width)) {
        const double x = axis.toX(tick.time);
        p.drawLine(QPointF(x, area.bottom() - (tick.major ? 8 : 4)), QPointF(x, area.bottom()));
        p.drawText(QRectF(x + 3, area.top(), 90, area.height() - 4), Qt::AlignLeft | Qt::AlignVCenter,
            QString::fromStdString(tickLabel(tick.time, step)));
    }
    p.drawLine(area.bottomLeft(), area.bottomRight());
}

void TimelinePainter::paintMessage(QPainter& p, const QRect& row, const TimelineFrame& frame, MessageIndex lane) const
{
    const Engine& engine = *m_model.engine();
    const EventLog& log = engine.log();
    const LaneIndex& index = m_model.lanes();
    const LaneChain& chain = index.lane(lane);
    const TimeAxis& axis = frame.axis;
    const double left = axis.left, right = row.right();
    const TimeMs viewEnd = axis.toTime(right);
    SegmentWriter writer(p, m_style, row.top(), row.height(), left, right);
    MessageState state = MessageState::None;
    TimeMs since = 0;
    uint32_t receives = 0;
    double lastMarkX = -1e9;
    const auto mark = [&](double x, const QColor& color, const QString& glyph) {
        if (x < left || x > right || x - lastMarkX < 4)
            return;
        lastMarkX = x;
        if (row.height() < 10) { // too short for a glyph: a coloured tick
            p.fillRect(QRectF(x - 1, row.top(), 2, row.height()), color);
            return;
        }
        p.setPen(color);
        p.drawText(QRectF(x - 6, row.top() - 1, 12, row.height()), Qt::AlignCenter, glyph);
    };
    struct PendingMark {
        double x;
        QColor color;
        QString glyph;
    };
    std::vector<PendingMark> marks;
    for (uint32_t ev = chain.first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = log[ev];
        if (e.time > viewEnd && state != MessageState::None && !isLive(state))
            break;
        if (isTransition(e)) {
            if (isLive(state))
                writer.add(axis.toX(since), axis.toX(e.time), state, stateLabel(state, receives));
            state = e.to;
            since = e.time;
            if (e.cause == Cause::Receive)
                receives = e.receiveNumber();
            if (!isLive(state)) { // the lane ends here: an end cap in the terminal state's colour
                writer.flush();
                const double x = axis.toX(e.time);
                if (x >= left && x <= right)
                    p.fillRect(QRectF(x, row.top() + 3, 4, row.height() - 6), m_style.fill(state));
            }
        }
        const double x = axis.toX(e.time);
        if (e.cause == Cause::VisibilityChanged && e.to == MessageState::InFlight)
            marks.push_back({ x, m_style.mark, QStringLiteral("◆") });
        else if (e.cause == Cause::ConsumerCrashed)
            marks.push_back({ x, m_style.crash, QStringLiteral("✕") });
        else if (e.cause == Cause::ProcessingStarted && e.duplicate())
            marks.push_back({ x, m_style.duplicate, QStringLiteral("2×") });
        else if (e.cause == Cause::MoveToDlq)
            marks.push_back({ x, m_style.stateColor[size_t(MessageState::DeadLettered)], QStringLiteral("➜") });
        else if (e.cause == Cause::ReceivedByNobody) // received by a crashed consumer: back after the timeout
            marks.push_back({ x, m_style.crash, QStringLiteral("⊘") });
    }
    if (isLive(state))
        writer.add(axis.toX(since), axis.toX(std::max(since, frame.now)), state, stateLabel(state, receives));
    writer.flush();
    for (const auto& m : marks)
        mark(m.x, m.color, m.glyph);
}

void TimelinePainter::paintRefusals(QPainter& p, const QRect& row, const TimelineFrame& frame, QueueIndex queue) const
{
    // Operator actions and warnings first: a refusal at the same instant (a refused change) is drawn over them.
    double lastNote = -1e9;
    const EventLog& events = m_model.engine()->log();
    for (const uint32_t ev : m_model.lanes().notes(queue)) {
        const double x = frame.axis.toX(events[ev].time);
        if (x < frame.axis.left || x > row.right() || x - lastNote < 11)
            continue;
        lastNote = x;
        const bool warning = events[ev].cause == Cause::Warning;
        const QRectF badge(x - 5, row.top() + 3, 10, row.height() - 6);
        p.fillRect(badge, warning ? m_style.stateColor[size_t(MessageState::Delayed)] : m_style.mark);
        p.setPen(m_style.background);
        p.drawText(badge, Qt::AlignCenter, warning ? QStringLiteral("!") : QStringLiteral("\u2699"));
    }
    const auto& refusals = m_model.lanes().refusals(queue);
    const EventLog& log = m_model.engine()->log();
    double last = -1e9;
    for (const uint32_t ev : refusals) {
        const double x = frame.axis.toX(log[ev].time);
        if (x < frame.axis.left || x > row.right() || x - last < 11)
            continue;
        last = x;
        // A badge, wider than the "now" line: a request refused this very instant stays visible under it.
        const QRectF badge(x - 5, row.top() + 3, 10, row.height() - 6);
        p.fillRect(badge, m_style.crash);
        p.setPen(QColor(0xFF, 0xFF, 0xFF));
        p.drawText(badge, Qt::AlignCenter, QStringLiteral("!"));
    }
}

void TimelinePainter::paintActor(QPainter& p, const QRect& row, const TimelineFrame& frame, uint32_t actor) const
{
    const Engine& engine = *m_model.engine();
    const LaneIndex& index = m_model.lanes();
    const TimeAxis& axis = frame.axis;
    const double left = axis.left, right = row.right();
    // Hundreds of thousands of steps a frame at a far zoom: one multiplication each, not a division.
    const double pixelsPerMs = 1.0 / axis.msPerPixel;
    const auto xOf = [&](TimeMs t) { return left + double(t - axis.start) * pixelsPerMs; };
    // Millisecond jobs at a zoom of minutes would be thousands of sub-pixel boxes: each layer keeps one pending
    // run that grows while bars touch, and is drawn once when a gap (or another colour) comes.
    struct Run {
        double x0 = 0, x1 = -1;
        QColor color;
    };
    Run runs[3];
    const auto flush = [&](int layer, int inset) {
        Run& run = runs[layer];
        if (run.x1 > run.x0)
            p.fillRect(QRectF(run.x0, row.top() + inset, run.x1 - run.x0, row.height() - 2 * inset), run.color);
        run = Run {};
    };
    const auto bar = [&](TimeMs from, TimeMs to, const QColor& color, int inset, MessageIndex labelLane,
                         const QString& label = {}) {
        const double fromX = xOf(from), toX = xOf(to);
        if (toX < left || fromX > right)
            return; // wholly outside the view
        double x0 = std::max(left, fromX);
        const double x1 = std::min(right, std::max(toX, x0 + 1.0));
        const int layer = inset == 6 ? 0 : inset == 2 ? 1 : 2;
        if (x1 <= x0)
            return;
        Run& run = runs[layer];
        const bool narrow = x1 - x0 < kMinSegmentPixels;
        if (narrow && run.x1 > run.x0 && run.color == color && x0 <= run.x1 + 0.5) {
            run.x1 = std::max(run.x1, x1);
            return;
        }
        flush(layer, inset);
        if (x1 - x0 >= kMinSegmentPixels) {
            // Wide enough to read: its own box, a hairline where it starts, and its label when it fits.
            const QRectF box(x0, row.top() + inset, x1 - x0, row.height() - 2 * inset);
            p.fillRect(box, color);
            p.fillRect(QRectF(x0, box.top(), 1, box.height()), m_style.background);
            if (x1 - x0 > 60 && (labelLane != kNoMessage || !label.isEmpty())) {
                p.setPen(QColor(0xFF, 0xFF, 0xFF));
                p.drawText(box.adjusted(3, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                    labelLane != kNoMessage ? shortId(engine.message(labelLane)) : label);
            }
            return;
        }
        run = Run { x0, x1, color };
    };
    constexpr TimeMs kNone = INT64_MIN; // plain sentinels: GCC 12 misreads std::optional here
    TimeMs polling = kNone, working = kNone, crashed = kNone;
    MessageIndex workingOn = kNoMessage;
    double lastTick = -1;
    // Binary search for the view's start, then a few events back to know what was open at that moment.
    const auto& steps = index.actorSteps(actor);
    const TimeMs viewStart = axis.toTime(left), viewEnd = axis.toTime(right);
    size_t from = index.firstStepAt(actor, viewStart);
    from = from > 8 ? from - 8 : 0; // a few steps back: enough to know which poll, job or crash is open
    for (size_t i = from; i < steps.size(); ++i) {
        const ActorStep& step = steps[i];
        const TimeMs time = step.time;
        if (time > viewEnd)
            break;
        switch (step.cause()) {
        case Cause::PollEnded: // one step per poll: its length rides in the lane field
            if (step.lane() == 0) {
                // A receive answered at once: a tick at the row's top, clear of the work boxes and their gaps;
                // one per pixel column however many land there.
                const double x = std::floor(xOf(time));
                if (x >= left && x <= right && x != lastTick) {
                    p.fillRect(QRectF(x, row.top() + 1, 1, 4), m_style.polling);
                    lastTick = x;
                }
                break;
            }
            bar(time - TimeMs(step.lane()), time, m_style.polling, 6, kNoMessage);
            break;
        case Cause::ProcessingStarted:
            working = time;
            workingOn = step.lane();
            break;
        case Cause::ProcessingFinished:
        case Cause::ProcessingFailed:
            if (working != kNone)
                bar(working, time, step.cause() == Cause::ProcessingFailed ? m_style.failed : m_style.working, 2,
                    workingOn);
            working = kNone;
            break;
        case Cause::ConsumerCrashed:
            if (working != kNone)
                bar(working, time, m_style.failed, 2, kNoMessage);
            working = polling = kNone;
            crashed = time;
            break;
        case Cause::ConsumerRestarted:
            if (crashed != kNone)
                bar(crashed, time, m_style.crash, 7, kNoMessage);
            crashed = kNone;
            break;
        default:
            break;
        }
    }
    const TimeMs until = std::min(frame.now, viewEnd);
    if (index.openPollSince(actor) >= 0 && crashed == kNone)
        polling = index.openPollSince(actor);
    if (polling != kNone)
        bar(polling, until, m_style.polling, 6, kNoMessage);
    if (working != kNone)
        bar(working, until, m_style.working, 2, workingOn);
    if (crashed != kNone)
        bar(crashed, until, m_style.crash, 7, kNoMessage, QObject::tr("crashed"));
    flush(0, 6);
    flush(1, 2);
    flush(2, 7);
}

namespace {
// One entry of the legend: a swatch (a state's colour and pattern, or a plain colour) and its name, or a coloured
// text alone (the marks).
struct LegendEntry {
    enum Kind { State, Swatch, Text } kind;
    MessageState state = MessageState::None;
    QColor colour;
    QString name;
};

constexpr int kLegendSwatch = 22;
constexpr int kLegendGap = 16;

QFont legendFont()
{
    QFont font;
    font.setPixelSize(12);
    return font;
}

std::vector<LegendEntry> legendEntries(const TimelineStyle& style)
{
    std::vector<LegendEntry> entries;
    const std::pair<MessageState, QString> states[] = {
        { MessageState::Delayed, QObject::tr("delayed") },
        { MessageState::Visible, QObject::tr("visible") },
        { MessageState::InFlight, QObject::tr("in flight") },
        { MessageState::Deleted, QObject::tr("deleted") },
        { MessageState::DeadLettered, QObject::tr("dead-lettered") },
        { MessageState::Expired, QObject::tr("expired") },
        { MessageState::Purged, QObject::tr("purged") },
        { MessageState::Redriven, QObject::tr("redriven") },
    };
    for (const auto& [state, name] : states)
        entries.push_back({ LegendEntry::State, state, {}, name });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("2× duplicate") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("✕ crash") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("◆ extended") });
    entries.push_back({ LegendEntry::Text, MessageState::None, style.duplicate, QObject::tr("⊘ received by nobody") });
    entries.push_back({ LegendEntry::Swatch, MessageState::None, style.working, QObject::tr("working") });
    entries.push_back({ LegendEntry::Swatch, MessageState::None, style.failed, QObject::tr("failed") });
    return entries;
}

int legendEntryWidth(const LegendEntry& entry, const QFontMetrics& metrics)
{
    return (entry.kind == LegendEntry::Text ? 0 : kLegendSwatch + 4) + metrics.horizontalAdvance(entry.name);
}

// Where each entry goes when the legend flows over lines of `width` pixels: (line, x) per entry.
std::vector<std::pair<int, int>> legendLayout(const std::vector<LegendEntry>& entries, int width)
{
    const QFontMetrics metrics(legendFont());
    std::vector<std::pair<int, int>> placed;
    int line = 0;
    int x = 8;
    for (const LegendEntry& entry : entries) {
        const int w = legendEntryWidth(entry, metrics);
        if (x > 8 && x + w > width - 8) {
            ++line;
            x = 8;
        }
        placed.emplace_back(line, x);
        x += w + kLegendGap;
    }
    return placed;
}
} // namespace

int TimelinePainter::legendHeight(int width) const
{
    // Asked for every row placed: laid out once per width.
    if (width != m_legendWidth) {
        const auto placed = legendLayout(legendEntries(m_style), width);
        m_legendWidth = width;
        m_legendLines = placed.empty() ? 1 : placed.back().first + 1;
    }
    return m_legendLines * m_style.legendHeight;
}

void TimelinePainter::paintLegend(QPainter& p, const QRect& area) const
{
    p.fillRect(area, m_style.groupBackground);
    p.setFont(legendFont());
    const auto entries = legendEntries(m_style);
    const auto placed = legendLayout(entries, area.width());
    const int lineHeight = m_style.legendHeight;
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& entry = entries[i];
        const int x = area.left() + placed[i].second;
        const int top = area.top() + placed[i].first * lineHeight;
        int textX = x;
        if (entry.kind != LegendEntry::Text) {
            const QRect swatch(x, top + 6, kLegendSwatch, lineHeight - 12);
            if (entry.kind == LegendEntry::State) {
                p.fillRect(swatch, m_style.fill(entry.state));
                if (m_style.statePattern[size_t(entry.state)] != Qt::NoBrush)
                    p.fillRect(swatch, m_style.pattern(entry.state));
            } else {
                p.fillRect(swatch, entry.colour);
            }
            textX += kLegendSwatch + 4;
        }
        p.setPen(entry.kind == LegendEntry::Text ? entry.colour : m_style.text);
        p.drawText(QRect(textX, top, area.right() - textX, lineHeight), Qt::AlignVCenter | Qt::AlignLeft, entry.name);
    }
}

std::optional<RowRef> TimelinePainter::rowUnder(const QRect& rect, const TimelineFrame& frame, QPoint at) const
{
    const QRect lanes = lanesArea(rect, frame.legend);
    if (!m_model.engine() || !lanes.contains(at))
        return std::nullopt;
    const int flat = frame.firstRow + (at.y() - lanes.top()) / m_style.rowHeight;
    if (flat >= totalRows())
        return std::nullopt;
    return rowAt(flat);
}

std::optional<TimelineHit> TimelinePainter::hit(const QRect& rect, const TimelineFrame& frame, QPoint at) const
{
    const QRect lanes = lanesArea(rect, frame.legend);
    if (!m_model.engine() || !lanes.contains(at) || at.x() < rect.left() + m_style.labelWidth)
        return std::nullopt;
    const int flat = frame.firstRow + (at.y() - lanes.top()) / m_style.rowHeight;
    if (flat >= totalRows())
        return std::nullopt;
    TimelineHit out;
    out.row = rowAt(flat);
    TimeAxis axis = frame.axis;
    axis.left = rect.left() + m_style.labelWidth;
    if (out.row.kind == LaneModel::QueueGroup) {
        // A refused request under the cursor: SQS's own text.
        for (const uint32_t ev : m_model.lanes().refusals(QueueIndex(out.row.group))) {
            const Event& e = m_model.engine()->log()[ev];
            if (std::abs(axis.toX(e.time) - at.x()) <= 5) {
                out.from = out.to = e.time;
                out.text = QObject::tr("refused at %1\n%2")
                               .arg(QString::fromStdString(sim::formatDuration(e.time)),
                                   QString::fromStdString(eventDetail(*m_model.engine(), e)));
                return out;
            }
        }
        // An operator action or a warning: what was done or said.
        for (const uint32_t ev : m_model.lanes().notes(QueueIndex(out.row.group))) {
            const Event& e = m_model.engine()->log()[ev];
            if (std::abs(axis.toX(e.time) - at.x()) <= 5) {
                out.from = out.to = e.time;
                out.text
                    = (e.cause == Cause::Warning ? QObject::tr("warning at %1\n%2") : QObject::tr("operator at %1\n%2"))
                          .arg(QString::fromStdString(sim::formatDuration(e.time)),
                              QString::fromStdString(eventDetail(*m_model.engine(), e)));
                return out;
            }
        }
        return std::nullopt;
    }
    if (out.row.kind != LaneModel::MessageRow)
        return std::nullopt;
    const TimeMs t = axis.toTime(at.x());
    const Engine& engine = *m_model.engine();
    const LaneIndex& index = m_model.lanes();
    MessageState state = MessageState::None;
    TimeMs since = 0;
    const Event* cause = nullptr; // the transition that began the segment under the cursor
    for (uint32_t ev = index.lane(out.row.id).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = engine.log()[ev];
        if (!isTransition(e))
            continue;
        if (e.time > t)
            break;
        state = e.to;
        since = e.time;
        cause = &e;
    }
    if (!isLive(state) && state != MessageState::None)
        return std::nullopt;
    if (state == MessageState::None || !cause)
        return std::nullopt;
    // The end of this segment: the next transition, or now.
    TimeMs until = frame.now;
    for (uint32_t ev = index.lane(out.row.id).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = engine.log()[ev];
        if (isTransition(e) && e.time > since && e.time >= t) {
            until = e.time;
            break;
        }
    }
    out.from = since;
    out.to = until;
    out.state = state;
    const MessageRecord& record = engine.message(out.row.id);
    const QString why
        = QString::fromStdString(eventSentence(engine, *cause, actorName(m_model.actorNames(), cause->actor)));
    out.text = QObject::tr("%1\n%2 from %3 to %4 (%5)\ncause: %6")
                   .arg(QString::fromStdString(record.messageId()), QString::fromLatin1(toString(state)),
                       QString::fromStdString(sim::formatDuration(since)),
                       QString::fromStdString(sim::formatDuration(until)),
                       QString::fromStdString(sim::formatDuration(until - since)), why);
    return out;
}

} // namespace lifeline::ui
