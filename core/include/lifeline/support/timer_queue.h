// A min-queue of timers ordered by (time, sequence) with an O(1) path for the common case: timers pushed in
// non-decreasing time go to a FIFO, and a few FIFOs take a few such streams at once (one queue's visibility
// timeouts at now + 30 s interleaved with long-poll deadlines at now + 20 s, say); only the out-of-order ones (a
// ChangeMessageVisibility, a shorter per-receive timeout) pay for the heap. The order is the same total order
// a single heap would give.
//
// Invariants: every timer is in exactly one FIFO or the heap; each FIFO is in non-decreasing time, the heap is a
// min-heap by (time, sequence); top() is the least of the FIFOs' fronts and the heap's top; m_earliest is its time
// (kNever when empty). Tested against a single reference heap in tests/core/test_timer_queue.cpp.
#pragma once

#include "lifeline/support/ring_fifo.h"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <vector>

namespace lifeline {

template <class T> // T has `at` and `seq`, and operator>
class TimerQueue {
public:
    void push(const T& timer)
    {
        emplace(timer.at, [&](T& slot) { slot = timer; });
    }
    // Pushes a timer at `at` that `fill` writes into its slot.
    template <class Fill> void emplace(decltype(T::at) at, Fill fill)
    {
        m_earliest = std::min(m_earliest, at);
        for (auto& fifo : m_fifos)
            if (fifo.empty() || !(fifo.back().at > at)) {
                fill(fifo.emplace_back());
                return;
            }
        fill(m_heap.emplace_back());
        std::push_heap(m_heap.begin(), m_heap.end(), std::greater<> {});
    }
    bool empty() const
    {
        for (const auto& fifo : m_fifos)
            if (!fifo.empty())
                return false;
        return m_heap.empty();
    }
    size_t size() const
    {
        size_t n = m_heap.size();
        for (const auto& fifo : m_fifos)
            n += fifo.size();
        return n;
    }
    // The earlier of `bound` and the earliest timer's time (`bound` when there is none). The clock asks it with
    // "never" as the bound.
    template <class Bound> Bound earliest(Bound bound) const { return std::min<Bound>(bound, Bound(m_earliest)); }
    const T& top() const
    {
        const T* best = m_heap.empty() ? nullptr : &m_heap.front();
        for (const auto& fifo : m_fifos)
            if (!fifo.empty() && (!best || *best > fifo.front()))
                best = &fifo.front();
        return *best;
    }
    // Takes the top.
    void pop()
    {
        RingFifo<T>* from = nullptr;
        const T* best = m_heap.empty() ? nullptr : &m_heap.front();
        for (auto& fifo : m_fifos)
            if (!fifo.empty() && (!best || *best > fifo.front())) {
                best = &fifo.front();
                from = &fifo;
            }
        if (from) {
            from->pop_front();
        } else {
            std::pop_heap(m_heap.begin(), m_heap.end(), std::greater<> {});
            m_heap.pop_back();
        }
        findEarliest();
    }
    // Drops the timers `stale` says will do nothing when they fire; the others keep their order. Returns how many.
    template <class Pred> size_t removeIf(Pred stale)
    {
        size_t removed = 0;
        for (auto& fifo : m_fifos)
            removed += fifo.eraseIf(stale);
        const size_t heapRemoved = std::erase_if(m_heap, stale);
        if (heapRemoved)
            std::make_heap(m_heap.begin(), m_heap.end(), std::greater<> {});
        findEarliest();
        return removed + heapRemoved;
    }

private:
    using Time = decltype(T::at);
    static constexpr Time kNever = std::numeric_limits<Time>::max();

    void findEarliest()
    {
        Time at = m_heap.empty() ? kNever : m_heap.front().at;
        for (const auto& fifo : m_fifos)
            if (!fifo.empty() && fifo.front().at < at)
                at = fifo.front().at;
        m_earliest = at;
    }

    std::array<RingFifo<T>, 3> m_fifos;
    std::vector<T> m_heap; // a binary min-heap (std::push_heap with std::greater)
    // The earliest timer's time (kNever when there is none), kept as timers come and go: the clock asks for it
    // several times a step.
    Time m_earliest = kNever;
};

} // namespace lifeline
