#include "timeline/timeline_hit.h"

#include "lifeline/run/event_text.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"
#include "lifeline/timeline/noisy_spans.h"
#include "timeline/actor_painter.h"
#include "timeline/density_painter.h"
#include "timeline/lane_painter.h"
#include "timeline/picture_text.h"

#include <QObject>
#include <cmath>

namespace lifeline::ui {

using picture::isTransition;
using picture::Phrase;
using picture::Segment;
using picture::SegmentReader;

namespace {
QString duration(TimeMs ms)
{
    return QString::fromStdString(lifeline::formatDuration(ms));
}

// A hover's first line: the lane's name and its whole MessageId ("order 4 · 0b402db6-…").
QString laneTitle(const RunView& run, MessageIndex lane)
{
    const std::string id = run.messageId(lane);
    const std::string name = laneName(run, lane);
    return QString::fromStdString(id.starts_with(name) ? id : name + " · " + id);
}

std::optional<TimelineHit> hitQueueRow(const LaneModel& model, const RowRef& row, const TimeAxis& axis, int x)
{
    const RunView& run = *model.run();
    TimelineHit out;
    out.row = row;
    // A refused request under the cursor: SQS's own text.
    for (const uint32_t ev : model.lanes().refusals(QueueIndex(row.group))) {
        const Event& e = run.log()[ev];
        if (std::abs(axis.toX(e.time) - x) <= 5) {
            out.from = out.to = e.time;
            out.text
                = QObject::tr("refused at %1\n%2").arg(duration(e.time), QString::fromStdString(eventDetail(run, e)));
            return out;
        }
    }
    // An operator action, a warning or an alarm's change: what was done, said or seen.
    for (const uint32_t ev : model.lanes().notes(QueueIndex(row.group))) {
        const Event& e = run.log()[ev];
        if (std::abs(axis.toX(e.time) - x) <= 5) {
            out.from = out.to = e.time;
            const bool alarm = e.cause == Cause::AlarmFired || e.cause == Cause::AlarmOk;
            out.text = (e.cause == Cause::Warning     ? QObject::tr("warning at %1\n%2")
                    : e.cause == Cause::FaultInjected ? QObject::tr("fault at %1\n%2")
                    : alarm                           ? QObject::tr("CloudWatch alarm at %1\n%2")
                                                      : QObject::tr("operator at %1\n%2"))
                           .arg(duration(e.time), QString::fromStdString(eventDetail(run, e)));
            return out;
        }
    }
    // A noisy tenant's band (fair queues): who, from when to when, and what it means for the others.
    for (const NoisySpan& s : noisySpans(run, model.lanes(), QueueIndex(row.group), run.now())) {
        if (x < axis.toX(s.from) || x > axis.toX(s.to))
            continue;
        out.from = s.from;
        out.to = s.to;
        out.text = (s.open ? QObject::tr("%1 noisy since %2") : QObject::tr("%1 noisy from %2 to %3"))
                       .arg(QString::fromStdString(s.tenant), duration(s.from), duration(s.to))
            + QObject::tr("\n30 or more of its messages in flight, over a tenth of the queue's: receives serve the "
                          "quiet tenants' messages first");
        return out;
    }
    return std::nullopt;
}

// A state that lasted no time is drawn as a 2-pixel tick: under the mouse it answers for itself.
std::optional<TimelineHit> hitInstant(const LaneModel& model, const RowRef& row, const TimeAxis& axis, int x)
{
    const RunView& run = *model.run();
    const LaneIndex& index = model.lanes();
    std::optional<Event> entered; // the transition into the state being looked at (the log reads back copies)
    for (uint32_t ev = index.lane(row.id).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
        const Event& e = run.log()[ev];
        if (!isTransition(e))
            continue;
        if (entered && e.time == entered->time && isLive(entered->to) && std::abs(axis.toX(e.time) - x) <= 2) {
            TimelineHit out;
            out.row = row;
            out.from = out.to = e.time;
            out.state = entered->to;
            const QString why = QString::fromStdString(eventSentence(run, *entered, run.actorName(entered->actor)));
            out.text
                = QObject::tr("%1\n%2 for 0 ms at %3\ncause: %4")
                      .arg(laneTitle(run, row.id), QString::fromLatin1(toString(entered->to)), duration(e.time), why);
            return out;
        }
        entered = e;
    }
    return std::nullopt;
}

std::optional<TimelineHit> hitMessageRow(
    const LaneModel& model, const RowRef& row, const TimeAxis& axis, TimeMs now, int x)
{
    if (auto instant = hitInstant(model, row, axis, x))
        return instant;
    const TimeMs t = axis.toTime(x);
    const RunView& run = *model.run();
    const LaneIndex& index = model.lanes();
    // The segment under the cursor: the one going on at t.
    SegmentReader segments(run, row.id, true);
    segments.beginAfterForgotten(index);
    std::optional<Segment> under;
    for (uint32_t ev = index.lane(row.id).first; ev != kNoEvent && !under; ev = index.nextOfLane(ev)) {
        const Event e = run.log()[ev];
        if (e.time > t && isTransition(e) && isLive(segments.current().state)) {
            under = segments.read(e); // it ends after t: this is the one
            break;
        }
        (void)segments.read(e);
    }
    if (!under && isLive(segments.current().state) && segments.current().start.time <= t)
        under = segments.current(); // it goes on now
    if (!under)
        return std::nullopt;
    const MessageState state = under->state;
    const TimeMs since = under->start.time, until = under->end ? under->end->time : now;
    TimelineHit out;
    out.row = row;
    out.from = since;
    out.to = until;
    out.state = state;
    const MessageRecord& record = run.message(row.id);
    const QString why = under->beganForgotten
        ? QObject::tr("before %1, which the window no longer remembers (View > History kept)").arg(duration(since))
        : QString::fromStdString(eventSentence(run, under->start, run.actorName(under->start.actor)));
    out.text = QObject::tr("%1\n%2 from %3 to %4 (%5)\ncause: %6")
                   .arg(laneTitle(run, row.id), QString::fromLatin1(toString(state)), duration(since), duration(until),
                       duration(until - since), why);
    // What holds it, in the words the lane shows (when they say more than its state's name).
    if (const picture::SegmentPhrase phrase = segments.phrase(*under); phrase.phrase != Phrase::None
        && phrase.phrase != Phrase::Visible && phrase.phrase != Phrase::Delayed && phrase.phrase != Phrase::InFlight
        && phrase.phrase != Phrase::InFlightNumbered)
        out.text += QStringLiteral("\n") + segmentWords(phrase).label;
    // In flight now: the time left before it is visible again (the bracket at the end of the dotted line).
    const TimeMs dueAt = run.times(row.id).dueAt;
    if (state == MessageState::InFlight && record.state == MessageState::InFlight && until == run.now()
        && dueAt > until)
        out.text += QObject::tr("\nvisible again in %1 (at %2) unless deleted or extended")
                        .arg(duration(dueAt - until), duration(dueAt));
    return out;
}

std::optional<TimelineHit> hitActorRow(
    const LaneModel& model, const RowRef& row, const TimeAxis& axis, TimeMs now, int x)
{
    const TimeMs t = axis.toTime(x);
    // A scripted call under the mouse (within a few pixels): the call and SQS's answer.
    const RunView& run = *model.run();
    for (const uint32_t index : model.lanes().scriptCalls(row.id)) {
        const Event& e = run.log()[index];
        if (std::abs(axis.toX(e.time) - x) <= 5)
            return TimelineHit { row, e.time, e.time, MessageState::None,
                QObject::tr("at %1: %2").arg(duration(e.time), QString::fromStdString(run.log().text(e.textIndex()))) };
    }
    const auto work = workAt(model, row.id, t, now);
    if (!work)
        return std::nullopt;
    TimelineHit out;
    out.row = row;
    out.from = work->from;
    out.to = work->to;
    const TimeMs timeout = model.lanes().functionTimeout(row.id);
    const QString what = timeout > 0 ? QObject::tr("invocation: %1").arg(workLabel(*model.run(), *work))
                                     : QObject::tr("processing %1").arg(workLabel(*model.run(), *work));
    out.text = QObject::tr("%1\nfrom %2 to %3 (%4)")
                   .arg(what, duration(work->from), work->open ? QObject::tr("now") : duration(work->to),
                       duration(work->to - work->from));
    if (timeout > 0)
        out.text += work->timedOut
            ? QObject::tr("\nstopped by the function timeout (%1): the whole batch comes back").arg(duration(timeout))
            : QObject::tr("\nfunction timeout %1: stopped at %2 if still running")
                  .arg(duration(timeout), duration(work->from + timeout));
    return out;
}
} // namespace

std::optional<TimelineHit> hitRow(const LaneModel& model, const RowRef& row, const TimeAxis& axis, TimeMs now, int x)
{
    if (!model.run())
        return std::nullopt;
    switch (row.kind) {
    case LaneModel::QueueGroup:
        return hitQueueRow(model, row, axis, x);
    case LaneModel::MessageRow:
        return hitMessageRow(model, row, axis, now, x);
    case LaneModel::ActorRow:
        return hitActorRow(model, row, axis, now, x);
    case LaneModel::QueueBand:
    case LaneModel::ActorBand: {
        const TimeMs at = axis.toTime(x);
        if (at < 0 || at > now)
            break;
        TimelineHit out { row, at, at, MessageState::None, {} };
        out.text = row.kind == LaneModel::QueueBand ? queueBandText(model, QueueIndex(row.group), at)
                                                    : actorBandText(model, size_t(row.group), at);
        if (out.text.isEmpty())
            break;
        return out;
    }
    case LaneModel::ActorGroup:
        break;
    }
    return std::nullopt;
}

} // namespace lifeline::ui
