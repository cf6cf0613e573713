// A queue of timed items under test, checked step by step against std::priority_queue: what TimerQueue and
// CalendarQueue must both equal.
#pragma once

#include <catch2/catch.hpp>
#include <queue>
#include <vector>

namespace lifeline::test {

struct TimedItem {
    long at;
    unsigned long seq;
    bool operator>(const TimedItem& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};
using ReferenceHeap = std::priority_queue<TimedItem, std::vector<TimedItem>, std::greater<>>;

// Pushes an item at `at` with the next sequence number to both.
template <class Queue> void pushBoth(Queue& queue, ReferenceHeap& reference, long at, unsigned long& seq)
{
    queue.push(TimedItem { at, seq });
    reference.push(TimedItem { at, seq });
    ++seq;
}

// Requires the queue's top to be the reference's, then takes it from both; returns its time.
template <class Queue> long popBoth(Queue& queue, ReferenceHeap& reference)
{
    REQUIRE(queue.top().at == reference.top().at);
    REQUIRE(queue.top().seq == reference.top().seq);
    const long at = reference.top().at;
    queue.pop();
    reference.pop();
    REQUIRE(queue.size() == reference.size());
    return at;
}

} // namespace lifeline::test
