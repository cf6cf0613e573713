#include "timeline/segment_words.h"

#include "lifeline/support/duration.h"

#include <QObject>

namespace lifeline::ui {

namespace {
QString seconds(TimeMs ms)
{
    return QString::fromStdString(sim::describeDuration(ms));
}
} // namespace

bool isTransition(const Event& e)
{
    return e.cause != Cause::RequestRefused && e.from != e.to;
}

SegmentReader::SegmentReader(const RunView& run, MessageIndex lane, bool atNow)
    : m_run(run)
    , m_lane(lane)
    , m_atNow(atNow)
{
}

void SegmentReader::beginAfterForgotten(const LaneIndex& index)
{
    const MessageState before = index.stateBefore(m_lane);
    if (!isLive(before))
        return;
    Event start {};
    start.time = index.forgottenUntil();
    start.message = m_lane;
    start.to = before;
    m_current = Segment { before, start, {}, {}, 0, true };
}

std::optional<Segment> SegmentReader::read(const Event& e)
{
    if (!isTransition(e)) {
        const bool reset = e.cause == Cause::VisibilityChanged && m_current.state == MessageState::InFlight;
        if (reset || (e.cause == Cause::DelayChanged && m_current.state == MessageState::Delayed))
            m_current.change = e;
        return std::nullopt;
    }
    std::optional<Segment> ended;
    if (isLive(m_current.state)) {
        ended = m_current;
        ended->end = e;
    }
    const uint32_t receives = e.cause == Cause::Receive ? e.receiveNumber() : m_current.receives;
    m_current = Segment { e.to, e, {}, {}, receives };
    return ended;
}

SegmentWords SegmentReader::words(const Segment& s) const
{
    switch (s.state) {
    case MessageState::Delayed: {
        if (s.change) // a FIFO queue's DelaySeconds changed while it waited
            return { QObject::tr("DelaySeconds %1 → %2")
                         .arg(seconds(TimeMs(s.change->oldDelaySeconds()) * 1000),
                             seconds(TimeMs(s.change->newDelaySeconds()) * 1000)),
                {} };
        if (s.start.cause != Cause::Send || s.start.sentDelaySeconds() == 0)
            return { QObject::tr("delayed"), {} };
        const QString length = seconds(TimeMs(s.start.sentDelaySeconds()) * 1000);
        return { (s.start.sentWithTimer() ? QObject::tr("timer %1") : QObject::tr("DelaySeconds %1")).arg(length),
            length };
    }
    case MessageState::Visible:
        return { QObject::tr("visible"), {} };
    case MessageState::InFlight: {
        if (s.receives == 0)
            return { QObject::tr("in flight"), {} };
        const QString number = QStringLiteral("#%1").arg(s.receives);
        if (s.change)
            return { QObject::tr("#%1 · reset to %2")
                         .arg(s.receives)
                         .arg(seconds(TimeMs(s.change->visibilitySeconds()) * 1000)),
                number };
        if (s.end && s.end->cause == Cause::VisibilityTimeout)
            return { QObject::tr("#%1 · visibility %2").arg(s.receives).arg(seconds(s.end->time - s.start.time)),
                number };
        // The lane keeps its latest receive's deadline (after a delete too): that receive's segment can say it.
        const LaneTimes times = m_run.times(m_lane);
        const bool latest = s.start.cause == Cause::Receive
            && s.start.receiveNumber() == m_run.message(m_lane).receiveCount && s.start.time == times.receivedAt;
        if (latest && (s.end || m_atNow) && times.dueAt > s.start.time)
            return { QObject::tr("#%1 · visibility %2").arg(s.receives).arg(seconds(times.dueAt - s.start.time)),
                number };
        return { QObject::tr("in flight #%1").arg(s.receives), number };
    }
    default:
        return {};
    }
}

} // namespace lifeline::ui
