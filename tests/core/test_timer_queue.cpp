#include "lifeline/support/timer_queue.h"
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

TEST_CASE("RingFifo keeps its order as it wraps around, grows and drops what a predicate names", "[timers]")
{
    lifeline::RingFifo<int> fifo;
    // Wrap around its first 16 slots several times without growing: the head moves, the order stays.
    int next = 0, expected = 0;
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 10; ++i)
            fifo.push_back(next++);
        for (int i = 0; i < 10; ++i) {
            REQUIRE(fifo.front() == expected++);
            fifo.pop_front();
        }
    }
    CHECK(fifo.empty());
    // Grow while wrapped: 12 in, 8 out (the head at slot 10 of 16), then 40 more in (16 -> 32 -> 64 slots).
    for (int i = 0; i < 12; ++i)
        fifo.push_back(next++);
    for (int i = 0; i < 8; ++i) {
        REQUIRE(fifo.front() == expected++);
        fifo.pop_front();
    }
    for (int i = 0; i < 40; ++i)
        fifo.push_back(next++);
    CHECK(fifo.size() == 44);
    CHECK(fifo.front() == 58);
    CHECK(fifo.back() == 101);
    // Drop the odd ones: 22 go, the even ones stay in order.
    CHECK(fifo.eraseIf([](int v) { return v % 2 != 0; }) == 22);
    CHECK(fifo.size() == 22);
    for (int v = 58; v <= 100; v += 2) {
        REQUIRE(fifo.front() == v);
        fifo.pop_front();
    }
    CHECK(fifo.empty());
}
