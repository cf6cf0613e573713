// Every SQS action Lifeline answers, and what each part of Lifeline needs to know of it, in one table: the endpoint
// dispatches on it (endpoint/sqs_actions.cpp), the request guard lets a read-only one through over GET, the recording
// proxy reads an observed one's answer into lanes, the query protocol writes a list result's empty element, and a
// scenario's script names its calls by it. A new action is a row here and a handler there.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lifeline::endpoint {

enum class SqsAction : uint8_t {
    CreateQueue,
    GetQueueUrl,
    ListQueues,
    GetQueueAttributes,
    SetQueueAttributes,
    DeleteQueue,
    PurgeQueue,
    SendMessage,
    SendMessageBatch,
    ReceiveMessage,
    DeleteMessage,
    DeleteMessageBatch,
    ChangeMessageVisibility,
    ChangeMessageVisibilityBatch,
    ListDeadLetterSourceQueues,
    StartMessageMoveTask,
    ListMessageMoveTasks,
    CancelMessageMoveTask,
    TagQueue,
    UntagQueue,
    ListQueueTags,
    AddPermission,
    RemovePermission,
    Count
};

struct SqsActionInfo {
    SqsAction action;
    std::string_view name; // as requests spell it (X-Amz-Target's suffix, the query's Action)
    bool readOnly; // changes nothing: allowed over GET (ReceiveMessage changes visibility, so it is not)
    bool observed; // its answer changes a lane or a queue row the recording proxy draws
    bool listResult; // the query protocol writes its empty result as an empty element (<ListQueuesResult/>)
};

// In SqsAction's order.
inline constexpr std::array<SqsActionInfo, size_t(SqsAction::Count)> kSqsActions { {
    { SqsAction::CreateQueue, "CreateQueue", false, true, false },
    { SqsAction::GetQueueUrl, "GetQueueUrl", true, true, false },
    { SqsAction::ListQueues, "ListQueues", true, false, true },
    { SqsAction::GetQueueAttributes, "GetQueueAttributes", true, true, true },
    { SqsAction::SetQueueAttributes, "SetQueueAttributes", false, true, false },
    { SqsAction::DeleteQueue, "DeleteQueue", false, true, false },
    { SqsAction::PurgeQueue, "PurgeQueue", false, true, false },
    { SqsAction::SendMessage, "SendMessage", false, true, false },
    { SqsAction::SendMessageBatch, "SendMessageBatch", false, true, false },
    { SqsAction::ReceiveMessage, "ReceiveMessage", false, true, true },
    { SqsAction::DeleteMessage, "DeleteMessage", false, true, false },
    { SqsAction::DeleteMessageBatch, "DeleteMessageBatch", false, true, false },
    { SqsAction::ChangeMessageVisibility, "ChangeMessageVisibility", false, true, false },
    { SqsAction::ChangeMessageVisibilityBatch, "ChangeMessageVisibilityBatch", false, true, false },
    { SqsAction::ListDeadLetterSourceQueues, "ListDeadLetterSourceQueues", true, false, true },
    { SqsAction::StartMessageMoveTask, "StartMessageMoveTask", false, false, false },
    { SqsAction::ListMessageMoveTasks, "ListMessageMoveTasks", true, false, false },
    { SqsAction::CancelMessageMoveTask, "CancelMessageMoveTask", false, false, false },
    { SqsAction::TagQueue, "TagQueue", false, false, false },
    { SqsAction::UntagQueue, "UntagQueue", false, false, false },
    { SqsAction::ListQueueTags, "ListQueueTags", true, false, true },
    { SqsAction::AddPermission, "AddPermission", false, false, false },
    { SqsAction::RemovePermission, "RemovePermission", false, false, false },
} };

constexpr const SqsActionInfo& infoOf(SqsAction action)
{
    return kSqsActions[size_t(action)];
}
constexpr std::string_view nameOf(SqsAction action)
{
    return infoOf(action).name;
}
// The action a request names; nullopt for one Lifeline does not answer.
std::optional<SqsAction> sqsActionNamed(std::string_view name);

} // namespace lifeline::endpoint
