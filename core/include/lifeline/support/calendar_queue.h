// A min-queue of items ordered by (time, sequence) for a clock whose items mostly fall a little ahead of the last
// one taken: a simulation's next producer tick a millisecond on, a consumer's work done 5-15 ms on. Such an item
// goes into a calendar of one slot per millisecond (a ring of kSlots, found by its time), where pushing and taking
// are a few instructions and finding the next slot a scan of a bitmap; an item further ahead (or earlier than the
// last taken) goes to a heap, and the earlier of the two fronts is the top. The order is the total order a single
// heap gives, provided sequence numbers grow with every push (items of one time then sit in a slot in push order).
//
// Invariants: an item is in the ring only while its time is in [m_base, m_base + kSlots), so a slot holds items of
// one time, in push order; the bitmap marks exactly the slots holding items; m_front is the earliest occupied slot
// when the ring holds any; the top is the earlier of the ring's front and the heap's. Tested against a single
// reference heap in tests/core/test_calendar_queue.cpp.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <vector>

namespace lifeline {

template <class T, int SlotBits = 12> // T has an integer `at`, a `seq` that grows with every push, and operator>
class CalendarQueue {
public:
    static constexpr int64_t kSlots = int64_t(1) << SlotBits;

    void push(const T& item)
    {
        emplace(item.at, [&](T& slot) { slot = item; });
    }
    // Pushes an item at time `at` that `fill` writes into its slot (its `at` included).
    template <class Fill> void emplace(int64_t at, Fill fill)
    {
        // In the ring only while [m_base, m_base + kSlots): a slot then holds one time, as every item taken since it
        // was filled was at or before that time (items leave in order, so m_base passed it only once it emptied).
        if (at >= m_base && at - m_base < kSlots) {
            const size_t index = size_t(at) & kMask;
            Slot& slot = m_slots[index];
            fill(slot.items.emplace_back());
            m_occupied[index >> 6] |= uint64_t(1) << (index & 63);
            if (m_inRing == 0 || at < m_slots[m_front].items[m_slots[m_front].head].at)
                m_front = index;
            ++m_inRing;
            return;
        }
        fill(m_later.emplace_back());
        std::push_heap(m_later.begin(), m_later.end(), std::greater<> {});
    }
    bool empty() const { return m_inRing == 0 && m_later.empty(); }
    size_t size() const { return m_inRing + m_later.size(); }
    const T& top() const { return fromRing() ? ringFront() : m_later.front(); }
    void pop()
    {
        if (!fromRing()) {
            m_base = std::max<int64_t>(m_base, m_later.front().at);
            std::pop_heap(m_later.begin(), m_later.end(), std::greater<> {});
            m_later.pop_back();
            return;
        }
        Slot& slot = m_slots[m_front];
        m_base = slot.items[slot.head].at;
        --m_inRing;
        if (++slot.head < slot.items.size())
            return;
        slot.items.clear();
        slot.head = 0;
        m_occupied[m_front >> 6] &= ~(uint64_t(1) << (m_front & 63));
        if (m_inRing > 0)
            m_front = nextOccupied(m_front);
    }

private:
    static constexpr size_t kMask = size_t(kSlots) - 1;
    static constexpr size_t kWords = size_t(kSlots) / 64;
    static_assert(SlotBits >= 6, "the bitmap is scanned a 64-slot word at a time");
    struct Slot {
        std::vector<T> items; // one time, in push order; taken from `head` on
        size_t head = 0;
    };

    bool fromRing() const { return m_inRing > 0 && (m_later.empty() || !(ringFront() > m_later.front())); }
    const T& ringFront() const { return m_slots[m_front].items[m_slots[m_front].head]; }
    // The first occupied slot from `from` on, round the ring: the earliest time, as the ring spans less than a turn.
    size_t nextOccupied(size_t from) const
    {
        size_t word = from >> 6;
        uint64_t bits = m_occupied[word] & (~uint64_t(0) << (from & 63));
        for (size_t turns = 0; bits == 0 && turns <= kWords; ++turns) {
            word = (word + 1) % kWords;
            bits = m_occupied[word];
        }
        return word << 6 | size_t(std::countr_zero(bits));
    }

    std::vector<Slot> m_slots = std::vector<Slot>(size_t(kSlots));
    std::array<uint64_t, kWords> m_occupied {};
    size_t m_front = 0; // the occupied slot of the earliest time in the ring, while m_inRing > 0
    size_t m_inRing = 0;
    int64_t m_base = 0; // the time of the last item taken (no item in the ring is earlier)
    std::vector<T> m_later; // a binary min-heap (std::push_heap with std::greater)
};

} // namespace lifeline
