// Helpers for lifeline-bench: a steady clock, heap-in-use from glibc, and the `name value unit` output line.
#pragma once

#include <chrono>
#include <cstdio>
#include <malloc.h>

namespace lifeline::bench {

inline double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

inline size_t heapInUse()
{
    return mallinfo2().uordblks + mallinfo2().hblkhd;
}

inline void report(const char* name, double value, const char* unit)
{
    std::printf("%s %.3f %s\n", name, value, unit);
    std::fflush(stdout);
}

} // namespace lifeline::bench
