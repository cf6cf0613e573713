// Time <-> pixel maths for the timeline, in one plain struct (no Qt): the view, the ruler, the overview and the
// export all use it, and its tests pin it at several zoom levels.
#pragma once

#include "lifeline/run/event_log.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace lifeline {

struct TimeAxis {
    TimeMs start = 0; // time at x = left
    double msPerPixel = 100.0; // zoom: larger is further out
    double left = 0; // pixel x of `start` (after the lane labels)

    double toX(TimeMs t) const { return left + double(t - start) / msPerPixel; }
    TimeMs toTime(double x) const { return start + TimeMs(std::llround((x - left) * msPerPixel)); }
    TimeMs endFor(double width) const { return toTime(left + width); }

    // Zoom by `factor` (>1 zooms in) keeping the time under pixel x where it is.
    void zoomAround(double x, double factor, double minMsPerPixel = 0.01, double maxMsPerPixel = 1e9)
    {
        const double anchor = double(start) + (x - left) * msPerPixel;
        msPerPixel = std::clamp(msPerPixel / factor, minMsPerPixel, maxMsPerPixel);
        start = TimeMs(std::llround(anchor - (x - left) * msPerPixel));
    }
    void panPixels(double dx) { start -= TimeMs(std::llround(dx * msPerPixel)); }
    // Shows [from, to] across `width` pixels.
    void fit(TimeMs from, TimeMs to, double width)
    {
        start = from;
        msPerPixel = std::max(0.01, double(std::max<TimeMs>(to - from, 1)) / std::max(width, 1.0));
    }
};

// Ruler ticks: a step from 1 ms to 1 day that leaves at least `minPixels` between ticks.
struct Tick {
    TimeMs time;
    bool major;
};

TimeMs tickStep(double msPerPixel, double minPixels = 80);
std::vector<Tick> ticks(const TimeAxis& axis, double width, double minPixels = 80);
// In the words every other time is written in (lifeline::formatDuration): "1m30s", "2h", "250ms", "1.25s", "11m4.5s".
std::string tickLabel(TimeMs time);

} // namespace lifeline
