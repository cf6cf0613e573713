// A processing-time distribution in words, and the one value that stands for it where a control shows one number.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <string>

namespace lifeline::sim {

// "5ms to 15ms", "exponential, mean 3s", "p50 2s, p99 40s", "12 measured times": for the log and tooltips.
std::string describe(const scenario::Distribution& d);

// Its middle: the value itself, a uniform range's midpoint, the mean (exponential, normal), the median (log-normal,
// measured times). What the Queue panel's processing box shows for a distribution it can only set as fixed.
TimeMs typicalMs(const scenario::Distribution& d);

} // namespace lifeline::sim
