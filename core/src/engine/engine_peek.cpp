// A look inside a queue that changes nothing (Engine::peekLanes, Engine::describePeeked).
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

Result<std::vector<Engine::PeekedLane>> Engine::peekLanes(const std::string& name, bool inFlight, bool delayed) const
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
    std::vector<PeekedLane> out;
    for (const MessageState state : { MessageState::InFlight, MessageState::Visible, MessageState::Delayed })
        if ((state != MessageState::InFlight || inFlight) && (state != MessageState::Delayed || delayed))
            for (const MessageIndex lane : lanes)
                if (!gone(lane) && m_run.message(lane).queue == queue.index && m_run.message(lane).state == state)
                    out.push_back({ lane, queue.index, state });
    return out;
}

std::optional<ReceivedMessage> Engine::describePeeked(const PeekedLane& peeked) const
{
    if (gone(peeked.lane) || m_run.message(peeked.lane).queue != peeked.queue
        || m_run.message(peeked.lane).state != peeked.state)
        return std::nullopt;
    ReceivedMessage message;
    describe(message, *m_queues[peeked.queue], peeked.lane, times(peeked.lane));
    return message;
}

} // namespace lifeline
