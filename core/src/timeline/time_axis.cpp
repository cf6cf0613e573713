#include "lifeline/timeline/time_axis.h"

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

std::string tickLabel(TimeMs time, TimeMs step)
{
    const bool negative = time < 0;
    TimeMs t = negative ? -time : time;
    std::string out = negative ? "-" : "";
    if (step < 1000 && t % 1000 != 0) {
        if (t >= 1000)
            out += std::to_string(t / 1000) + "s";
        return out + std::to_string(t % 1000) + "ms";
    }
    const TimeMs h = t / 3600000, m = (t / 60000) % 60, s = (t / 1000) % 60;
    if (h)
        out += std::to_string(h) + "h";
    if (m)
        out += std::to_string(m) + "m";
    if (s || (!h && !m))
        out += std::to_string(s) + "s";
    return out;
}

} // namespace lifeline
