// Distributions in words and as one typical value (distribution_text.h).
#include "lifeline/sim/distribution_text.h"

#include "lifeline/support/duration.h"

#include <algorithm>

namespace lifeline::sim {

std::string describe(const scenario::Distribution& d)
{
    switch (d.kind) {
    case scenario::Distribution::Kind::Fixed:
        return formatDuration(d.a);
    case scenario::Distribution::Kind::Uniform:
        return formatDuration(d.a) + " to " + formatDuration(d.b);
    case scenario::Distribution::Kind::Exponential:
        return "exponential, mean " + formatDuration(d.a);
    case scenario::Distribution::Kind::Normal:
        return "normal, mean " + formatDuration(d.a) + " sd " + formatDuration(d.b);
    case scenario::Distribution::Kind::LogNormal:
        return "p50 " + formatDuration(d.a) + ", p99 " + formatDuration(d.b);
    case scenario::Distribution::Kind::Samples:
        return std::to_string(d.samples.size()) + " measured times";
    }
    return {};
}

TimeMs typicalMs(const scenario::Distribution& d)
{
    switch (d.kind) {
    case scenario::Distribution::Kind::Uniform:
        return d.a + (d.b - d.a) / 2;
    case scenario::Distribution::Kind::Samples: {
        if (d.samples.empty())
            return 0;
        std::vector<TimeMs> sorted = d.samples;
        const auto middle = sorted.begin() + std::ptrdiff_t(sorted.size() / 2);
        std::nth_element(sorted.begin(), middle, sorted.end());
        return *middle;
    }
    case scenario::Distribution::Kind::Fixed:
    case scenario::Distribution::Kind::Exponential:
    case scenario::Distribution::Kind::Normal:
    case scenario::Distribution::Kind::LogNormal:
        return d.a;
    }
    return d.a;
}

} // namespace lifeline::sim
