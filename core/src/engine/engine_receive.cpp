// ReceiveMessage: short and long polls, FIFO group rules, the lazy move to the dead-letter queue.
#include "engine_internal.h"
#include "lifeline/engine/message_rules.h"
#include "lifeline/support/digest.h"

#include <algorithm>

namespace lifeline {

namespace {
SqsError outOfRange(const char* parameter, int64_t value, const char* reason)
{
    return makeError(codes::InvalidParameterValue,
        "Value " + std::to_string(value) + " for parameter " + parameter + " is invalid. Reason: " + reason);
}

} // namespace

AttributeMap ReceivedMessage::systemAttributes(const std::vector<std::string>& names) const
{
    const bool all = std::find(names.begin(), names.end(), "All") != names.end();
    const auto wants
        = [&](const char* name) { return all || std::find(names.begin(), names.end(), name) != names.end(); };
    AttributeMap out;
    if (wants("SenderId"))
        out["SenderId"] = std::string(senderId);
    if (wants("SentTimestamp"))
        out["SentTimestamp"] = std::to_string(sentTimestamp);
    if (wants("ApproximateReceiveCount"))
        out["ApproximateReceiveCount"] = std::to_string(approximateReceiveCount);
    if (wants("ApproximateFirstReceiveTimestamp"))
        out["ApproximateFirstReceiveTimestamp"] = std::to_string(approximateFirstReceiveTimestamp);
    if (wants("AWSTraceHeader") && !awsTraceHeader.empty())
        out["AWSTraceHeader"] = awsTraceHeader;
    if (wants("DeadLetterQueueSourceArn") && !deadLetterQueueSourceArn.empty())
        out["DeadLetterQueueSourceArn"] = deadLetterQueueSourceArn;
    if (wants("MessageGroupId") && !messageGroupId.empty())
        out["MessageGroupId"] = messageGroupId;
    if (fifo && wants("MessageDeduplicationId"))
        out["MessageDeduplicationId"] = messageDeduplicationId;
    if (fifo && wants("SequenceNumber"))
        out["SequenceNumber"] = sequenceNumber;
    return out;
}

void Engine::markAvailable(QueueState& queue, MessageIndex lane)
{
    if (queue.fifo()) {
        const MessageExtra& e = *m_run.extra(lane);
        auto it = queue.groupByName.find(e.groupId);
        if (it != queue.groupByName.end() && !queue.groups[it->second].queued) {
            queue.groups[it->second].queued = true;
            queue.candidates.push_back(it->second);
        }
    } else {
        queue.ready.push_back(lane);
    }
    if (!queue.polls.empty() && !queue.wakeQueued) {
        queue.wakeQueued = true;
        m_wakeups.push_back(queue.index);
    }
}

void Engine::endMessage(
    QueueState& queue, MessageIndex lane, MessageState to, Cause cause, uint32_t actor, uint32_t detail)
{
    const MessageState from = m_run.message(lane).state;
    m_run.transition(lane, to, cause, actor, detail);
    countTenant(queue, lane, from, to);
    // The lane stays; its body too when viewers want it (and it is short), else it is released.
    if (!m_options.keepEndedBodies || m_run.message(lane).body.size() > kKeptBodyBytes)
        m_run.clearBody(lane, m_options.historyMs != 0);
    --queue.liveMessages;
    // A FIFO group blocked by this message (or headed by it) may now serve its next one.
    if (queue.fifo() && queue.alive())
        markAvailable(queue, lane);
}

bool Engine::takeOrDeadLetter(QueueState& queue, MessageIndex lane, uint32_t receiver)
{
    const auto& policy = queue.attributes().redrivePolicy;
    if (!policy || m_run.message(lane).receiveCount < uint32_t(policy->maxReceiveCount))
        return true;
    const QueueState* dlq = findQueueByArn(policy->deadLetterTargetArn);
    if (!dlq || dlq == &queue)
        return true; // the DLQ was deleted (SQS keeps delivering), or a run file names the queue itself
    moveToDeadLetterQueue(queue, lane, receiver);
    return false;
}

void Engine::moveToDeadLetterQueue(QueueState& source, MessageIndex lane, uint32_t receiver)
{
    QueueState& dlq = *findQueueByArn(source.attributes().redrivePolicy->deadLetterTargetArn);
    // Same MessageId, body, SentTimestamp and receive count (AWS-snap); copied before endMessage drops the body.
    const MessageRecord& record = m_run.message(lane);
    const CompactText body = record.body;
    const uint32_t receiveCount = record.receiveCount;
    const bool copyOfDrawnId = record.idSource == IdSource::Lane;
    LaneTimes copyTimes = times(lane);
    const MessageIdParts id = messageIdParts(lane);
    // Retention: a standard queue keeps the original enqueue time, a FIFO queue restarts it (AWS-doc).
    if (dlq.fifo())
        copyTimes.enqueuedAt = now();
    const MessageExtra* sourceExtra = extra(lane);
    MessageExtra arrivalExtra = sourceExtra ? *sourceExtra : MessageExtra {};
    endMessage(source, lane, MessageState::DeadLettered, Cause::MoveToDlq, receiver, dlq.index);
    const MessageIndex arrival
        = m_run.newLane(dlq.index, MessageState::Visible, Cause::ArriveFromDlqSource, receiver, lane, holdUntil(dlq));
    m_run.setBody(arrival, body.view());
    m_run.setReceiveCount(arrival, receiveCount);
    m_run.setTimes(arrival, copyTimes);
    arrivalExtra.deadLetterQueueSourceArn = source.arn();
    arrivalExtra.origin = lane;
    if (dlq.fifo()) {
        // "the original message's deduplication ID will be replaced with the original message's ID" (AWS-doc)
        arrivalExtra.deduplicationId = formatMessageId(id);
        arrivalExtra.sequenceNumber = nextSequenceNumber(dlq);
        addToGroup(dlq, arrival, arrivalExtra.groupId);
    }
    m_run.setExtra(arrival, std::move(arrivalExtra));
    enterTenant(dlq, arrival, false);
    // The same MessageId: drawn from the source's lane when it was (one step back, through the arrival's origin);
    // kept beside the lanes otherwise (a message dead-lettered twice, a lane from a run file).
    if (copyOfDrawnId)
        m_run.idFromOrigin(arrival);
    else
        m_run.keepMessageId(arrival, id);
    admitArrival(dlq, arrival, copyTimes.enqueuedAt);
}

void Engine::admitArrival(QueueState& queue, MessageIndex lane, TimeMs enqueued)
{
    // Ended lanes at the back say nothing about the order (and a forgotten one has no time left to read).
    while (!queue.byEnqueue.empty() && endedIn(queue, queue.byEnqueue.back()))
        queue.byEnqueue.pop_back();
    if (!queue.byEnqueue.empty() && m_run.message(queue.byEnqueue.back()).packedTimes.enqueuedAt() > enqueued)
        queue.lateArrivals.emplace(enqueued, lane);
    else
        queue.byEnqueue.push_back(lane);
    lowerExpiryBound(queue, enqueued);
    ++queue.liveMessages;
    markAvailable(queue, lane);
}

size_t Engine::sampledMax(QueueState& queue, int64_t wait, int64_t max, uint32_t actor)
{
    // "Short polling ... samples a subset of its servers": fewer messages than are visible, or none (docs/faults.md).
    // Only a poll that could take a message is sampled, so each one noted hid at least one.
    const auto visible = size_t(std::max<int64_t>(0, queue.counters().visible));
    if (wait != 0 || visible == 0 || !m_faults
        || !m_faults->strikes(FaultKind::ShortPollSample, "ReceiveMessage", queue.name(), now()))
        return size_t(max);
    m_run.note(
        kNoMessage, queue.index, MessageState::None, Cause::FaultInjected, actor, uint32_t(FaultKind::ShortPollSample));
    return m_faults->below(uint32_t(std::min(size_t(max), visible)));
}

void Engine::makeDueCopies()
{
    for (const MessageIndex lane : std::exchange(m_copiesDue, {})) {
        QueueState& queue = *m_queues[m_run.message(lane).queue];
        const CompactText body = m_run.message(lane).body; // the copy is a whole message: body, attributes, id
        LaneTimes times = this->times(lane);
        times.receivedAt = times.dueAt = -1;
        MessageExtra extra = this->extra(lane) ? *this->extra(lane) : MessageExtra {};
        extra.origin = lane;
        extra.copy = true;
        const bool drawnId = m_run.message(lane).idSource == IdSource::Lane;
        const MessageIdParts id = messageIdParts(lane);
        const uint32_t receives = m_run.message(lane).receiveCount;
        const MessageIndex copy
            = m_run.newLane(queue.index, MessageState::Visible, Cause::InjectedCopy, kSqsActor, lane, holdUntil(queue));
        m_run.setBody(copy, body.view());
        m_run.setReceiveCount(copy, receives);
        m_run.setTimes(copy, times);
        m_run.setExtra(copy, std::move(extra));
        if (drawnId)
            m_run.idFromOrigin(copy);
        else
            m_run.keepMessageId(copy, id);
        enterTenant(queue, copy, false);
        admitArrival(queue, copy, times.enqueuedAt);
    }
}

LaneTimes Engine::deliver(MessageIndex lane, int64_t visibilitySeconds, uint32_t actor)
{
    m_run.countReceive(lane);
    LaneTimes times = this->times(lane);
    if (times.firstReceiveAt < 0)
        times.firstReceiveAt = now();
    times.receivedAt = now();
    times.dueAt = now() + visibilitySeconds * 1000;
    m_run.setTimes(lane, times);
    addTimer(times.dueAt, VisibilityEnd, lane);
    m_run.transition(lane, MessageState::InFlight, Cause::Receive, actor, m_run.message(lane).receiveCount);
    QueueState& queue = *m_queues[m_run.message(lane).queue];
    countTenant(queue, lane, MessageState::Visible, MessageState::InFlight);
    // At-least-once delivery: a standard queue's receive may leave a copy of the message on a server (docs/faults.md).
    if (m_faults && !queue.fifo() && m_faults->strikes(FaultKind::Duplicate, "ReceiveMessage", queue.name(), now()))
        m_copiesDue.push_back(lane);
    return times;
}

void Engine::deliverTo(
    std::vector<ReceivedMessage>& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds, uint32_t actor)
{
    const LaneTimes times = deliver(lane, visibilitySeconds, actor);
    describe(out.emplace_back(), queue, lane, times);
}

void Engine::deliverTo(
    DeliveryList& out, QueueState& queue, MessageIndex lane, int64_t visibilitySeconds, uint32_t actor)
{
    deliver(lane, visibilitySeconds, actor);
    out.push_back(Delivery { lane, Receipt { lane, m_run.message(lane).receiveCount, queue.uid } });
}

void Engine::describe(ReceivedMessage& m, const QueueState& queue, MessageIndex lane, const LaneTimes& times) const
{
    const MessageRecord& record = m_run.message(lane);
    m.lane = lane;
    if (m_options.idStrings)
        m.messageId = messageId(lane);
    m.receipt = Receipt { lane, record.receiveCount, queue.uid };
    if (m_options.idStrings)
        m.receiptHandle = receiptHandle(m.receipt);
    m.body = record.body;
    if (m_options.bodyDigests) // computed here, not kept: 16 bytes a lane that a run of millions would hold
        m.md5OfBody = md5(record.body);
    m.sentTimestamp = m_options.epochMs + times.sentAt;
    m.approximateFirstReceiveTimestamp = m_options.epochMs + times.firstReceiveAt;
    m.approximateReceiveCount = record.receiveCount;
    m.senderId = m_options.senderId;
    m.fifo = queue.fifo();
    if (const MessageExtra* e = extra(lane)) {
        m.attributes = e->attributes;
        m.md5OfMessageAttributes = e->md5OfAttributes;
        m.messageGroupId = e->groupId;
        m.messageDeduplicationId = e->deduplicationId;
        m.sequenceNumber = e->sequenceNumber;
        m.deadLetterQueueSourceArn = e->deadLetterQueueSourceArn;
        m.awsTraceHeader = e->awsTraceHeader;
    }
}

template <class Out>
void Engine::collect(QueueState& queue, size_t max, int64_t visibilitySeconds, uint32_t actor, Out& out)
{
    if (const size_t room = inFlightRoom(queue); room < max - std::min(max, out.size()))
        max = out.size() + room; // SQS's in-flight quota (EngineOptions::quotas)
    if (!queue.fifo()) {
        if (queue.fair && !queue.fair->noisy.empty()) {
            collectFair(queue, max, visibilitySeconds, actor, out);
            return;
        }
        while (out.size() < max && !queue.ready.empty()) {
            const MessageIndex lane = queue.ready.front();
            queue.ready.pop_front();
            if (gone(lane))
                continue; // stale entry of a message that ended long ago
            const MessageRecord& record = m_run.message(lane);
            if (record.state != MessageState::Visible || record.queue != queue.index)
                continue; // stale entry
            if (takeOrDeadLetter(queue, lane, actor))
                deliverTo(out, queue, lane, visibilitySeconds, actor);
        }
        return;
    }
    // FIFO: as many of one group as possible, in order, up to its first message that is not visible.
    while (out.size() < max && !queue.candidates.empty()) {
        const uint32_t groupIndex = queue.candidates.front();
        queue.candidates.pop_front();
        FifoGroup& group = queue.groups[groupIndex];
        group.queued = false;
        size_t i = 0;
        bool stoppedAtMax = false;
        while (i < group.messages.size()) {
            const MessageIndex lane = group.messages[i];
            const MessageRecord& record = message(lane); // a forgotten lane reads as ended
            if (!isLive(record.state) || record.queue != queue.index) {
                if (i == 0)
                    group.messages.pop_front();
                else
                    ++i;
                continue;
            }
            if (record.state != MessageState::Visible)
                break; // in flight or delayed: the rest of the group waits
            if (out.size() >= max) {
                stoppedAtMax = true;
                break;
            }
            if (takeOrDeadLetter(queue, lane, actor))
                deliverTo(out, queue, lane, visibilitySeconds, actor);
            // A moved message is now terminal and is dropped on the next turn of the loop.
            if (m_run.message(lane).state == MessageState::InFlight)
                ++i;
        }
        if (stoppedAtMax && !group.queued) {
            group.queued = true;
            queue.candidates.push_front(groupIndex);
        }
    }
}

Result<ReceiveOutcome> Engine::receiveMessage(const ReceiveMessageRequest& request)
{
    auto found = requireQueue(request.queue);
    if (!found)
        return refuse(kNoQueue, found.error(), request.actor);
    QueueState& queue = *found.value();
    const int64_t max = request.maxNumberOfMessages.value_or(1);
    if (max < 1 || max > 10)
        return refuse(queue.index, outOfRange("MaxNumberOfMessages", max, "Must be between 1 and 10, if provided."),
            request.actor);
    const int64_t wait = request.waitTimeSeconds.value_or(queue.attributes().receiveMessageWaitTimeSeconds);
    if (wait < 0 || wait > 20)
        return refuse(
            queue.index, outOfRange("WaitTimeSeconds", wait, "Must be >= 0 and <= 20, if provided."), request.actor);
    const int64_t visibility = request.visibilityTimeout.value_or(queue.attributes().visibilityTimeout);
    // Unverified text (sqs-semantics.md section 5): the emulators' wording, in the pattern of WaitTimeSeconds.
    if (visibility < 0 || visibility > 43200)
        return refuse(queue.index,
            outOfRange("VisibilityTimeout", visibility, "Must be >= 0 and <= 43200, if provided."), request.actor);
    if (request.receiveRequestAttemptId && !isValidTokenId(*request.receiveRequestAttemptId))
        return refuse(queue.index,
            makeError(codes::InvalidParameterValue,
                "Value " + *request.receiveRequestAttemptId
                    + " for parameter ReceiveRequestAttemptId is invalid. Reason: ReceiveRequestAttemptId can only "
                      "include alphanumeric and punctuation characters. 1 to 128 in length."),
            request.actor);

    if (auto throttled = throttle(queue, QuotaAction::Receive))
        return refuse(queue.index, *throttled, request.actor);
    // The text a real response carried (2014); AWS documents the error, not its words (docs/decisions.md, "Quotas").
    if (!queue.fifo() && wait == 0 && inFlightRoom(queue) == 0)
        return refuse(queue.index,
            makeError(codes::OverLimit,
                "Too many messages have been received without being deleted.\nPlease delete your received messages "
                "or let them timeout before receiving more.",
                403),
            request.actor);

    const bool keepsAttempt = queue.fifo() && request.receiveRequestAttemptId && !request.deliveriesOnly;
    if (keepsAttempt)
        if (auto replayed = replayAttempt(queue, *request.receiveRequestAttemptId, visibility, request.actor))
            return std::move(*replayed);
    ReceiveOutcome outcome;
    if (request.deliveriesOnly)
        collect(queue, sampledMax(queue, wait, max, request.actor), visibility, request.actor, outcome.deliveries);
    else
        collect(queue, sampledMax(queue, wait, max, request.actor), visibility, request.actor, outcome.messages);
    makeDueCopies();
    const size_t received = outcome.messages.size() + outcome.deliveries.size();
    if (received > 0 || wait == 0) {
        if (keepsAttempt && received > 0)
            rememberAttempt(queue, *request.receiveRequestAttemptId, outcome.messages);
        m_run.note(kNoMessage, queue.index, MessageState::None, Cause::PollEnded, request.actor, uint32_t(received));
        flushWakeups();
        return outcome;
    }
    size_t slot = m_polls.size();
    if (!m_freePollSlots.empty()) {
        slot = m_freePollSlots.back();
        m_freePollSlots.pop_back();
    } else {
        m_polls.emplace_back();
    }
    PendingPoll& poll = m_polls[slot];
    poll.id = m_nextPoll++;
    poll.queue = queue.index;
    poll.max = size_t(max);
    poll.visibilitySeconds = visibility;
    poll.actor = request.actor;
    poll.deadline = now() + wait * 1000;
    poll.deliveriesOnly = request.deliveriesOnly;
    poll.attemptId = keepsAttempt ? *request.receiveRequestAttemptId : std::string();
    outcome.pending = true;
    outcome.poll = poll.id;
    m_run.note(kNoMessage, queue.index, MessageState::None, Cause::PollStarted, request.actor, uint32_t(poll.id));
    addTimer(poll.deadline, PollTimeout, uint32_t(slot));
    queue.polls.push_back(slot);
    flushWakeups();
    return outcome;
}

CompletedPoll& Engine::completePoll(size_t slot, size_t count, bool queueDeleted)
{
    const PendingPoll poll = m_polls[slot];
    freePollSlot(slot);
    m_run.note(kNoMessage, poll.queue, MessageState::None, Cause::PollEnded, poll.actor, uint32_t(count));
    CompletedPoll& done = m_completed.emplace_back();
    done.poll = poll.id;
    done.actor = poll.actor;
    done.queueDeleted = queueDeleted;
    return done;
}

template <class Out> bool Engine::servePoll(QueueState& queue, size_t slot, Out& out)
{
    const PendingPoll& poll = m_polls[slot];
    collect(queue, poll.max, poll.visibilitySeconds, poll.actor, out);
    makeDueCopies();
    if (out.empty())
        return false;
    queue.polls.pop_front();
    return true;
}

void Engine::servePolls(QueueState& queue)
{
    while (!queue.polls.empty()) {
        const size_t slot = queue.polls.front();
        if (m_polls[slot].deliveriesOnly) {
            DeliveryList deliveries;
            if (!servePoll(queue, slot, deliveries))
                return;
            completePoll(slot, deliveries.size(), false).deliveries = deliveries;
        } else {
            std::vector<ReceivedMessage> messages;
            if (!servePoll(queue, slot, messages))
                return;
            if (!m_polls[slot].attemptId.empty())
                rememberAttempt(queue, m_polls[slot].attemptId, messages);
            completePoll(slot, messages.size(), false).messages = std::move(messages);
        }
    }
}

bool Engine::cancelPoll(PollId id)
{
    for (size_t slot = 0; slot < m_polls.size(); ++slot) {
        if (m_polls[slot].id == 0 || m_polls[slot].id != id)
            continue;
        const PendingPoll poll = m_polls[slot];
        QueueState& queue = *m_queues[poll.queue];
        queue.polls.erase(std::find(queue.polls.begin(), queue.polls.end(), slot));
        freePollSlot(slot);
        m_run.note(kNoMessage, poll.queue, MessageState::None, Cause::PollEnded, poll.actor, 0);
        return true;
    }
    return false;
}

std::vector<CompletedPoll> Engine::takeCompletedPolls()
{
    std::vector<CompletedPoll> out;
    out.swap(m_completed);
    return out;
}

void Engine::takeCompletedPolls(std::vector<CompletedPoll>& out)
{
    out.clear();
    out.swap(m_completed);
}

void Engine::freePollSlot(size_t slot)
{
    m_polls[slot].id = 0;
    m_freePollSlots.push_back(slot);
}

size_t Engine::pendingPollCount() const
{
    return m_polls.size() - m_freePollSlots.size();
}

} // namespace lifeline
