// The simulation's one seeded generator. Own distributions (not <random>'s) so a seed gives the same run with any
// standard library.
#pragma once

#include "lifeline/support/splitmix.h"

#include <cmath>
#include <cstdint>

namespace lifeline::sim {

class Random {
public:
    explicit Random(uint64_t seed)
        : m_state(seed * kSplitMixGamma + 0x632be59bd9b4e019ULL)
    {
    }

    uint64_t next() { return splitMix64(m_state); }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; } // [0, 1)
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    bool chance(double probability) { return uniform() < probability; }
    double exponential(double mean) { return -mean * std::log(1.0 - uniform()); }
    double normal(double mean, double sd)
    {
        const double u1 = 1.0 - uniform();
        const double u2 = uniform();
        return mean + sd * std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    uint64_t m_state;
};

} // namespace lifeline::sim
