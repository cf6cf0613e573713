// A bounded history (EngineOptions::historyMs): lane records and events of what ended long enough ago are released
// in whole chunks by the run (RunStore::forgetBefore), so a headless endpoint's memory returns to its baseline once its
// messages end. Every place that reads a lane out of a lazy list, a timer or a receipt first asks gone() and treats a
// forgotten lane as one that ended; the engine's own lists are trimmed here first.
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

namespace {
constexpr TimeMs kForgetEveryMs = 250;
} // namespace

void Engine::trimLazyLists(QueueState& queue)
{
    trimRetentionLists(queue);
    const auto notVisible = [&](MessageIndex lane) {
        return gone(lane) || m_run.message(lane).state != MessageState::Visible
            || m_run.message(lane).queue != queue.index;
    };
    while (!queue.ready.empty() && notVisible(queue.ready.front()))
        queue.ready.pop_front();
    // Messages that end out of order leave entries behind the front: compact when they outnumber the live ones.
    if (queue.ready.size() > 2 * size_t(queue.counters().visible) + 4096)
        std::erase_if(queue.ready, notVisible);
    if (!queue.fifo())
        return;
    for (uint32_t index = 0; index < queue.groups.size(); ++index) {
        FifoGroup& group = queue.groups[index];
        while (!group.messages.empty() && endedIn(queue, group.messages.front()))
            group.messages.pop_front();
        // An empty group no receive is about to look at is dropped; its slot serves the next new group id.
        if (group.messages.empty() && !group.queued && !group.id.empty()) {
            queue.groupByName.erase(group.id);
            group = FifoGroup {};
            queue.freeGroups.push_back(index);
        }
    }
}

void Engine::forgetHistory()
{
    if (m_options.historyMs < 0 || now() < m_nextForget)
        return;
    m_nextForget = now() + kForgetEveryMs;
    size_t acting = m_polls.size() - m_freePollSlots.size() + m_moveTasks.size();
    for (const auto& queue : m_queues) {
        trimLazyLists(*queue);
        acting += size_t(queue->counters().inFlight + queue->counters().delayed);
    }
    // The visibility timer of a message deleted in flight waits for its time to do nothing: drop such timers once
    // they outnumber the ones that will act.
    if (m_timers.size() > 2 * acting + 4096)
        m_timers.removeIf([&](const Timer& timer) { return staleTimer(timer); });
    m_run.forgetBefore(now() - m_options.historyMs);
}

bool Engine::staleTimer(const Timer& timer) const
{
    switch (timer.kind) {
    case DelayEnd:
    case VisibilityEnd: {
        if (gone(timer.target))
            return true;
        const MessageRecord& record = m_run.message(timer.target);
        return record.state != (timer.kind == DelayEnd ? MessageState::Delayed : MessageState::InFlight)
            || times(timer.target).dueAt != timer.at;
    }
    case PollTimeout:
        return timer.target >= m_polls.size() || m_polls[timer.target].id == 0
            || m_polls[timer.target].deadline != timer.at;
    case MoveTaskTick:
        return false;
    }
    return false;
}

} // namespace lifeline
