// Durations as people write them: 90s, 15m, 2h, 500ms, 1m30s (the parts from the largest unit down, as formatDuration
// writes them), or a bare number of seconds.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace lifeline {
using TimeMs = int64_t; // virtual milliseconds since the run started (as in run/event_log.h)
}

namespace lifeline {

// Durations from files and the command line are bounded before any conversion: at most kMaxDuration (a year), so
// 1e300s is an error, not undefined behaviour. Parsing and printing never depend on the locale (std::from_chars /
// std::to_chars): QApplication sets LC_NUMERIC from the environment, and "1.5s" must mean the same under de_DE.
inline constexpr TimeMs kMaxDuration = 366LL * 86400000;
std::optional<TimeMs> parseDuration(std::string_view text);
// A duration in a JSON file: a string as above, or a number of seconds from 0 to kMaxDuration.
std::optional<TimeMs> durationFromJson(const nlohmann::json& value);
std::string formatDuration(TimeMs ms); // 1h2m3.5s style, 5ms under a second
// A duration as a caption says it: "500 ms", "1.5 s", "30 s", "2 min 30 s", "1 h 5 min", "4 days".
std::string describeDuration(TimeMs ms);
// A number the shortest way that reads back the same, with a '.' whatever the locale: 0.5, 2, 1e+300.
std::string formatNumber(double value);
// A decimal number ("1.5", "20") with a '.', whatever the locale; nothing else on the text.
std::optional<double> parseNumber(std::string_view text);

} // namespace lifeline
