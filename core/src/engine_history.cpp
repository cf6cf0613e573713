// A bounded history (EngineOptions::historyMs): lane records and events of what ended long enough ago are released
// in whole chunks, so a headless endpoint's memory returns to its baseline once its messages end.
//
// Why a chunk at a time: lane indices are what receipts, timers and the lazy lists name, so they must never move or be
// reused. A chunk of 4,096 lanes is released once every lane in it has ended and its hold time has passed; every
// place that reads a lane out of a lazy list, a timer or a receipt first asks gone() and treats a forgotten lane as
// one that ended.
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

namespace {
constexpr TimeMs kForgetEveryMs = 1000;
} // namespace

uint32_t Engine::addExtra(MessageExtra extra)
{
    if (m_freeExtras.empty()) {
        m_extras.push_back(std::move(extra));
        return uint32_t(m_extras.size() - 1);
    }
    const uint32_t slot = m_freeExtras.back();
    m_freeExtras.pop_back();
    m_extras[slot] = std::move(extra);
    return slot;
}

void Engine::trimLazyLists(QueueState& queue)
{
    trimRetentionLists(queue);
    const auto notVisible = [&](MessageIndex lane) {
        return gone(lane) || m_messages[lane].state != MessageState::Visible || m_messages[lane].queue != queue.index;
    };
    while (!queue.ready.empty() && notVisible(queue.ready.front()))
        queue.ready.pop_front();
    // Messages that end out of order leave entries behind the front: compact when they outnumber the live ones.
    if (queue.ready.size() > 2 * size_t(queue.counters.visible) + 4096)
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
    m_nextForget = m_now + kForgetEveryMs;
    m_log.releaseBefore(m_now - m_options.historyMs);
    size_t acting = m_polls.size() - m_freePollSlots.size() + m_moveTasks.size();
    for (const auto& queue : m_queues) {
        trimLazyLists(*queue);
        acting += size_t(queue->counters.inFlight + queue->counters.delayed);
    }
    // The visibility timer of a message deleted in flight waits for its time to do nothing: drop such timers once
    // they outnumber the ones that will act.
    if (m_timers.size() > 2 * acting + 4096)
        m_timers.removeIf([&](const Timer& timer) { return staleTimer(timer); });
    constexpr size_t kChunk = size_t(1) << kLaneChunkBits;
    for (size_t chunk = m_firstHeldChunk; chunk < m_laneChunks.size(); ++chunk) {
        const LaneChunk& info = m_laneChunks[chunk];
        if (m_messages.chunkReleased(chunk) || info.live != 0 || info.holdUntil > m_now
            || (chunk + 1) * kChunk > m_messages.size())
            continue;
        for (size_t lane = chunk * kChunk; lane < (chunk + 1) * kChunk; ++lane) {
            const MessageRecord& record = m_messages[lane];
            m_bodyHeapBytes -= bodyHeapCost(record.body);
            if (const uint32_t slot = record.extra; slot != UINT32_MAX) {
                m_extras[slot] = MessageExtra {};
                m_freeExtras.push_back(slot);
            }
            if (record.packedTimes.wide())
                m_wideTimes.erase(MessageIndex(lane));
        }
        m_messages.releaseChunk(chunk);
    }
    while (m_firstHeldChunk < m_laneChunks.size() && m_messages.chunkReleased(m_firstHeldChunk))
        ++m_firstHeldChunk;
}

bool Engine::staleTimer(const Timer& timer) const
{
    switch (timer.kind) {
    case DelayEnd:
    case VisibilityEnd: {
        if (gone(timer.target))
            return true;
        const MessageRecord& record = m_messages[timer.target];
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
