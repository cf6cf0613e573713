// A count in at most three significant digits and a unit (950, 12.3K, 1.08M): what a lane header shows when the
// whole number does not fit its width (a queue band of a million lanes in a 1024-pixel window).
#pragma once

#include <QString>
#include <cmath>

namespace lifeline::ui {

inline QString compactCount(unsigned long long count)
{
    if (count < 1000)
        return QString::number(count);
    const char* const units[] = { "K", "M", "G", "T" };
    double scale = 1000;
    for (const char* unit : units) {
        const double value = double(count) / scale;
        const int decimals = value < 10 ? 2 : value < 100 ? 1 : 0;
        const double shown = std::round(value * std::pow(10, decimals)) / std::pow(10, decimals);
        if (shown < 1000 || unit == units[3])
            return QString::number(shown, 'f', decimals) + QString::fromLatin1(unit);
        scale *= 1000;
    }
    return QString::number(count);
}

} // namespace lifeline::ui
