// The simulation's one seeded generator. Own distributions (not <random>'s) so a seed gives the same run with any
// standard library.
#pragma once

#include <cmath>
#include <cstdint>

namespace lifeline::sim {

class Random {
public:
    explicit Random(uint64_t seed)
        : m_state(seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL)
    {
    }

    uint64_t next()
    {
        uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
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
