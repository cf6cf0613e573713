// Fresh memory costs a page fault at the first write to each of its pages, on the thread that writes: the
// benchmark's hour keeps two fifths of a gigabyte, about 0.2 s of faults, a fifth of the second it has. The warmer
// takes those faults on a thread of its own, ahead of use (docs/decisions.md, "Memory is faulted in ahead").
#pragma once

#include <cstddef>
#include <span>

namespace lifeline {

// Faults in the whole pages holding [data, data + bytes) as a write would, without writing: what they hold stays as
// it is. False where the system cannot (not Linux, a kernel before 5.14) or the range is not mapped.
bool faultInForWrite(void* data, size_t bytes);

struct MemoryRange {
    void* data = nullptr;
    size_t bytes = 0;
};

// Asks a background thread to fault in each range for writing, in this order, without changing what they hold,
// and returns at once (one wake of that thread for them all). Whoever writes there first, the warmer or the caller,
// takes the fault; nothing else differs. Memory freed before the warmer reaches it is skipped quietly. Where the
// system cannot (not Linux, or a kernel before 5.14), nothing happens.
void warmAhead(std::span<const MemoryRange> ranges);

} // namespace lifeline
