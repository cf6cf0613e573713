// An actor's row read from its steps as the row shows it: polls, answered-at-once receives (ticks), pieces of work (a
// Lambda batch one piece) and crashes. The window's row painter, its hover and the serialised picture (the web page's
// rows) read it here, so what they show cannot drift apart.
#pragma once

#include "lifeline/picture/picture_words.h"
#include "lifeline/timeline/lane_index.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace lifeline::picture {

// One piece of work as the row draws it: a message's processing, or a Lambda invocation's batch.
struct WorkBar {
    TimeMs from = 0, to = 0;
    MessageIndex firstLane = kNoMessage;
    uint32_t messages = 0; // the batch's size
    uint32_t failed = 0; // how many of them failed
    bool timedOut = false; // stopped by the function timeout
    bool open = false; // still going at `to` (now)
    bool interrupted = false; // its consumer crashed holding it (every message counts as failed)
};

struct ActorSpan {
    enum Kind { Poll, Tick, Work, Crash };
    Kind kind = Poll;
    TimeMs from = 0, to = 0; // a tick: at `from`; an open span: `to` is now, or the view's end
    bool open = false; // still going at `to`
    WorkBar work; // Kind::Work

    static ActorSpan of(Kind kind, TimeMs from, TimeMs to, bool open = false)
    {
        ActorSpan span;
        span.kind = kind;
        span.from = from;
        span.to = to;
        span.open = open;
        return span;
    }
};

inline bool isWorkEnd(Cause cause)
{
    return cause == Cause::ProcessingFinished || cause == Cause::ProcessingFailed;
}

// Calls visit(const ActorSpan&) for what `actor` did from about viewStart to viewEnd, in the order its steps end (then
// the poll, work and crash still open at `now`); visit returns false to stop. A poll going on across viewEnd comes
// whole. Hundreds of thousands of steps a frame at a far zoom: a template, so the painter's visit is inlined.
template <typename Visit>
void readActorSpans(const LaneIndex& index, uint32_t actor, TimeMs viewStart, TimeMs viewEnd, TimeMs now, Visit visit)
{
    constexpr TimeMs kNone = std::numeric_limits<TimeMs>::min(); // plain sentinels: GCC 12 misreads std::optional
    const auto& steps = index.actorSteps(actor);
    // Binary search for the view's start, then a few steps back to know which poll, job or crash is open there (a
    // batch's starts are one step each: go back past a whole batch).
    size_t i = viewStart == kNone ? index.firstStepHeld(actor) : index.firstStepAt(actor, viewStart);
    i = std::max(i, index.firstStepHeld(actor) + 24) - 24;
    TimeMs crashed = kNone;
    WorkBar current;
    bool working = false;
    for (; i < steps.size(); ++i) {
        const ActorStep& step = steps[i];
        const TimeMs time = step.time;
        if (time > viewEnd) {
            if (step.cause() == Cause::PollEnded && step.lane() != 0)
                visit(ActorSpan::of(ActorSpan::Poll, time - TimeMs(step.lane()), time));
            break;
        }
        switch (step.cause()) {
        case Cause::PollEnded: // one step per poll: its length rides in the lane field; 0: answered at once
            if (!visit(step.lane() == 0 ? ActorSpan::of(ActorSpan::Tick, time, time)
                                        : ActorSpan::of(ActorSpan::Poll, time - TimeMs(step.lane()), time)))
                return;
            break;
        case Cause::ProcessingStarted:
            if (working && current.from == time) { // the next message of the same batch
                ++current.messages;
                break;
            }
            current = WorkBar { time, time, step.lane(), 1, 0, false, false, false };
            working = true;
            break;
        case Cause::ProcessingFinished:
        case Cause::ProcessingFailed:
            if (!working)
                break; // a throttled batch given up before it was invoked: nothing ran
            current.to = time;
            // Every finish or failure logged at this instant ends the same piece (a Lambda batch ends at once).
            for (; i < steps.size() && TimeMs(steps[i].time) == time && isWorkEnd(steps[i].cause()); ++i)
                current.failed += steps[i].cause() == Cause::ProcessingFailed;
            --i;
            current.timedOut = current.failed > 0 && index.timedOutAt(actor, time);
            working = false;
            if (!visit(ActorSpan { ActorSpan::Work, current.from, time, false, current }))
                return;
            break;
        case Cause::ConsumerCrashed:
            if (working) {
                current.to = time;
                current.failed = current.messages;
                current.interrupted = true;
                working = false;
                if (!visit(ActorSpan { ActorSpan::Work, current.from, time, false, current }))
                    return;
            }
            crashed = time;
            break;
        case Cause::ConsumerRestarted:
            if (crashed != kNone && !visit(ActorSpan::of(ActorSpan::Crash, crashed, time)))
                return;
            crashed = kNone;
            break;
        default:
            break;
        }
    }
    const TimeMs until = std::min(now, viewEnd);
    if (index.openPollSince(actor) >= 0 && index.openPollSince(actor) <= until && crashed == kNone
        && !visit(ActorSpan::of(ActorSpan::Poll, index.openPollSince(actor), until, true)))
        return;
    if (working) {
        current.to = until;
        current.open = true;
        if (!visit(ActorSpan { ActorSpan::Work, current.from, until, true, current }))
            return;
    }
    if (crashed != kNone)
        visit(ActorSpan::of(ActorSpan::Crash, crashed, until, true));
}

// A piece of work's words: the message's name or "batch of 10", and how it ended ("batch of 10 · 3 failed").
std::string workText(const RunView& run, const WorkBar& bar, Translate tr = english);

} // namespace lifeline::picture
