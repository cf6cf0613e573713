// A queue's own policies, their state and their rule kept together in the queue's state (QueueState), so the engine
// asks them rather than growing a member for each: a FIFO queue's calls a second (SQS's throughput quota) and the
// receives each ReceiveRequestAttemptId got (for a retry within 5 minutes).
#pragma once

#include "lifeline/run/sqs_types.h"

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace lifeline {

// Calls of each kind (SendMessage, ReceiveMessage, DeleteMessage: a batch is one call) in the current virtual second.
class FifoCallRate {
public:
    // Whether one more call of kind `action` fits under `limit` in the second of `now`; counted when it does.
    bool admit(size_t action, TimeMs now, int64_t limit)
    {
        Window& window = m_windows.at(action);
        const int64_t second = now / 1000; // a call counts in the virtual second it is made in
        if (window.second != second)
            window = { second, 0 };
        if (window.calls >= limit)
            return false;
        ++window.calls;
        return true;
    }

private:
    struct Window {
        int64_t second = -1;
        int64_t calls = 0;
    };
    std::array<Window, 3> m_windows {};
};

// What each ReceiveRequestAttemptId received: each message's receipt and the visibility end it was left with, in the
// order received, the ids older than the window dropped first so what is kept stays bounded by the window's receives.
class ReceiveAttempts {
public:
    struct Attempt {
        TimeMs at = 0;
        std::vector<std::pair<Receipt, TimeMs>> messages;
    };

    // The id's record, begun anew at `now` (empty), after the ids older than `window` are dropped.
    Attempt& begin(const std::string& id, TimeMs now, TimeMs window)
    {
        while (!m_order.empty() && m_order.front().first + window <= now) {
            const auto& [at, old] = m_order.front();
            if (const auto it = m_byId.find(old); it != m_byId.end() && it->second.at == at)
                m_byId.erase(it);
            m_order.pop_front();
        }
        Attempt& attempt = m_byId[id];
        attempt.at = now;
        attempt.messages.clear();
        m_order.emplace_back(now, id);
        return attempt;
    }
    // The id's record, if it has one (it may be older than the window: the caller judges).
    Attempt* find(const std::string& id)
    {
        const auto it = m_byId.find(id);
        return it == m_byId.end() ? nullptr : &it->second;
    }

private:
    std::unordered_map<std::string, Attempt> m_byId;
    std::deque<std::pair<TimeMs, std::string>> m_order;
};

} // namespace lifeline
