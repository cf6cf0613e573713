#include "lifeline/sim/duration.h"

#include <charconv>
#include <cmath>

namespace lifeline::sim {

std::optional<TimeMs> parseDuration(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
    size_t split = 0;
    while (split < text.size() && ((text[split] >= '0' && text[split] <= '9') || text[split] == '.'))
        ++split;
    const std::string number(text.substr(0, split));
    const std::string_view unit = text.substr(split);
    if (number.empty() || number.find('.') != number.rfind('.'))
        return std::nullopt;
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (end != number.c_str() + number.size() || !std::isfinite(value))
        return std::nullopt;
    double scale;
    if (unit == "ms")
        scale = 1;
    else if (unit == "s" || unit.empty())
        scale = 1000;
    else if (unit == "m")
        scale = 60000;
    else if (unit == "h")
        scale = 3600000;
    else if (unit == "d")
        scale = 86400000;
    else
        return std::nullopt;
    const double ms = value * scale;
    if (ms > 1e15)
        return std::nullopt;
    return TimeMs(std::llround(ms));
}

std::string formatDuration(TimeMs ms)
{
    std::string out;
    if (ms >= 3600000) {
        out += std::to_string(ms / 3600000) + "h";
        ms %= 3600000;
    }
    if (ms >= 60000) {
        out += std::to_string(ms / 60000) + "m";
        ms %= 60000;
    }
    if (ms > 0 || out.empty()) {
        out += std::to_string(ms / 1000);
        if (ms % 1000) {
            std::string fraction = std::to_string(1000 + ms % 1000).substr(1);
            while (fraction.back() == '0')
                fraction.pop_back();
            out += "." + fraction;
        }
        out += "s";
    }
    return out;
}

} // namespace lifeline::sim
