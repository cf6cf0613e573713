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

} // namespace lifeline::ui
