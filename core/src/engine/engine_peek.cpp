// A look inside a queue that changes nothing (Engine::peekMessages).
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

Result<std::vector<Engine::PeekedMessage>> Engine::peekMessages(
    const std::string& name, bool inFlight, bool delayed) const
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    const QueueState& queue = *found.value();
    // Every message that entered the queue is in its retention lists (lazy: ended and moved ones are skipped).
    std::vector<MessageIndex> lanes(queue.byEnqueue.begin(), queue.byEnqueue.end());
    for (auto late = queue.lateArrivals; !late.empty(); late.pop())
        lanes.push_back(late.top().second);
    std::sort(lanes.begin(), lanes.end());
    lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
    std::vector<PeekedMessage> out;
    for (const MessageState state : { MessageState::InFlight, MessageState::Visible, MessageState::Delayed }) {
        if ((state == MessageState::InFlight && !inFlight) || (state == MessageState::Delayed && !delayed))
            continue;
        for (const MessageIndex lane : lanes) {
            if (gone(lane))
                continue;
            const MessageRecord& record = m_run.message(lane);
            if (record.queue != queue.index || record.state != state)
                continue;
            PeekedMessage& peeked = out.emplace_back();
            peeked.state = state;
            describe(peeked.message, queue, lane, times(lane));
        }
    }
    return out;
}

} // namespace lifeline
