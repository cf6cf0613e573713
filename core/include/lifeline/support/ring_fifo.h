// A FIFO in one contiguous ring that doubles when full: read in the order it was written, from memory that is not
// scattered in blocks as std::deque's is (docs/decisions.md, "Stalls the instruction count does not show").
//
// Invariants: the slots are a power of two in number, at least 16; the elements are the m_size slots from m_head
// on, wrapping round, oldest first; growing and eraseIf keep their order; a slot outside them holds nothing a caller
// can see (emplace_back hands out a value-initialised element). Tested against std::deque in
// tests/core/test_timer_queue.cpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace lifeline {

template <class T> class RingFifo {
public:
    bool empty() const { return m_size == 0; }
    size_t size() const { return m_size; }
    const T& front() const { return m_slots[m_head]; }
    const T& back() const { return m_slots[(m_head + m_size - 1) & (m_slots.size() - 1)]; }
    void push_back(const T& value) { emplace_back() = value; }
    // A new element at the back, value-initialised, for the caller to fill in.
    T& emplace_back()
    {
        if (m_size == m_slots.size())
            grow();
        ++m_size;
        T& slot = m_slots[(m_head + m_size - 1) & (m_slots.size() - 1)];
        slot = T {};
        return slot;
    }
    void pop_front()
    {
        m_head = (m_head + 1) & (m_slots.size() - 1);
        --m_size;
    }
    // Drops the elements `drop` says; the others keep their order. Returns how many went. The ring is rebuilt at
    // the smallest power of two that holds what remains, so its memory shrinks with it.
    template <class Pred> size_t eraseIf(Pred drop)
    {
        std::vector<T> kept;
        kept.reserve(m_size);
        for (size_t i = 0; i < m_size; ++i) {
            const T& value = m_slots[(m_head + i) & (m_slots.size() - 1)];
            if (!drop(value))
                kept.push_back(value);
        }
        const size_t removed = m_size - kept.size();
        size_t capacity = kMinCapacity;
        while (capacity < kept.size())
            capacity *= 2;
        kept.resize(capacity);
        m_size -= removed;
        m_head = 0;
        m_slots = std::move(kept);
        return removed;
    }

private:
    static constexpr size_t kMinCapacity = 16;
    void grow()
    {
        std::vector<T> bigger(std::max(kMinCapacity, m_slots.size() * 2));
        for (size_t i = 0; i < m_size; ++i)
            bigger[i] = m_slots[(m_head + i) & (m_slots.size() - 1)];
        m_slots = std::move(bigger);
        m_head = 0;
    }

    std::vector<T> m_slots = std::vector<T>(kMinCapacity); // a power of two in size
    size_t m_head = 0;
    size_t m_size = 0;
};

} // namespace lifeline
