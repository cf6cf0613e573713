// Distributions in words, as one typical value, and drawn (distribution_text.h).
#include "lifeline/sim/distribution_text.h"

#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>

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

TimeMs drawFrom(const scenario::Distribution& d, Random& random)
{
    double ms = double(d.a);
    switch (d.kind) {
    case scenario::Distribution::Kind::Fixed:
        break;
    case scenario::Distribution::Kind::Uniform:
        ms = random.uniform(double(d.a), double(d.b));
        break;
    case scenario::Distribution::Kind::Exponential:
        ms = random.exponential(double(d.a));
        break;
    case scenario::Distribution::Kind::Normal:
        ms = random.normal(double(d.a), double(d.b));
        break;
    case scenario::Distribution::Kind::LogNormal: // the median is p50; 2.3263 standard deviations above it is p99
        ms = double(d.a) * std::exp(std::log(double(d.b) / double(d.a)) / 2.3263 * random.normal(0, 1));
        break;
    case scenario::Distribution::Kind::Samples:
        ms = double(d.samples[std::min(d.samples.size() - 1, size_t(random.uniform() * double(d.samples.size())))]);
        break;
    }
    return std::max<TimeMs>(0, TimeMs(std::llround(ms)));
}

} // namespace lifeline::sim
