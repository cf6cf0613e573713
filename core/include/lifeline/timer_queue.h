// A min-queue of timers ordered by (time, sequence) with an O(1) path for the common case: timers pushed in
// non-decreasing time (one queue's visibility timeouts, one delay for every message) go to a FIFO; only the
// out-of-order ones (a ChangeMessageVisibility, a shorter per-receive timeout) pay for the heap.
#pragma once

#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace lifeline {

template <class T> // T has `at` and `seq`, and operator>
class TimerQueue {
public:
    void push(const T& timer)
    {
        if (m_fifo.empty() || !(m_fifo.back().at > timer.at))
            m_fifo.push_back(timer);
        else
            m_heap.push(timer);
    }
    bool empty() const { return m_fifo.empty() && m_heap.empty(); }
    size_t size() const { return m_fifo.size() + m_heap.size(); }
    const T& top() const
    {
        if (m_heap.empty())
            return m_fifo.front();
        if (m_fifo.empty())
            return m_heap.top();
        return m_fifo.front() > m_heap.top() ? m_heap.top() : m_fifo.front();
    }
    void pop()
    {
        if (m_heap.empty() || (!m_fifo.empty() && !(m_fifo.front() > m_heap.top())))
            m_fifo.pop_front();
        else
            m_heap.pop();
    }

private:
    std::deque<T> m_fifo;
    std::priority_queue<T, std::vector<T>, std::greater<>> m_heap;
};

} // namespace lifeline
