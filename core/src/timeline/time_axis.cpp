#include "lifeline/timeline/time_axis.h"

#include "lifeline/support/duration.h"

namespace lifeline {

TimeMs tickStep(double msPerPixel, double minPixels)
{
    static constexpr TimeMs kSteps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000,
        60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000 };
    const double wanted = msPerPixel * minPixels;
    for (const TimeMs step : kSteps)
        if (double(step) >= wanted)
            return step;
    return TimeMs(std::ceil(wanted / 86400000.0)) * 86400000;
}

std::vector<Tick> ticks(const TimeAxis& axis, double width, double minPixels)
{
    const TimeMs step = tickStep(axis.msPerPixel, minPixels);
    const TimeMs majorStep = step * 5;
    const TimeMs from = axis.start;
    const TimeMs to = axis.endFor(width);
    std::vector<Tick> out;
    TimeMs t = (from >= 0 ? (from + step - 1) / step : from / step) * step;
    for (; t <= to; t += step)
        out.push_back(Tick { t, t % majorStep == 0 });
    return out;
}

std::string tickLabel(TimeMs time)
{
    return time < 0 ? "-" + lifeline::formatDuration(-time) : lifeline::formatDuration(time);
}

} // namespace lifeline
