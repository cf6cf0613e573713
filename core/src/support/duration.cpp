#include "lifeline/support/duration.h"

#include <charconv>
#include <cmath>

namespace lifeline {

std::optional<double> parseNumber(std::string_view text)
{
    // from_chars takes no sign, exponent, "inf" or "nan" in this form: only digits with one optional '.'.
    if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos)
        return std::nullopt;
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, std::chars_format::fixed);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::string formatNumber(double value)
{
    char buffer[64];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return error == std::errc() ? std::string(buffer, end) : std::string("?");
}

std::optional<TimeMs> durationFromJson(const nlohmann::json& value)
{
    if (value.is_number()) { // bounded before the conversion: 1e300 seconds is an error, not undefined behaviour
        const double seconds = value.get<double>();
        if (seconds >= 0 && seconds * 1000.0 <= double(kMaxDuration))
            return TimeMs(std::llround(seconds * 1000.0));
        return std::nullopt;
    }
    return value.is_string() ? parseDuration(value.get<std::string>()) : std::nullopt;
}

std::optional<TimeMs> parseDuration(std::string_view text)
{
    // Parts from the largest unit down, each once ("1h30m", "1m0.005s" as formatDuration writes it); a bare number
    // alone is seconds.
    static constexpr std::pair<std::string_view, double> kUnits[]
        = { { "d", 86400000 }, { "h", 3600000 }, { "m", 60000 }, { "s", 1000 }, { "ms", 1 } };
    double ms = 0;
    size_t nextUnit = 0; // units before this one are used or too large for what follows
    const bool bare = !text.empty() && text.find_first_not_of("0123456789.") == std::string_view::npos;
    if (bare)
        return parseDuration(std::string(text) + "s");
    if (text.empty())
        return std::nullopt;
    while (!text.empty()) {
        size_t split = 0;
        while (split < text.size() && ((text[split] >= '0' && text[split] <= '9') || text[split] == '.'))
            ++split;
        const auto value = parseNumber(text.substr(0, split));
        size_t letters = split;
        while (letters < text.size() && text[letters] >= 'a' && text[letters] <= 'z')
            ++letters;
        const std::string_view unit = text.substr(split, letters - split);
        size_t found = nextUnit;
        while (found < std::size(kUnits) && kUnits[found].first != unit)
            ++found;
        if (!value || found == std::size(kUnits))
            return std::nullopt;
        ms += *value * kUnits[found].second; // finite: each part is bounded below before the next is added
        if (!(ms <= double(kMaxDuration)))
            return std::nullopt;
        nextUnit = found + 1;
        text.remove_prefix(letters);
    }
    return TimeMs(std::llround(ms));
}

std::string describeDuration(TimeMs ms)
{
    const auto unit = [](TimeMs n, const char* name) { return std::to_string(n) + " " + name; };
    if (ms > 0 && ms < 1000)
        return unit(ms, "ms");
    if (ms < 60000) {
        std::string seconds = formatDuration(ms); // "1.5s"
        seconds.insert(seconds.size() - 1, " ");
        return seconds;
    }
    constexpr TimeMs kHour = 3600;
    constexpr TimeMs kDay = 24 * kHour;
    const TimeMs s = ms / 1000;
    if (s < kHour)
        return unit(s / 60, "min") + (s % 60 ? " " + unit(s % 60, "s") : "");
    if (s < 2 * kDay)
        return unit(s / kHour, "h") + (s % kHour / 60 ? " " + unit(s % kHour / 60, "min") : "");
    return unit(s / kDay, "days") + (s % kDay / kHour ? " " + unit(s % kDay / kHour, "h") : "");
}

std::string formatDuration(TimeMs ms)
{
    if (ms > 0 && ms < 1000) // "5ms", not "0.005s": processing times are mostly this short
        return std::to_string(ms) + "ms";
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

} // namespace lifeline
