// A seed for a run that real clients drive (`serve`, the window's endpoint): different every time, so a MessageId or
// a receipt handle kept from before a restart never names a new message. Lessons and scenarios keep their own seed
// (the same run every time), and `serve --seed N` asks for a repeatable one.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

namespace lifeline::ui {

inline uint64_t freshRunSeed()
{
    std::random_device entropy;
    const auto clock = uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
    return (uint64_t(entropy()) << 32 ^ entropy()) ^ (clock * 0x9E3779B97F4A7C15ULL);
}

// The seed of the run a reset starts (POST /_lifeline/reset): another id and handle group, as a restart gives, so a
// MessageId or handle from before the reset names nothing after it; from `serve --seed N`, the same chain every run
// (splitmix64's step).
inline uint64_t seedAfterReset(uint64_t seed)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace lifeline::ui
