// What a lesson's view shows while its story plays: the action across the frame, not a sliver of a long script.
#pragma once

#include "lifeline/run/run_view.h"

namespace lifeline::picture {

// A span of virtual time, an instant when to == from; empty when to < from.
struct TimeSpan {
    TimeMs from = 0;
    TimeMs to = -1;
    bool empty() const { return to < from; }
    bool operator==(const TimeSpan&) const = default;
};

// A run's story: from its first send to its last change of a lane's state (not the idle time after it); a send SQS
// refused counts as a send. Empty when nothing was sent.
TimeSpan storySpan(const RunView& run);
// The same read incrementally: `story` extended by the log's events from `first` on.
TimeSpan extendStory(TimeSpan story, const EventLog& log, size_t first);

// The margin a fitted story gets on each side: a twentieth of it, at least a second.
TimeMs storyMargin(TimeMs length);

// Where a lesson's story stands: what its script makes happen (run to its end beforehand), its first key moment (or
// its start), the run's last change of a lane's state so far, and the clock.
struct StoryProgress {
    TimeSpan script;
    TimeMs firstMoment = 0;
    TimeMs lastChange = 0;
    TimeMs now = 0;
};

// The range a lesson's view shows. From just before the story's first send, its right edge grows in steps as the
// story unfolds (what has happened fills half to four fifths of the width; steps, because a scale that changed every
// frame could not be read), the first step reaching past the first key moment, until the whole scripted story fits
// with its margin. A story the user extends past its script (a crash, a slider) or a clock past the frame grows it on
// in the same steps.
TimeSpan storyFrame(const StoryProgress& story);

// When a stop on a key moment at `at` is shown: then, or once the story so far fills 40 % of its frame (a moment at
// the story's first send has nothing drawn yet; the stop waits until its lanes are there to see).
TimeMs storyStopAt(TimeSpan script, TimeMs firstMoment, TimeMs at);

} // namespace lifeline::picture
