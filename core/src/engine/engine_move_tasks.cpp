// Redrive: StartMessageMoveTask / ListMessageMoveTasks / CancelMessageMoveTask, moving a DLQ's messages back.
#include "engine_internal.h"
#include "lifeline/support/base64.h"

#include <nlohmann/json.hpp>

namespace lifeline {

namespace {
constexpr int64_t kDefaultMovesPerSecond = 500; // "system optimized" in AWS; the documented maximum rate here

SqsError notFound(const char* parameter)
{
    return makeError(codes::ResourceNotFound,
        std::string("The resource that you specified for the ") + parameter + " parameter doesn't exist.", 404);
}
} // namespace

Result<std::string> Engine::startMessageMoveTask(const std::string& sourceArn,
    const std::optional<std::string>& destinationArn, std::optional<int64_t> maxNumberOfMessagesPerSecond,
    uint32_t actor)
{
    QueueState* source = findQueueByArn(sourceArn);
    if (!source)
        return refuse(kNoQueue, notFound("SourceArn"), actor);
    bool isDeadLetterQueue = false;
    for (const auto& q : m_queues)
        if (q->alive() && q->attributes().redrivePolicy
            && q->attributes().redrivePolicy->deadLetterTargetArn == sourceArn)
            isDeadLetterQueue = true;
    if (!isDeadLetterQueue)
        return refuse(source->index,
            makeError(codes::InvalidParameterValue, "Source queue must be configured as a Dead Letter Queue."), actor);
    QueueState* destination = nullptr;
    if (destinationArn) {
        destination = findQueueByArn(*destinationArn);
        if (!destination)
            return refuse(source->index, notFound("DestinationArn"), actor);
        // AWS requires the same type (docs/sqs-semantics.md); its text is not recorded, this one names the rule.
        if (destination->fifo() != source->fifo())
            return refuse(source->index,
                makeError(codes::InvalidParameterValue,
                    "Value " + *destinationArn
                        + " for parameter DestinationArn is invalid. Reason: The destination queue must be the same "
                          "type as the source queue."),
                actor);
    }
    if (maxNumberOfMessagesPerSecond && (*maxNumberOfMessagesPerSecond < 1 || *maxNumberOfMessagesPerSecond > 500))
        return refuse(source->index,
            makeError(codes::InvalidParameterValue,
                "Value " + std::to_string(*maxNumberOfMessagesPerSecond)
                    + " for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and 500."),
            actor);
    for (const auto& task : m_moveTasks)
        if (task->source == source->index && task->status == "RUNNING")
            return refuse(source->index,
                makeError(codes::InvalidParameterValue,
                    "There is already a task running. Only one active task is allowed for a source queue arn at a "
                    "given time."),
                actor);
    auto task = std::make_unique<MoveTask>();
    const uint32_t taskIndex = uint32_t(m_moveTasks.size());
    task->handle
        = base64Encode(nlohmann::json { { "taskId", formatMessageId(newUuid()) }, { "sourceArn", sourceArn } }.dump());
    task->source = source->index;
    if (destination) {
        task->destination = destination->index;
        task->destinationArn = destination->arn();
    }
    task->rate = maxNumberOfMessagesPerSecond;
    task->toMove = source->counters().visible + source->counters().inFlight + source->counters().delayed;
    task->startedAt = now();
    const std::string handle = task->handle;
    m_moveTasks.push_back(std::move(task));
    addTimer(now(), MoveTaskTick, taskIndex);
    flushWakeups();
    return handle;
}

void Engine::redriveOne(MoveTask& task, QueueState& source, MessageIndex lane)
{
    const MessageExtra* dlqExtra = extra(lane);
    QueueState* destination = nullptr;
    if (task.destination)
        destination = m_queues[*task.destination]->alive() ? m_queues[*task.destination].get() : nullptr;
    else if (dlqExtra)
        destination = findQueueByArn(dlqExtra->deadLetterQueueSourceArn);
    if (!destination) {
        task.status = "FAILED";
        task.failureReason = codes::NonExistentQueue;
        return;
    }
    // A redriven message is a new message: new id, enqueue time and retention; its receive count starts at 0.
    MessageExtra arrivalExtra;
    if (dlqExtra) {
        arrivalExtra.attributes = dlqExtra->attributes;
        arrivalExtra.md5OfAttributes = dlqExtra->md5OfAttributes;
        arrivalExtra.groupId = dlqExtra->groupId;
        arrivalExtra.awsTraceHeader = dlqExtra->awsTraceHeader;
    }
    const CompactText body = m_run.message(lane).body; // copied before endMessage releases it
    const MessageIndex arrival = newLane(
        *destination, destination->attributes().delaySeconds * 1000, Cause::ArriveFromRedrive, kSqsActor, lane);
    endMessage(source, lane, MessageState::Redriven, Cause::Redrive, kSqsActor, arrival);
    m_run.setBody(arrival, body.view());
    arrivalExtra.origin = lane;
    if (destination->fifo()) {
        if (arrivalExtra.groupId.empty())
            arrivalExtra.groupId = "redrive";
        arrivalExtra.deduplicationId = messageId(arrival);
        arrivalExtra.sequenceNumber = nextSequenceNumber(*destination);
        addToGroup(*destination, arrival, arrivalExtra.groupId);
    }
    m_run.setExtra(arrival, std::move(arrivalExtra));
    enterTenant(*destination, arrival, false);
    if (m_run.message(arrival).state == MessageState::Visible)
        markAvailable(*destination, arrival);
    ++task.moved;
}

void Engine::tickMoveTask(uint32_t taskIndex)
{
    MoveTask& task = *m_moveTasks[taskIndex];
    if (task.status != "RUNNING")
        return;
    QueueState& source = *m_queues[task.source];
    if (!source.alive()) {
        task.status = "FAILED";
        task.failureReason = codes::NonExistentQueue;
        return;
    }
    const int64_t budget = task.rate.value_or(kDefaultMovesPerSecond);
    std::vector<MessageIndex> candidates;
    for (const MessageIndex lane : source.byEnqueue)
        if (!gone(lane) && m_run.message(lane).queue == source.index
            && m_run.message(lane).state == MessageState::Visible)
            candidates.push_back(lane);
    auto late = source.lateArrivals;
    for (; !late.empty(); late.pop())
        if (!gone(late.top().second) && m_run.message(late.top().second).queue == source.index
            && m_run.message(late.top().second).state == MessageState::Visible)
            candidates.push_back(late.top().second);
    int64_t movedNow = 0;
    for (const MessageIndex lane : candidates) {
        if (movedNow >= budget || task.status != "RUNNING")
            break;
        redriveOne(task, source, lane);
        ++movedNow;
    }
    if (task.status != "RUNNING")
        return;
    if (int64_t(candidates.size()) <= movedNow && source.counters().inFlight == 0 && source.counters().delayed == 0) {
        task.status = "COMPLETED";
        return;
    }
    addTimer(now() + 1000, MoveTaskTick, taskIndex);
}

Result<std::vector<MoveTaskInfo>> Engine::listMessageMoveTasks(const std::string& sourceArn, int64_t maxResults) const
{
    const QueueState* source = findQueueByArn(sourceArn);
    if (!source)
        return notFound("SourceArn");
    if (maxResults < 1 || maxResults > 10)
        return makeError(codes::InvalidParameterValue,
            "Value " + std::to_string(maxResults)
                + " for parameter MaxResults is invalid. Reason: Must be between 1 and 10.");
    std::vector<MoveTaskInfo> out;
    for (auto it = m_moveTasks.rbegin(); it != m_moveTasks.rend() && int64_t(out.size()) < maxResults; ++it) {
        const MoveTask& task = **it;
        if (task.source != source->index)
            continue;
        MoveTaskInfo info;
        if (task.status == "RUNNING")
            info.taskHandle = task.handle;
        info.sourceArn = sourceArn;
        info.destinationArn = task.destinationArn;
        info.maxNumberOfMessagesPerSecond = task.rate;
        info.approximateNumberOfMessagesMoved = task.moved;
        info.approximateNumberOfMessagesToMove = task.toMove;
        info.status = task.status;
        info.failureReason = task.failureReason;
        info.startedTimestamp = m_options.epochMs + task.startedAt;
        out.push_back(std::move(info));
    }
    return out;
}

Result<int64_t> Engine::cancelMessageMoveTask(const std::string& taskHandle, uint32_t actor)
{
    const auto decoded = base64Decode(taskHandle);
    const auto json = decoded ? nlohmann::json::parse(*decoded, nullptr, false) : nlohmann::json();
    if (!decoded || json.is_discarded() || !json.is_object() || !json.contains("taskId") || !json.contains("sourceArn")
        || !json["sourceArn"].is_string())
        return refuse(
            kNoQueue, makeError(codes::InvalidParameterValue, "Value for parameter TaskHandle is invalid."), actor);
    if (!findQueueByArn(json["sourceArn"].get<std::string>()))
        return refuse(kNoQueue, notFound("SourceArn"), actor);
    for (auto& task : m_moveTasks) {
        if (task->handle == taskHandle && task->status == "RUNNING") {
            task->status = "CANCELLED";
            return task->moved;
        }
    }
    return refuse(kNoQueue, makeError(codes::ResourceNotFound, "Task does not exist.", 404), actor);
}

} // namespace lifeline
