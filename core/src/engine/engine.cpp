// Engine: construction, ids, the log, and the queue-level operations.
#include "engine_internal.h"
#include "lifeline/support/splitmix.h"

#include <algorithm>

namespace lifeline {

namespace {
bool validQueueName(const std::string& name)
{
    std::string_view base(name);
    if (base.ends_with(".fifo"))
        base.remove_suffix(5);
    if (base.empty() || name.size() > 80)
        return false;
    return std::all_of(base.begin(), base.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

} // namespace

SqsError nonExistentQueue()
{
    return makeError(codes::NonExistentQueue, "The specified queue does not exist.");
}

Engine::Engine(EngineOptions options)
    : m_options(std::move(options))
    , m_rng(m_options.seed)
    , m_run(m_options.seed, m_options.historyMs)
    , m_faults(m_options.faults ? std::make_unique<FaultDice>(*m_options.faults) : nullptr)
{
}

Engine::~Engine() = default;

MessageIdParts Engine::newUuid()
{
    const uint64_t hi = splitMix64(m_rng);
    return asUuid(hi, splitMix64(m_rng));
}

std::string Engine::arnFor(const std::string& name) const
{
    return "arn:aws:sqs:" + m_options.region + ":" + m_options.accountId + ":" + name;
}

QueueState* Engine::findQueueByArn(const std::string& arn) const
{
    for (const auto& q : m_queues)
        if (q->alive() && q->arn() == arn)
            return q.get();
    return nullptr;
}

void Engine::recordActorEvent(
    Cause cause, uint32_t actor, MessageIndex lane, QueueIndex queue, uint32_t detail, const std::string* text)
{
    if (text)
        detail = m_run.addText(*text);
    const MessageRecord& record = lane != kNoMessage ? message(lane) : MessageRecord {};
    if (queue == kNoQueue)
        queue = record.queue;
    m_run.note(lane, queue, record.state, cause, actor, detail);
}

void Engine::noEffect(MessageIndex lane, NoEffectKind kind, uint32_t actor)
{
    const MessageRecord& record = m_run.message(lane);
    m_run.note(lane, record.queue, record.state, Cause::NoEffect, actor, uint32_t(kind));
}

void Engine::noEffect(MessageIndex lane, QueueIndex queue, NoEffectKind kind, uint32_t actor)
{
    // A forgotten lane: its state is no longer known, only that it ended.
    m_run.note(lane, queue, MessageState::None, Cause::NoEffect, actor, uint32_t(kind));
}

namespace {
// A RedrivePolicy's refusals: its target (`target`, found by its ARN; null when none has it) must exist, be another
// queue of the same type and allow this one.
std::optional<SqsError> redriveError(
    const QueueState& queue, const QueueAttributes& attributes, const QueueState* target)
{
    if (!attributes.redrivePolicy)
        return std::nullopt;
    const auto& policy = *attributes.redrivePolicy;
    const auto bad = [&](const std::string& reason) {
        return makeError(codes::InvalidParameterValue,
            "Value " + attributes.redrivePolicyText + " for parameter RedrivePolicy is invalid. Reason: " + reason);
    };
    // A queue named as its own DLQ would move a message into itself at every receive over the count, for ever:
    // AWS documents no answer for it, so Lifeline refuses it (docs/decisions.md).
    if (policy.deadLetterTargetArn == queue.arn())
        return bad("A queue cannot be its own dead-letter queue.");
    if (!target)
        return bad("Dead letter target does not exist.");
    // The rule is AWS-doc (FIFO<->FIFO, standard<->standard); the text is AWS's (sqs-semantics.md, "Recorded and
    // real texts").
    if (target->fifo() != queue.fifo())
        return bad("Dead-letter queue must be same type of queue as the source.");
    if (const auto& allow = target->attributes().redriveAllowPolicy) {
        const bool allowed = allow->permission == "allowAll"
            || (allow->permission == "byQueue"
                && std::find(allow->sourceQueueArns.begin(), allow->sourceQueueArns.end(), queue.arn())
                    != allow->sourceQueueArns.end());
        if (!allowed)
            return bad("Dead-letter target's RedriveAllowPolicy does not allow this queue.");
    }
    return std::nullopt;
}
} // namespace

SqsError Engine::refuse(QueueIndex queue, SqsError error, uint32_t actor, MessageIndex lane)
{
    const uint32_t text = m_run.addText(error.code + ": " + error.message);
    m_run.note(lane, queue, MessageState::None, Cause::RequestRefused, actor, text);
    return error;
}

void Engine::setFaults(std::optional<FaultPlan> plan)
{
    m_faults = plan ? std::make_unique<FaultDice>(std::move(*plan)) : nullptr;
}

std::optional<SqsError> Engine::injectedRefusal(std::string_view action, const std::string& queue, uint32_t actor)
{
    const QueueState* found = queue.empty() || !m_faults ? nullptr : findQueue(queue);
    const bool encrypted = found && !found->attributes().kmsMasterKeyId.empty();
    const auto kind = m_faults ? m_faults->refusal(action, queue, now(), encrypted) : std::nullopt;
    if (!kind)
        return std::nullopt;
    const QueueIndex index = found ? found->index : kNoQueue;
    m_run.note(kNoMessage, index, MessageState::None, Cause::FaultInjected, actor, uint32_t(*kind));
    SqsError error = faultError(*kind);
    const uint32_t text = m_run.addText(error.code + ": " + error.message + " (injected)");
    m_run.note(kNoMessage, index, MessageState::None, Cause::RequestRefused, actor, text);
    return error;
}

std::optional<TimeMs> Engine::injectedLatency(std::string_view action, const std::string& queue, uint32_t actor)
{
    const auto delay = m_faults ? m_faults->latency(action, queue, now()) : std::nullopt;
    if (delay) // on the queue's row (none for a call that names no queue)
        m_run.note(kNoMessage, m_run.queueIndex(queue).value_or(kNoQueue), MessageState::None, Cause::FaultInjected,
            actor, uint32_t(FaultKind::Latency));
    return delay;
}

const QueueState* Engine::deadLetterTarget(const QueueAttributes& attributes) const
{
    return attributes.redrivePolicy ? findQueueByArn(attributes.redrivePolicy->deadLetterTargetArn) : nullptr;
}

Result<std::string> Engine::createQueue(const std::string& name, const AttributeMap& attributes,
    const std::map<std::string, std::string>& tags, uint32_t actor)
{
    const bool fifoName = name.ends_with(".fifo");
    const auto fifoAttribute = attributes.find("FifoQueue");
    const bool fifoRequested
        = fifoAttribute != attributes.end() && (fifoAttribute->second == "true" || fifoAttribute->second == "True");
    if (!validQueueName(name))
        return refuse(kNoQueue,
            makeError(codes::InvalidParameterValue,
                "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length"),
            actor);
    if (fifoAttribute != attributes.end() && !fifoName && !fifoRequested)
        return refuse(kNoQueue, makeError(codes::InvalidAttributeName, "Unknown Attribute FifoQueue."), actor);
    if (fifoName != fifoRequested)
        return refuse(kNoQueue,
            makeError(codes::InvalidParameterValue,
                "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must "
                "end with .fifo suffix and be 1 to 80 in length."),
            actor);
    QueueAttributes defaults;
    defaults.fifo = fifoName;
    if (m_options.limits == AwsLimits::Aws2023)
        defaults.maximumMessageSize = 262144;
    auto applied = applyAttributes(defaults, attributes, { true, fifoName });
    if (!applied)
        return refuse(kNoQueue, applied.error(), actor);

    if (QueueState* existing = findQueue(name)) {
        for (const auto& [key, value] : attributes) {
            (void)value;
            if (attributeValue(applied.value(), key) != attributeValue(existing->attributes(), key))
                return refuse(existing->index,
                    makeError(codes::QueueAlreadyExists,
                        "A queue already exists with the same name and a different value for attribute " + key),
                    actor);
        }
        return name;
    }
    if (auto it = m_recentlyDeleted.find(name); it != m_recentlyDeleted.end() && now() - it->second < 60000)
        return refuse(kNoQueue,
            makeError(codes::QueueDeletedRecently,
                "You must wait 60 seconds after deleting a queue before you can create another with the same name."),
            actor);
    if (m_queues.size() >= kNoQueue)
        return refuse(kNoQueue, makeError(codes::InvalidParameterValue, "Too many queues."), actor);

    QueueInfo info;
    info.name = name;
    info.arn = arnFor(name);
    info.fifo = fifoName;
    info.createdAt = info.modifiedAt = now();
    info.attributes = std::move(applied).value();
    auto queue = std::make_unique<QueueState>();
    queue->index = QueueIndex(m_queues.size());
    queue->info = &info; // until the run holds it
    queue->uid = m_nextQueueUid++;
    if (auto error = redriveError(*queue, info.attributes, deadLetterTarget(info.attributes)))
        return refuse(kNoQueue, *error, actor);
    queue->tags = tags;
    queue->deduplicateByGroup = info.attributes.deduplicationScope == "messageGroup";
    m_run.addQueue(std::move(info));
    queue->info = &m_run.queueInfo(queue->index);
    m_run.note(kNoMessage, queue->index, MessageState::None, Cause::QueueCreated, actor);
    m_queues.push_back(std::move(queue));
    return name;
}

Result<std::string> Engine::getQueueArn(const std::string& name) const
{
    auto queue = requireQueue(name);
    if (!queue)
        return queue.error();
    return queue.value()->arn();
}

std::vector<std::string> Engine::listQueues(const std::string& prefix) const
{
    std::vector<std::string> names;
    for (const auto& q : m_queues)
        if (q->alive() && q->name().starts_with(prefix))
            names.push_back(q->name());
    std::sort(names.begin(), names.end());
    return names;
}

Status Engine::deleteQueue(const std::string& name, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    endAllMessages(queue, MessageState::Purged, Cause::QueueDeleted, actor);
    while (!queue.polls.empty()) {
        const size_t slot = queue.polls.front();
        queue.polls.pop_front();
        completePoll(slot, 0, true);
    }
    for (auto& task : m_moveTasks) {
        if (task->status != "RUNNING")
            continue;
        if (task->source == queue.index || task->destination == queue.index) {
            task->status = "FAILED";
            task->failureReason = codes::NonExistentQueue;
        }
    }
    purgeDeduplication(queue);
    m_run.setQueueAlive(queue.index, false);
    m_recentlyDeleted[name] = now();
    m_run.note(kNoMessage, queue.index, MessageState::None, Cause::QueueDeleted, actor);
    return Ok {};
}

Status Engine::purgeQueue(const std::string& name, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    if (queue.lastPurgeAt != INT64_MIN && now() - queue.lastPurgeAt < 60000)
        return refuse(queue.index,
            makeError(codes::PurgeQueueInProgress,
                "Only one PurgeQueue operation on " + queue.name() + " is allowed every 60 seconds.", 403),
            actor);
    queue.lastPurgeAt = now();
    endAllMessages(queue, MessageState::Purged, Cause::Purge, actor);
    purgeDeduplication(queue); // AWS-val test_purge_queue_clears_fifo_deduplication_cache
    return Ok {};
}

void Engine::endAllMessages(QueueState& queue, MessageState to, Cause cause, uint32_t actor)
{
    std::vector<MessageIndex> lanes(queue.byEnqueue.begin(), queue.byEnqueue.end());
    for (; !queue.lateArrivals.empty(); queue.lateArrivals.pop())
        lanes.push_back(queue.lateArrivals.top().second);
    std::sort(lanes.begin(), lanes.end()); // the log lists them in lane order, whatever their enqueue times
    for (const MessageIndex lane : lanes)
        if (!gone(lane) && m_run.message(lane).queue == queue.index && isLive(m_run.message(lane).state))
            endMessage(queue, lane, to, cause, actor);
    queue.ready.clear();
    queue.byEnqueue.clear();
    queue.groups.clear();
    queue.groupByName.clear();
    queue.freeGroups.clear();
    queue.candidates.clear();
}

void Engine::purgeDeduplication(QueueState& queue)
{
    queue.dedup.clear();
    queue.dedupOrder.clear();
}

Result<AttributeMap> Engine::getQueueAttributes(const std::string& name, const std::vector<std::string>& names) const
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    const QueueState& queue = *found.value();
    std::vector<std::string> wanted;
    for (const auto& n : names) {
        if (n == "All") {
            wanted = { "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed",
                "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp", "DelaySeconds", "LastModifiedTimestamp",
                "MaximumMessageSize", "MessageRetentionPeriod", "QueueArn", "ReceiveMessageWaitTimeSeconds",
                "SqsManagedSseEnabled", "VisibilityTimeout", "RedrivePolicy", "RedriveAllowPolicy", "Policy",
                "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "FifoQueue", "ContentBasedDeduplication",
                "DeduplicationScope", "FifoThroughputLimit" };
            break;
        }
        if (!isKnownAttributeName(n))
            return makeError(codes::InvalidAttributeName, "Unknown Attribute " + n + ".");
        wanted.push_back(n);
    }
    AttributeMap out;
    const int64_t epochSeconds = m_options.epochMs / 1000;
    for (const auto& n : wanted) {
        if (n == "ApproximateNumberOfMessages")
            out[n] = std::to_string(queue.counters().visible);
        else if (n == "ApproximateNumberOfMessagesNotVisible")
            out[n] = std::to_string(queue.counters().inFlight);
        else if (n == "ApproximateNumberOfMessagesDelayed")
            out[n] = std::to_string(queue.counters().delayed);
        else if (n == "CreatedTimestamp")
            out[n] = std::to_string(epochSeconds + queue.createdAt() / 1000);
        else if (n == "LastModifiedTimestamp")
            out[n] = std::to_string(epochSeconds + queue.modifiedAt() / 1000);
        else if (n == "QueueArn")
            out[n] = queue.arn();
        else if (auto value = attributeValue(queue.attributes(), n))
            out[n] = *value;
    }
    return out;
}

Status Engine::setQueueAttributes(const std::string& name, const AttributeMap& attributes, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    QueueState& queue = *found.value();
    auto applied = applyAttributes(queue.attributes(), attributes, { false, queue.fifo() });
    if (!applied)
        return refuse(queue.index, applied.error(), actor);
    if (auto error = redriveError(queue, applied.value(), deadLetterTarget(applied.value())))
        return refuse(queue.index, *error, actor);
    const int64_t oldDelay = queue.attributes().delaySeconds;
    const bool delayChanged = applied->delaySeconds != oldDelay;
    m_run.setQueueAttributes(queue.index, std::move(applied).value());
    queue.expiryBound = INT64_MIN; // the retention may have changed
    std::string text;
    for (const auto& [key, value] : attributes) {
        text += text.empty() ? "" : ", ";
        text += key;
        text += '=';
        text += value;
    }
    m_run.note(kNoMessage, queue.index, MessageState::None, Cause::AttributesChanged, actor, m_run.addText(text));
    // A FIFO queue's delay is retroactive; a standard queue's affects new messages only (AWS-doc sqs-delay-queues).
    if (delayChanged && queue.fifo())
        applyFifoDelayChange(queue, oldDelay, actor);
    flushWakeups();
    return Ok {};
}

Result<std::vector<std::string>> Engine::listDeadLetterSourceQueues(const std::string& name) const
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    std::vector<std::string> sources;
    for (const auto& q : m_queues)
        if (q->alive() && q->attributes().redrivePolicy
            && q->attributes().redrivePolicy->deadLetterTargetArn == found.value()->arn())
            sources.push_back(q->name());
    return sources;
}

Status Engine::tagQueue(const std::string& name, const std::map<std::string, std::string>& tags, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    // Tags is required (the API reference); an empty map is no Tags, as the query protocol can only send it. More
    // than 50 tags is "not recommended", not refused (docs/decisions.md).
    if (tags.empty())
        return refuse(found.value()->index,
            makeError(codes::MissingParameter, "The request must contain the parameter Tags."), actor);
    for (const auto& [key, value] : tags)
        found.value()->tags[key] = value;
    return Ok {};
}

Status Engine::untagQueue(const std::string& name, const std::vector<std::string>& keys, uint32_t actor)
{
    auto found = requireQueue(name);
    if (!found)
        return refuse(kNoQueue, found.error(), actor);
    if (keys.empty())
        return refuse(found.value()->index,
            makeError(codes::MissingParameter, "The request must contain the parameter TagKeys."), actor);
    for (const auto& key : keys)
        found.value()->tags.erase(key);
    return Ok {};
}

Result<std::map<std::string, std::string>> Engine::listQueueTags(const std::string& name) const
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    return found.value()->tags;
}

Result<QueueCounters> Engine::counters(const std::string& name) const
{
    auto found = requireQueue(name);
    if (!found)
        return found.error();
    return found.value()->counters();
}

size_t Engine::bytesUsed() const
{
    size_t bytes = sizeof(*this) + m_run.bytesUsed();
    for (const auto& q : m_queues) {
        bytes += sizeof(QueueState);
        bytes += (q->ready.size() + q->byEnqueue.size() + q->candidates.size()) * sizeof(MessageIndex);
        bytes += q->lateArrivals.size() * sizeof(std::pair<TimeMs, MessageIndex>);
        bytes += q->dedup.size() * 96;
        for (const auto& g : q->groups)
            bytes += sizeof(FifoGroup) + g.messages.size() * sizeof(MessageIndex);
    }
    bytes += m_timers.size() * sizeof(Timer);
    return bytes;
}

} // namespace lifeline
