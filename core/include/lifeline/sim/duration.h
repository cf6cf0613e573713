// Durations as people write them: 90s, 15m, 2h, 500ms, or a bare number of seconds.
#pragma once

#include "lifeline/event_log.h"

#include <optional>
#include <string>
#include <string_view>

namespace lifeline::sim {

std::optional<TimeMs> parseDuration(std::string_view text);
std::string formatDuration(TimeMs ms); // 1h 2m 3.5s style, for messages

} // namespace lifeline::sim
