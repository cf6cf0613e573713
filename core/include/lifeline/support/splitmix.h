// SplitMix64 (Steele, Lea and Flood, 2014): the one small generator behind the engine's ids and the simulation's
// draws. Written once here; changing it changes every seeded run.
#pragma once

#include <cstdint>

namespace lifeline {

inline constexpr uint64_t kSplitMixGamma = 0x9e3779b97f4a7c15ULL;

// Advances `state` and returns the next 64 random bits.
inline uint64_t splitMix64(uint64_t& state)
{
    uint64_t z = (state += kSplitMixGamma);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

} // namespace lifeline
