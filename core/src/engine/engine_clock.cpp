// The virtual clock: timers (delays, visibility, long polls, move tasks), retention expiry, FIFO delay changes.
#include "engine_internal.h"

#include <algorithm>

namespace lifeline {

void Engine::addTimer(TimeMs at, TimerKind kind, uint32_t target)
{
    m_timers.emplace(at, [&](Timer& timer) {
        timer.at = at;
        timer.seq = m_timerSeq++;
        timer.target = target;
        timer.kind = kind;
    });
}

TimeMs Engine::nextExpiry(QueueState& queue)
{
    if (!queue.alive() || queue.liveMessages == 0)
        return INT64_MAX;
    trimRetentionLists(queue);
    TimeMs oldest = INT64_MAX;
    if (!queue.byEnqueue.empty())
        oldest = m_run.message(queue.byEnqueue.front()).packedTimes.enqueuedAt();
    if (!queue.lateArrivals.empty())
        oldest = std::min(oldest, queue.lateArrivals.top().first);
    if (oldest == INT64_MAX)
        return INT64_MAX;
    // Judged against the current attribute: lowering it expires older messages (AWS-doc CreateQueue).
    return oldest + queue.attributes().messageRetentionPeriod * 1000;
}

bool Engine::endedIn(const QueueState& queue, MessageIndex lane) const
{
    return gone(lane) || !isLive(m_run.message(lane).state) || m_run.message(lane).queue != queue.index;
}

void Engine::trimRetentionLists(QueueState& queue)
{
    const auto ended = [&](MessageIndex lane) { return endedIn(queue, lane); };
    while (!queue.byEnqueue.empty() && ended(queue.byEnqueue.front()))
        queue.byEnqueue.pop_front();
    while (!queue.lateArrivals.empty() && ended(queue.lateArrivals.top().second))
        queue.lateArrivals.pop();
    // Keep the lazy list from growing without bound when messages end out of order.
    if (queue.byEnqueue.size() > 2 * queue.liveMessages + kRetentionListSlack)
        std::erase_if(queue.byEnqueue, ended);
}

void Engine::lowerExpiryBound(QueueState& queue, TimeMs enqueuedAt)
{
    const TimeMs expiry = enqueuedAt + queue.attributes().messageRetentionPeriod * 1000;
    queue.expiryBound = std::min(queue.expiryBound, expiry);
}

TimeMs Engine::nextDueTime()
{
    TimeMs due = m_timers.earliest(INT64_MAX);
    for (const auto& queue : m_queues) {
        queue->expiryBound = nextExpiry(*queue);
        due = std::min(due, queue->expiryBound);
    }
    return due;
}

TimeMs Engine::nextDueBound()
{
    TimeMs due = m_timers.earliest(INT64_MAX);
    // A bound still in the future stands for the exact expiry: nothing can expire before it. Reached, it is
    // replaced by the exact time (which may be later: the oldest messages were deleted meanwhile).
    for (const auto& queue : m_queues) {
        if (queue->expiryBound <= now())
            queue->expiryBound = nextExpiry(*queue);
        due = std::min(due, queue->expiryBound);
    }
    return due;
}

void Engine::expireDue(QueueState& queue, TimeMs time)
{
    while (nextExpiry(queue) <= time) {
        MessageIndex lane;
        const bool fromFront = !queue.byEnqueue.empty()
            && (queue.lateArrivals.empty()
                || m_run.message(queue.byEnqueue.front()).packedTimes.enqueuedAt() <= queue.lateArrivals.top().first);
        if (fromFront) {
            lane = queue.byEnqueue.front();
            queue.byEnqueue.pop_front();
        } else {
            lane = queue.lateArrivals.top().second;
            queue.lateArrivals.pop();
        }
        endMessage(queue, lane, MessageState::Expired, Cause::Expiry); // even while in flight (AWS-val)
    }
}

void Engine::advanceTo(TimeMs time)
{
    flushWakeups();
    for (;;) {
        const TimeMs due = nextDueBound();
        if (due > time)
            break;
        m_run.setNow(due);
        while (m_timers.earliest(INT64_MAX) <= now()) {
            const Timer timer = m_timers.top();
            m_timers.pop();
            fire(timer);
        }
        for (const auto& queue : m_queues)
            if (queue->expiryBound <= now()) // a bound still ahead: nothing in that queue can expire yet
                expireDue(*queue, now());
        flushWakeups();
    }
    m_run.setNow(time);
    if (m_options.historyMs >= 0 && m_options.forgetsOnItsOwn && now() >= m_nextForget)
        forgetHistory();
}

void Engine::fire(const Timer& timer)
{
    switch (timer.kind) {
    case DelayEnd:
    case VisibilityEnd: {
        if (gone(timer.target))
            return; // the message ended long ago
        const MessageRecord& record = m_run.message(timer.target);
        const MessageState expected = timer.kind == DelayEnd ? MessageState::Delayed : MessageState::InFlight;
        if (record.state != expected || times(timer.target).dueAt != timer.at)
            return; // superseded (received, deleted, visibility changed, ...)
        QueueState& queue = *m_queues[record.queue];
        m_run.transition(
            timer.target, MessageState::Visible, timer.kind == DelayEnd ? Cause::DelayEnded : Cause::VisibilityTimeout);
        countTenant(queue, timer.target, expected, MessageState::Visible);
        markAvailable(queue, timer.target);
        return;
    }
    case PollTimeout: {
        const size_t slot = timer.target;
        if (slot >= m_polls.size() || m_polls[slot].id == 0 || m_polls[slot].deadline != timer.at)
            return;
        QueueState& queue = *m_queues[m_polls[slot].queue];
        queue.polls.erase(std::find(queue.polls.begin(), queue.polls.end(), slot));
        completePoll(slot, 0, false);
        return;
    }
    case MoveTaskTick:
        tickMoveTask(timer.target);
        return;
    }
}

void Engine::settlePresent()
{
    // Settle the present instant: timers due now (a visibility of 0 s) and long polls a change has woken.
    for (;;) {
        bool worked = false;
        while (m_timers.earliest(INT64_MAX) <= now()) {
            const Timer timer = m_timers.top();
            m_timers.pop();
            fire(timer);
            worked = true;
        }
        while (!m_wakeups.empty()) {
            QueueState& queue = *m_queues[m_wakeups.back()];
            m_wakeups.pop_back();
            queue.wakeQueued = false;
            if (queue.alive())
                servePolls(queue);
            worked = true;
        }
        if (!worked)
            return;
    }
}

void Engine::applyFifoDelayChange(QueueState& queue, int64_t oldDelaySeconds, uint32_t actor)
{
    const TimeMs delayMs = queue.attributes().delaySeconds * 1000;
    const uint32_t change = Event::delayChange(uint32_t(oldDelaySeconds), uint32_t(queue.attributes().delaySeconds));
    for (const MessageIndex lane : queue.byEnqueue) {
        if (gone(lane))
            continue;
        const MessageRecord& record = m_run.message(lane);
        if (record.state != MessageState::Delayed || record.queue != queue.index)
            continue;
        LaneTimes times = this->times(lane);
        const TimeMs due = times.enqueuedAt + delayMs;
        if (due <= now()) {
            m_run.transition(lane, MessageState::Visible, Cause::DelayChanged, actor, change);
            markAvailable(queue, lane);
        } else if (due != times.dueAt) {
            times.dueAt = due;
            m_run.setTimes(lane, times);
            addTimer(due, DelayEnd, lane);
            m_run.note(lane, queue.index, MessageState::Delayed, Cause::DelayChanged, actor, change);
        }
    }
}

} // namespace lifeline
