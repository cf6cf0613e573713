// SendMessage and SendMessageBatch: validation, delays, FIFO groups and deduplication.
#include "engine_internal.h"
#include "lifeline/engine/message_rules.h"
#include "lifeline/support/digest.h"

#include <cstdio>

namespace lifeline {

namespace {

constexpr size_t kBatchPayloadLimit = 1048576; // regardless of the queue's MaximumMessageSize (AWS-snap)

} // namespace

MessageIndex Engine::newLane(QueueState& queue, TimeMs delayMs, Cause cause, uint32_t actor, uint32_t detail)
{
    const MessageState to = delayMs > 0 ? MessageState::Delayed : MessageState::Visible;
    const MessageIndex lane = m_run.newLane(queue.index, to, cause, actor, detail, holdUntil(queue));
    LaneTimes times { .sentAt = now(), .enqueuedAt = now() };
    queue.byEnqueue.push_back(lane);
    lowerExpiryBound(queue, now());
    ++queue.liveMessages;
    // The clock trims the retention list only when an expiry may be due; between times it grows here, by as many
    // lanes as end, so it is trimmed once it holds twice the live ones.
    if (queue.byEnqueue.size() > 2 * queue.liveMessages + kRetentionListSlack)
        trimRetentionLists(queue);
    if (delayMs > 0) {
        times.dueAt = now() + delayMs;
        addTimer(times.dueAt, DelayEnd, lane);
    }
    m_run.setTimes(lane, times);
    return lane;
}

SendMessageResult Engine::enqueue(QueueState& queue, const std::string& body, std::optional<int64_t> delaySeconds,
    const std::vector<MessageAttribute>& attributes, const std::optional<std::string>& groupId,
    const std::optional<std::string>& dedupId, const std::optional<std::string>& traceHeader, uint32_t actor)
{
    SendMessageResult result;
    if (traceHeader) // the same digest as message attributes', over the one system attribute (AWS-doc)
        result.md5OfMessageSystemAttributes
            = md5OfMessageAttributes({ MessageAttribute { "AWSTraceHeader", { "String", *traceHeader, {} } } });
    std::string dedupKey;
    if (queue.fifo()) {
        if (dedupId) {
            dedupKey = *dedupId;
        } else {
            const auto hash = sha256(body); // content-based: the body only, not the attributes (AWS-doc)
            dedupKey = toHex(hash.data(), hash.size());
        }
        if (queue.deduplicateByGroup)
            dedupKey = *groupId + '\x1f' + dedupKey;
        while (!queue.dedupOrder.empty() && queue.dedupOrder.front().first <= now()) {
            auto it = queue.dedup.find(queue.dedupOrder.front().second);
            if (it != queue.dedup.end() && it->second.first <= now())
                queue.dedup.erase(it);
            queue.dedupOrder.pop_front();
        }
        if (auto it = queue.dedup.find(dedupKey); it != queue.dedup.end()) {
            // Accepted, not delivered again (AWS-doc): the answer names the first message.
            const MessageIndex first = it->second.second;
            result.messageId = messageId(first);
            result.md5OfMessageBody = md5(body);
            result.md5OfMessageAttributes = md5OfMessageAttributes(attributes);
            if (const auto* e = extra(first))
                result.sequenceNumber = e->sequenceNumber;
            result.lane = first;
            result.deduplicated = true;
            // Logged on the first message's lane (which may have ended), so the retry shows where it went.
            if (gone(first))
                noEffect(first, queue.index, NoEffectKind::DeduplicatedSend, actor);
            else
                noEffect(first, NoEffectKind::DeduplicatedSend, actor);
            return result;
        }
    }
    const int64_t delay
        = queue.fifo() ? queue.attributes().delaySeconds : delaySeconds.value_or(queue.attributes().delaySeconds);
    const bool timer = !queue.fifo() && delaySeconds.has_value();
    const MessageIndex lane = newLane(queue, delay * 1000, Cause::Send, actor, Event::sendDelay(delay, timer));
    m_run.setBody(lane, body);
    if (!attributes.empty() || groupId || traceHeader || queue.fifo()) {
        MessageExtra& e = m_run.extraFor(lane);
        e.attributes = attributes;
        e.md5OfAttributes = md5OfMessageAttributes(attributes);
        if (groupId)
            e.groupId = *groupId;
        if (traceHeader)
            e.awsTraceHeader = *traceHeader;
        if (queue.fifo()) {
            e.deduplicationId = dedupId ? *dedupId : dedupKey.substr(dedupKey.find('\x1f') + 1);
            e.sequenceNumber = nextSequenceNumber(queue);
            queue.dedup[dedupKey] = { now() + kDeduplicationWindowMs, lane };
            queue.dedupOrder.emplace_back(now() + kDeduplicationWindowMs, dedupKey);
            addToGroup(queue, lane, *groupId);
        }
        result.md5OfMessageAttributes = e.md5OfAttributes;
        result.sequenceNumber = e.sequenceNumber;
        enterTenant(queue, lane, true);
    }
    if (m_options.idStrings)
        result.messageId = messageId(lane);
    if (m_options.bodyDigests)
        result.md5OfMessageBody = md5(body);
    result.lane = lane;
    if (m_run.message(lane).state == MessageState::Visible)
        markAvailable(queue, lane);
    return result;
}

std::string Engine::nextSequenceNumber(QueueState& queue)
{
    // 20 digits, increasing, not consecutive (AWS-doc: "large, non-consecutive").
    char sequence[24];
    std::snprintf(sequence, sizeof sequence, "%020llu",
        (unsigned long long)(18000000000000000000ULL + (++queue.sequence) * 4096));
    return sequence;
}

void Engine::addToGroup(QueueState& queue, MessageIndex lane, const std::string& groupId)
{
    const uint32_t slot = queue.freeGroups.empty() ? uint32_t(queue.groups.size()) : queue.freeGroups.back();
    auto [it, inserted] = queue.groupByName.try_emplace(groupId, slot);
    if (inserted && slot == queue.groups.size())
        queue.groups.push_back(FifoGroup { groupId, {}, false });
    else if (inserted) {
        queue.freeGroups.pop_back();
        queue.groups[slot].id = groupId;
    }
    queue.groups[it->second].messages.push_back(lane);
}

SendMessageResult Engine::enqueue(QueueState& queue, const SendMessageRequest& request)
{
    return enqueue(queue, request.body, request.delaySeconds, request.attributes, request.messageGroupId,
        request.messageDeduplicationId, request.awsTraceHeader, request.actor);
}

Result<QueueState*> Engine::admitSend(const SendMessageRequest& request)
{
    auto found = requireQueue(request.queue);
    if (!found)
        return refuse(kNoQueue, found.error(), request.actor);
    QueueState& queue = *found.value();
    if (auto error = validateSend(queue.attributes(), queue.fifo(), request.body, request.delaySeconds,
            request.attributes, request.messageGroupId, request.messageDeduplicationId, false))
        return refuse(queue.index, *error, request.actor);
    if (auto throttled = throttle(queue, QuotaAction::Send))
        return refuse(queue.index, *throttled, request.actor);
    return &queue;
}

Result<SendMessageResult> Engine::sendMessage(const SendMessageRequest& request)
{
    auto admitted = admitSend(request);
    if (!admitted)
        return admitted.error();
    auto result = enqueue(*admitted.value(), request);
    flushWakeups();
    return result;
}

MessageIndex Engine::send(const SendMessageRequest& request)
{
    auto admitted = admitSend(request);
    if (!admitted)
        return kNoMessage;
    const MessageIndex lane = enqueue(*admitted.value(), request).lane;
    flushWakeups();
    return lane;
}

void Engine::labelLane(MessageIndex lane, std::string label)
{
    // A deduplicated send's lane is the first send's: it keeps the name it was given first.
    if (label.empty() || lane >= m_run.messageCount() || (m_run.extra(lane) && !m_run.extra(lane)->label.empty()))
        return;
    m_run.extraFor(lane).label = std::move(label);
}

Result<BatchResult<SendMessageResult>> Engine::sendMessageBatch(
    const std::string& queueName, const std::vector<SendMessageBatchEntry>& entries, uint32_t actor)
{
    auto found = requireQueue(queueName);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (auto error = validateBatchShape(entries, "SendMessageBatchRequestEntry"))
        return refuse(queue.index, *error, actor);
    size_t total = 0;
    for (const auto& e : entries)
        total += messagePayloadSize(e.body, e.attributes);
    if (total > kBatchPayloadLimit)
        return refuse(queue.index,
            makeError(codes::BatchRequestTooLong,
                "Batch requests cannot be longer than 1048576 bytes. You have sent " + std::to_string(total)
                    + " bytes."),
            actor);
    // FIFO group and deduplication errors fail the whole request, not one entry (AWS-snap).
    if (queue.fifo()) {
        for (const auto& e : entries) {
            if (!e.messageGroupId)
                return refuse(queue.index,
                    makeError(codes::InvalidParameterValue, "The request must contain the parameter MessageGroupId."),
                    actor);
        }
        for (const auto& e : entries) {
            if (!e.messageDeduplicationId && !queue.attributes().contentBasedDeduplication)
                return refuse(queue.index,
                    makeError(codes::InvalidParameterValue,
                        "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId "
                        "provided explicitly"),
                    actor);
        }
    }
    if (auto throttled = throttle(queue, QuotaAction::Send))
        return refuse(queue.index, *throttled, actor);
    BatchResult<SendMessageResult> out;
    for (const auto& e : entries) {
        if (auto error = validateSend(queue.attributes(), queue.fifo(), e.body, e.delaySeconds, e.attributes,
                e.messageGroupId, e.messageDeduplicationId, true)) {
            refuse(queue.index, *error, actor);
            out.failed.push_back(BatchEntryError { e.id, error->code, error->message, true });
            continue;
        }
        out.successful.emplace_back(e.id,
            enqueue(queue, e.body, e.delaySeconds, e.attributes, e.messageGroupId, e.messageDeduplicationId,
                e.awsTraceHeader, actor));
    }
    flushWakeups();
    return out;
}

} // namespace lifeline
