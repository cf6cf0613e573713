#include "lifeline/timer_queue.h"
#include "reference_heap.h"

#include <catch2/catch.hpp>
#include <climits>
#include <random>

using lifeline::test::popBoth;
using lifeline::test::pushBoth;
using T = lifeline::test::TimedItem;

TEST_CASE("TimerQueue pops in (time - sequence) order whatever the push order", "[timers]")
{
    lifeline::TimerQueue<T> queue;
    lifeline::test::ReferenceHeap reference;
    std::mt19937 rng(7);
    unsigned long seq = 0;
    long now = 0;
    for (int step = 0; step < 20000; ++step) {
        if (rng() % 3 != 0) {
            // mostly monotonic (the FIFO path), sometimes earlier (the heap path), often equal times
            pushBoth(queue, reference, now + (rng() % 4 == 0 ? long(rng() % 50) : 30 + long(rng() % 2)), seq);
        } else if (!reference.empty()) {
            REQUIRE(queue.earliest(LONG_MAX) == reference.top().at);
            REQUIRE(queue.earliest(now + 10) == std::min(now + 10, reference.top().at));
            now = popBoth(queue, reference);
        }
    }
    while (!reference.empty()) {
        queue.pop();
        reference.pop();
    }
    CHECK(queue.earliest(LONG_MAX) == LONG_MAX); // none left: the bound
}

TEST_CASE("TimerQueue keeps the order with several interleaved monotonic streams and stragglers", "[timers]")
{
    // Visibility timeouts (now + 30), poll deadlines (now + 20), delays (now + 5) and a few out-of-order ones:
    // more streams than FIFOs, so every path (FIFO, another FIFO, the heap) is taken.
    lifeline::TimerQueue<T> queue;
    lifeline::test::ReferenceHeap reference;
    std::mt19937 rng(11);
    unsigned long seq = 0;
    long now = 0;
    const long offsets[] = { 30, 20, 5, 12 };
    for (int step = 0; step < 50000; ++step) {
        if (rng() % 2 == 0)
            pushBoth(queue, reference, rng() % 10 == 0 ? now + long(rng() % 40) : now + offsets[rng() % 4], seq);
        else if (!reference.empty())
            now = std::max(now, popBoth(queue, reference) - long(rng() % 3));
        REQUIRE(queue.empty() == reference.empty());
    }
}

TEST_CASE("TimerQueue drops the timers a predicate names and keeps the others in order", "[timers]")
{
    lifeline::TimerQueue<T> queue;
    lifeline::test::ReferenceHeap reference;
    std::mt19937 rng(5);
    const long offsets[] = { 30, 20, 5, 12 };
    for (unsigned long seq = 0; seq < 20000; ++seq) {
        const long at = rng() % 10 == 0 ? long(rng() % 40) : long(seq / 10) + offsets[rng() % 4];
        queue.push(T { at, seq });
        if (seq % 3 != 0)
            reference.push(T { at, seq });
    }
    CHECK(queue.removeIf([](const T& t) { return t.seq % 3 == 0; }) == 6667);
    REQUIRE(queue.size() == reference.size());
    while (!reference.empty()) {
        REQUIRE(queue.top().seq == reference.top().seq);
        REQUIRE(queue.earliest(LONG_MAX) == reference.top().at); // the earliest kept, not a removed one's

        queue.pop();
        reference.pop();
    }
    CHECK(queue.empty());
    CHECK(queue.earliest(LONG_MAX) == LONG_MAX);
    // Removing the earliest ones leaves the next as the earliest.
    queue.push(T { 3, 1 });
    queue.push(T { 9, 2 });
    queue.push(T { 1, 3 });
    CHECK(queue.earliest(LONG_MAX) == 1);
    CHECK(queue.removeIf([](const T& t) { return t.at < 5; }) == 2);
    CHECK(queue.earliest(LONG_MAX) == 9);
    CHECK(queue.earliest(4L) == 4);
}
