// A processing-time distribution in words, the one value that stands for it where a control shows one number, and a
// value drawn from it.
#pragma once

#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/random.h"

#include <string>

namespace lifeline::sim {

// "5ms to 15ms", "exponential, mean 3s", "p50 2s, p99 40s", "12 measured times": for the log and tooltips.
std::string describe(const scenario::Distribution& d);

// Its middle: the value itself, a uniform range's midpoint, the mean (exponential, normal), the median (log-normal,
// measured times). What the Queue panel's processing box shows for a distribution it can only set as fixed.
TimeMs typicalMs(const scenario::Distribution& d);

// One value drawn with the simulation's generator, in whole ms (0 at least): every processing time and pause a run
// draws. The draws a value takes are part of the seed's run, so their order and number never change.
TimeMs drawFrom(const scenario::Distribution& d, Random& random);

} // namespace lifeline::sim
