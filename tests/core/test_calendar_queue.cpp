#include "lifeline/support/calendar_queue.h"
#include "reference_heap.h"

#include <catch2/catch.hpp>
#include <random>
#include <vector>

namespace {
using lifeline::test::popBoth;
using lifeline::test::pushBoth;
using T = lifeline::test::TimedItem;

// Pushes and pops at random against a reference heap; `ahead` draws how far past the clock an item goes.
template <class Ahead> void compareWithHeap(unsigned seed, int steps, Ahead ahead)
{
    lifeline::CalendarQueue<T, 8> queue; // 256 slots: items past the ring are common
    lifeline::test::ReferenceHeap reference;
    std::mt19937 rng(seed);
    unsigned long seq = 0;
    long now = 0;
    for (int step = 0; step < steps; ++step) {
        if (rng() % 2 == 0)
            pushBoth(queue, reference, now + ahead(rng), seq);
        else if (!reference.empty())
            now = std::max(now, popBoth(queue, reference));
        REQUIRE(queue.empty() == reference.empty());
    }
    while (!reference.empty())
        popBoth(queue, reference);
    CHECK(queue.empty());
}
} // namespace

TEST_CASE("CalendarQueue pops in (time - sequence) order: near items, far ones and equal times", "[timers]")
{
    // A producer's tick 1 ms on, work done 5-15 ms on, now and then an item far past the ring (a heartbeat, a
    // crash planned minutes ahead) that comes back into the ring's range while near items of its time arrive.
    compareWithHeap(3, 60000, [](std::mt19937& rng) {
        const unsigned r = rng() % 20;
        return r < 8 ? 1L : r < 17 ? 5 + long(rng() % 11) : r < 19 ? 200 + long(rng() % 200) : long(rng() % 3000);
    });
}

TEST_CASE("CalendarQueue keeps the order for items at the clock, in its past and a whole ring ahead", "[timers]")
{
    // Past the last taken (the heap), at it (the ring), and exactly a ring's span on (the boundary).
    compareWithHeap(5, 60000, [](std::mt19937& rng) {
        const unsigned r = rng() % 6;
        return r == 0 ? -long(rng() % 30) : r == 1 ? 0L : r == 2 ? 256L : r == 3 ? 255L : long(rng() % 600);
    });
}

TEST_CASE("CalendarQueue finds the next time round the ring after long gaps", "[timers]")
{
    lifeline::CalendarQueue<T, 8> queue;
    unsigned long seq = 0;
    // Times that wrap the 256-slot ring several times, each alone in its slot, and two at one time.
    const std::vector<long> times = { 250, 251, 300, 300, 511, 700, 1000, 5000 };
    for (const long at : times)
        queue.push(T { at, seq++ });
    std::vector<long> popped;
    while (!queue.empty()) {
        popped.push_back(queue.top().at);
        queue.pop();
    }
    CHECK(popped == times);
    // Taken in push order at one time, whichever way each went in (the ring or the heap past it).
    queue.push(T { 5300, seq++ }); // 300 past 5,000: the heap
    queue.push(T { 5100, seq++ }); // the ring
    queue.pop(); // 5,100: 5,300 is now within the ring's span
    queue.push(T { 5300, seq++ });
    REQUIRE(queue.top().seq == seq - 3);
    queue.pop();
    CHECK(queue.top().seq == seq - 1);
}
