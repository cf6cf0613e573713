#include "lifeline/picture/lane_segments.h"

namespace lifeline::picture {

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

SegmentPhrase SegmentReader::phrase(const Segment& s) const
{
    switch (s.state) {
    case MessageState::Delayed:
        if (s.change) // a FIFO queue's DelaySeconds changed while it waited
            return { Phrase::DelayChanged, 0, TimeMs(s.change->oldDelaySeconds()) * 1000,
                TimeMs(s.change->newDelaySeconds()) * 1000 };
        if (s.start.cause != Cause::Send || s.start.sentDelaySeconds() == 0)
            return { Phrase::Delayed };
        return { s.start.sentWithTimer() ? Phrase::Timer : Phrase::DelaySeconds, 0,
            TimeMs(s.start.sentDelaySeconds()) * 1000 };
    case MessageState::Visible:
        return { s.start.inferred() ? Phrase::VisibleInferred : Phrase::Visible };
    case MessageState::InFlight: {
        if (s.receives == 0)
            return { Phrase::InFlight };
        if (s.change)
            return { Phrase::VisibilityReset, s.receives, TimeMs(s.change->visibilitySeconds()) * 1000 };
        if (s.end && s.end->cause == Cause::VisibilityTimeout)
            return { Phrase::Visibility, s.receives, s.end->time - s.start.time };
        // The lane keeps its latest receive's deadline (after a delete too): that receive's segment can say it.
        const LaneTimes times = m_run.times(m_lane);
        const bool latest = s.start.cause == Cause::Receive
            && s.start.receiveNumber() == m_run.message(m_lane).receiveCount && s.start.time == times.receivedAt;
        if (latest && (s.end || m_atNow) && times.dueAt > s.start.time)
            return { Phrase::Visibility, s.receives, times.dueAt - s.start.time };
        return { Phrase::InFlightNumbered, s.receives };
    }
    default:
        return {};
    }
}

std::optional<TimeMs> segmentDue(const Segment& segment, const SegmentPhrase& phrase)
{
    switch (phrase.phrase) {
    case Phrase::Visibility:
    case Phrase::DelaySeconds:
    case Phrase::Timer:
        return segment.start.time + phrase.first;
    case Phrase::VisibilityReset:
        return (segment.change ? segment.change->time : segment.start.time) + phrase.first;
    default:
        return std::nullopt;
    }
}

std::optional<SegmentPhrase> laneCountdown(const RunView& run, MessageIndex lane)
{
    if (run.forgotten(lane))
        return std::nullopt;
    const MessageState state = run.message(lane).state;
    if (state != MessageState::InFlight && state != MessageState::Delayed)
        return std::nullopt;
    const TimeMs left = run.times(lane).dueAt - run.now();
    if (left <= 0)
        return std::nullopt;
    const TimeMs seconds = (left + 999) / 1000;
    return SegmentPhrase { state == MessageState::InFlight ? Phrase::VisibleAgainIn : Phrase::ReceivableIn, 0,
        seconds * 1000, 0 };
}

} // namespace lifeline::picture
