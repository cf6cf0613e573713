// What one paint of the timeline shows: the time axis, the scroll position, the instant "now", the selection.
// The painter's pieces (rows, lanes, actors, legend, hit test) all read it.
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/timeline/time_axis.h"

#include <vector>

namespace lifeline::ui {

// A stretch of virtual time that played `factor` times faster than the chosen speed (a lesson's quiet wait): the
// ruler says so.
struct FastSpan {
    TimeMs from = 0;
    TimeMs to = 0;
    int factor = 1;
    bool operator==(const FastSpan&) const = default;
};

struct TimelineFrame {
    TimeAxis axis;
    int firstRow = 0; // scroll position, in rows
    TimeMs now = 0;
    MessageIndex selected = kNoMessage;
    bool legend = true;
    TimeMs measureFrom = -1, measureTo = -1; // a measured range, when both are set
    int focusedMoment = 0; // the moment (its number, from 1) N / Shift+N went to; 0: none
    bool momentCallouts = true; // callouts for every moment that finds room (else the focused one only)
    const std::vector<FastSpan>* fastSpans = nullptr; // the waits that played faster, noted on the ruler
};

} // namespace lifeline::ui
