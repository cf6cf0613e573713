// FIFO ReceiveRequestAttemptId, as ReceiveMessage's API model documents it: a receive retried with the same id within
// 5 minutes (its answer lost to a network error, say) returns the same messages and receipt handles, as long as none
// of them was changed since (deleted, its visibility changed, received again); the retry resets their visibility
// timeouts. Otherwise the retry is a new receive.
#include "engine_internal.h"

namespace lifeline {

void Engine::rememberAttempt(QueueState& queue, const std::string& attemptId, const std::vector<ReceivedMessage>& got)
{
    ReceiveAttempts::Attempt& attempt = queue.receiveAttempts.begin(attemptId, now(), kDeduplicationWindowMs);
    for (const ReceivedMessage& m : got)
        attempt.messages.emplace_back(m.receipt, times(m.lane).dueAt);
}

std::optional<ReceiveOutcome> Engine::replayAttempt(
    QueueState& queue, const std::string& attemptId, int64_t visibilitySeconds, uint32_t actor)
{
    ReceiveAttempts::Attempt* found = queue.receiveAttempts.find(attemptId);
    if (!found)
        return std::nullopt;
    ReceiveAttempts::Attempt& attempt = *found;
    const auto unchanged = [&](const std::pair<Receipt, TimeMs>& kept) {
        const Receipt& receipt = kept.first;
        if (gone(receipt.lane))
            return false;
        const MessageRecord& record = m_run.message(receipt.lane);
        return record.state == MessageState::InFlight && record.queue == queue.index
            && record.receiveCount == receipt.receiveCount && times(receipt.lane).dueAt == kept.second;
    };
    if (now() - attempt.at >= kDeduplicationWindowMs
        || !std::all_of(attempt.messages.begin(), attempt.messages.end(), unchanged))
        return std::nullopt; // a new receive, whose answer the id then names
    ReceiveOutcome outcome;
    for (auto& [receipt, dueAt] : attempt.messages) {
        LaneTimes laneTimes = times(receipt.lane);
        laneTimes.dueAt = now() + visibilitySeconds * 1000; // the retry resets the visibility timeout
        m_run.setTimes(receipt.lane, laneTimes);
        addTimer(laneTimes.dueAt, VisibilityEnd, receipt.lane);
        m_run.note(receipt.lane, queue.index, MessageState::InFlight, Cause::VisibilityChanged, actor,
            uint32_t(visibilitySeconds));
        dueAt = laneTimes.dueAt;
        describe(outcome.messages.emplace_back(), queue, receipt.lane, laneTimes);
    }
    m_run.note(kNoMessage, queue.index, MessageState::None, Cause::PollEnded, actor, uint32_t(outcome.messages.size()));
    flushWakeups();
    return outcome;
}

} // namespace lifeline
