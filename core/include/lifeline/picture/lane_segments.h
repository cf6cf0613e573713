// A lane's state segments as its events tell them, and what each says (a SegmentPhrase): what holds a delayed message
// (its own timer or the queue's DelaySeconds, and for how long) and the visibility timeout that hides an in-flight one
// ("#1 · visibility 10 s"; "#1 · reset to 30 s" after ChangeMessageVisibility), so "before anyone received it" and
// "someone is working on it" read in words. The window's painter and hover, the images, the web page and the control
// API's JSON all read a lane here; a lane whose earlier events the run forgot starts in the state it had where the
// held history begins (beginAfterForgotten), for every one of them alike.
#pragma once

#include "lifeline/picture/picture_words.h"
#include "lifeline/run/run_view.h"
#include "lifeline/timeline/lane_index.h"

#include <optional>

namespace lifeline::picture {

struct Segment {
    MessageState state = MessageState::None;
    Event start {}; // the transition that began it (the log reads events back by value: a segment keeps copies)
    std::optional<Event> end; // the one that ended it; none: it goes on
    std::optional<Event> change; // the last ChangeMessageVisibility (in flight) or DelaySeconds change (delayed) in it
    uint32_t receives = 0; // the receive it is in flight for (0: not known, it began before the history held)
    bool beganForgotten = false; // it began before the history the run keeps: `start` is where that history begins
};

class SegmentReader {
public:
    // `atNow`: the segment going on is drawn at the run's now (not a past frame), so its deadline is the lane's.
    SegmentReader(const RunView& run, MessageIndex lane, bool atNow);
    // A lane whose earlier events the run forgot (a bounded history) starts in the state it had where the held
    // history begins; call before reading its first held event.
    void beginAfterForgotten(const LaneIndex& index);
    // Reads the lane's next event (in order); returns the live segment it ended, if it ended one.
    std::optional<Segment> read(const Event& e);
    const Segment& current() const { return m_current; }
    SegmentPhrase phrase(const Segment& segment) const;

private:
    const RunView& m_run;
    MessageIndex m_lane;
    bool m_atNow;
    Segment m_current;
};

// When the timer a segment's phrase tells of ends: an in-flight segment's visibility timeout (from its receive, or
// from the ChangeMessageVisibility that reset it), a delayed one's delay (from its send). None for other phrases.
std::optional<TimeMs> segmentDue(const Segment& segment, const SegmentPhrase& phrase);

// The countdown at the run's now on a lane a timer holds: in flight, "visible again in 23 s" (its visibility timeout);
// delayed, "receivable in 12 s". The time left in whole seconds, rounded up (it says 1 s until the timer ends). None
// for a lane in another state.
std::optional<SegmentPhrase> laneCountdown(const RunView& run, MessageIndex lane);

// An event that changes a lane's state (a refused request changes nothing).
bool isTransition(const Event& e);

} // namespace lifeline::picture
