// SqsService::call: one handler per SQS action, found in a table. A handler reads its parameters (a bad one throws
// ParamError, answered as SQS's error), calls the engine, and writes the JSON protocol's output shape; an engine
// refusal becomes the answer's error. To add an action: its row in sqs_action.h, a handler here and its row in
// kHandlers, the engine call.
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/support/base64.h"
#include "sqs_params.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>

namespace lifeline::endpoint {

using namespace params;

namespace {

// One call in progress: its parameters, who made it, and the answer being written.
struct Call {
    SqsService& service;
    Engine& engine;
    const json& params;
    const CallContext& context;
    CallOutcome& outcome;

    json& out() { return outcome.output; }
    // The queue: QueueUrl's last segment, or the request's path (/{account}/{queue}).
    std::string queue() const
    {
        if (auto url = optString(params, "QueueUrl"))
            return lastSegment(*url);
        std::string fromPath = lastSegment(context.path);
        if (!fromPath.empty() && context.path.find('/', 1) != std::string::npos)
            return fromPath;
        missing("QueueUrl");
    }
    std::string url(const std::string& name) const { return service.queueUrl(context.host, name); }
    // An engine refusal is the answer: true when there was one.
    template <class R> bool refused(const R& result)
    {
        if (result)
            return false;
        outcome.error = result.error();
        return true;
    }
};

void createQueue(Call& c)
{
    const std::string name = required(c.params, "QueueName");
    // The JSON model calls CreateQueue's tags "tags"; query's Tag.N folds into "Tags".
    auto tags = stringMap(c.params, "tags");
    if (tags.empty())
        tags = stringMap(c.params, "Tags");
    if (!c.refused(c.engine.createQueue(name, stringMap(c.params, "Attributes"), tags, c.context.actor)))
        c.out()["QueueUrl"] = c.url(name);
}

void getQueueUrl(Call& c)
{
    const std::string name = required(c.params, "QueueName");
    const auto index = c.engine.queueIndex(name);
    if (!index || !c.engine.queueInfo(*index).alive)
        c.outcome.error = makeError(codes::NonExistentQueue, "The specified queue does not exist.");
    else
        c.out()["QueueUrl"] = c.url(name);
}

// A page of queue URLs under `key`, as ListQueues and ListDeadLetterSourceQueues give them: MaxResults 1 to 1000,
// and a NextToken while there are more (only when MaxResults was given, as AWS does).
void writeUrlPage(Call& c, const std::vector<std::string>& names, const char* key, bool alwaysList)
{
    const auto max = optInteger(c.params, "MaxResults");
    if (max && (*max < 1 || *max > 1000))
        invalid("MaxResults", std::to_string(*max), "MaxResults must be an integer between 1 and 1000.");
    size_t start = 0;
    if (auto token = optString(c.params, "NextToken")) {
        const auto decoded = base64Decode(*token);
        size_t value = 0;
        if (!decoded || std::from_chars(decoded->data(), decoded->data() + decoded->size(), value).ec != std::errc())
            invalid("NextToken", *token, "Invalid NextToken value.");
        start = value;
    }
    const size_t limit = size_t(max.value_or(1000));
    json urls = json::array();
    for (size_t i = start; i < names.size() && urls.size() < limit; ++i)
        urls.push_back(c.url(names[i]));
    if (!urls.empty() || alwaysList)
        c.out()[key] = std::move(urls);
    if (max && start + limit < names.size())
        c.out()["NextToken"] = base64Encode(std::to_string(start + limit));
}

void listQueues(Call& c)
{
    writeUrlPage(c, c.engine.listQueues(optString(c.params, "QueueNamePrefix").value_or("")), "QueueUrls", false);
}

void getQueueAttributes(Call& c)
{
    auto attributes = c.engine.getQueueAttributes(c.queue(), stringList(c.params, "AttributeNames"));
    if (!c.refused(attributes) && !attributes->empty())
        c.out()["Attributes"] = json(attributes.value());
}

void setQueueAttributes(Call& c)
{
    c.refused(c.engine.setQueueAttributes(c.queue(), stringMap(c.params, "Attributes"), c.context.actor));
}

void deleteQueue(Call& c)
{
    c.refused(c.engine.deleteQueue(c.queue(), c.context.actor));
}

void purgeQueue(Call& c)
{
    c.refused(c.engine.purgeQueue(c.queue(), c.context.actor));
}

json sentJson(const SendMessageResult& sent)
{
    json out { { "MessageId", sent.messageId }, { "MD5OfMessageBody", sent.md5OfMessageBody.hex() } };
    if (!sent.md5OfMessageAttributes.empty())
        out["MD5OfMessageAttributes"] = sent.md5OfMessageAttributes;
    if (!sent.md5OfMessageSystemAttributes.empty())
        out["MD5OfMessageSystemAttributes"] = sent.md5OfMessageSystemAttributes;
    if (!sent.sequenceNumber.empty())
        out["SequenceNumber"] = sent.sequenceNumber;
    return out;
}

void sendMessage(Call& c)
{
    SendMessageRequest request;
    request.queue = c.queue();
    request.body = required(c.params, "MessageBody");
    request.delaySeconds = optInteger(c.params, "DelaySeconds");
    request.attributes = messageAttributes(c.params, "MessageAttributes");
    request.messageGroupId = optString(c.params, "MessageGroupId");
    request.messageDeduplicationId = optString(c.params, "MessageDeduplicationId");
    request.awsTraceHeader = traceHeader(c.params);
    request.actor = c.context.actor;
    auto sent = c.engine.sendMessage(request);
    if (!c.refused(sent))
        c.out() = sentJson(sent.value());
}

void sendMessageBatch(Call& c)
{
    const std::string queue = c.queue();
    std::vector<SendMessageBatchEntry> entries;
    for (const auto& e : entriesOf(c.params)) {
        SendMessageBatchEntry entry;
        entry.id = optString(e, "Id").value_or("");
        entry.body = optString(e, "MessageBody").value_or("");
        entry.delaySeconds = optInteger(e, "DelaySeconds");
        entry.attributes = messageAttributes(e, "MessageAttributes");
        entry.messageGroupId = optString(e, "MessageGroupId");
        entry.messageDeduplicationId = optString(e, "MessageDeduplicationId");
        entry.awsTraceHeader = traceHeader(e);
        entries.push_back(std::move(entry));
    }
    auto result = c.engine.sendMessageBatch(queue, entries, c.context.actor);
    if (c.refused(result))
        return;
    json successful = json::array();
    for (const auto& [id, sent] : result->successful) {
        json entry = sentJson(sent);
        entry["Id"] = id;
        successful.push_back(std::move(entry));
    }
    c.out()["Successful"] = std::move(successful);
    if (!result->failed.empty())
        c.out()["Failed"] = batchFailures(result.value());
}

void receiveMessage(Call& c)
{
    ReceiveMessageRequest request;
    request.queue = c.queue();
    request.maxNumberOfMessages = optInteger(c.params, "MaxNumberOfMessages");
    request.visibilityTimeout = optInteger(c.params, "VisibilityTimeout");
    request.waitTimeSeconds = optInteger(c.params, "WaitTimeSeconds");
    request.receiveRequestAttemptId = optString(c.params, "ReceiveRequestAttemptId");
    request.actor = c.context.actor;
    ReceiveView& view = c.outcome.view;
    view.attributeNames = stringList(c.params, "AttributeNames");
    for (auto& name : stringList(c.params, "MessageSystemAttributeNames"))
        view.attributeNames.push_back(std::move(name));
    view.messageAttributeNames = stringList(c.params, "MessageAttributeNames");
    auto received = c.engine.receiveMessage(request);
    if (c.refused(received))
        return;
    if (received->pending)
        c.outcome.pendingPoll = received->poll; // answered when the engine completes the poll
    else
        c.out() = c.service.renderMessages(received->messages, view);
}

void deleteMessage(Call& c)
{
    const std::string queue = c.queue();
    c.refused(c.engine.deleteMessage(queue, required(c.params, "ReceiptHandle"), c.context.actor));
}

template <class T> void writeBatchOutcome(Call& c, const BatchResult<T>& result)
{
    json successful = json::array();
    for (const auto& [id, ok] : result.successful)
        successful.push_back({ { "Id", id } });
    c.out()["Successful"] = std::move(successful);
    if (!result.failed.empty())
        c.out()["Failed"] = batchFailures(result);
}

void deleteMessageBatch(Call& c)
{
    const std::string queue = c.queue();
    std::vector<DeleteMessageBatchEntry> entries;
    for (const auto& e : entriesOf(c.params))
        entries.push_back({ optString(e, "Id").value_or(""), optString(e, "ReceiptHandle").value_or("") });
    auto result = c.engine.deleteMessageBatch(queue, entries, c.context.actor);
    if (!c.refused(result))
        writeBatchOutcome(c, result.value());
}

void changeMessageVisibility(Call& c)
{
    const std::string queue = c.queue();
    const std::string handle = required(c.params, "ReceiptHandle");
    const auto timeout = optInteger(c.params, "VisibilityTimeout");
    if (!timeout)
        missing("VisibilityTimeout");
    c.refused(c.engine.changeMessageVisibility(queue, handle, *timeout, c.context.actor));
}

void changeMessageVisibilityBatch(Call& c)
{
    const std::string queue = c.queue();
    std::vector<ChangeVisibilityBatchEntry> entries;
    for (const auto& e : entriesOf(c.params))
        entries.push_back({ optString(e, "Id").value_or(""), optString(e, "ReceiptHandle").value_or(""),
            optInteger(e, "VisibilityTimeout").value_or(0) });
    auto result = c.engine.changeMessageVisibilityBatch(queue, entries, c.context.actor);
    if (!c.refused(result))
        writeBatchOutcome(c, result.value());
}

void listDeadLetterSourceQueues(Call& c)
{
    auto sources = c.engine.listDeadLetterSourceQueues(c.queue());
    if (!c.refused(sources))
        writeUrlPage(c, sources.value(), "queueUrls", true);
}

void tagQueue(Call& c)
{
    c.refused(c.engine.tagQueue(c.queue(), stringMap(c.params, "Tags"), c.context.actor));
}

void untagQueue(Call& c)
{
    c.refused(c.engine.untagQueue(c.queue(), stringList(c.params, "TagKeys"), c.context.actor));
}

void listQueueTags(Call& c)
{
    auto tags = c.engine.listQueueTags(c.queue());
    if (!c.refused(tags) && !tags->empty())
        c.out()["Tags"] = json(tags.value());
}

void addPermission(Call& c)
{
    const std::string queue = c.queue();
    c.refused(c.engine.addPermission(queue, required(c.params, "Label"), stringList(c.params, "AWSAccountIds"),
        stringList(c.params, "Actions"), c.context.actor));
}

void removePermission(Call& c)
{
    const std::string queue = c.queue();
    c.refused(c.engine.removePermission(queue, required(c.params, "Label"), c.context.actor));
}

void startMessageMoveTask(Call& c)
{
    auto handle = c.engine.startMessageMoveTask(required(c.params, "SourceArn"), optString(c.params, "DestinationArn"),
        optInteger(c.params, "MaxNumberOfMessagesPerSecond"), c.context.actor);
    if (!c.refused(handle))
        c.out()["TaskHandle"] = handle.value();
}

json moveTaskJson(const MoveTaskInfo& t)
{
    json r { { "Status", t.status }, { "SourceArn", t.sourceArn },
        { "ApproximateNumberOfMessagesMoved", t.approximateNumberOfMessagesMoved },
        { "ApproximateNumberOfMessagesToMove", t.approximateNumberOfMessagesToMove },
        { "StartedTimestamp", t.startedTimestamp } };
    if (!t.taskHandle.empty())
        r["TaskHandle"] = t.taskHandle;
    if (!t.destinationArn.empty())
        r["DestinationArn"] = t.destinationArn;
    if (t.maxNumberOfMessagesPerSecond)
        r["MaxNumberOfMessagesPerSecond"] = *t.maxNumberOfMessagesPerSecond;
    if (!t.failureReason.empty())
        r["FailureReason"] = t.failureReason;
    return r;
}

void listMessageMoveTasks(Call& c)
{
    auto tasks = c.engine.listMessageMoveTasks(
        required(c.params, "SourceArn"), optInteger(c.params, "MaxResults").value_or(1));
    if (c.refused(tasks))
        return;
    json results = json::array();
    for (const auto& t : tasks.value())
        results.push_back(moveTaskJson(t));
    c.out()["Results"] = std::move(results);
}

void cancelMessageMoveTask(Call& c)
{
    auto moved = c.engine.cancelMessageMoveTask(required(c.params, "TaskHandle"), c.context.actor);
    if (!c.refused(moved))
        c.out()["ApproximateNumberOfMessagesMoved"] = moved.value();
}

using Handler = void (*)(Call&);

// In SqsAction's order (checked below).
constexpr std::array<std::pair<SqsAction, Handler>, size_t(SqsAction::Count)> kHandlers { {
    { SqsAction::CreateQueue, createQueue },
    { SqsAction::GetQueueUrl, getQueueUrl },
    { SqsAction::ListQueues, listQueues },
    { SqsAction::GetQueueAttributes, getQueueAttributes },
    { SqsAction::SetQueueAttributes, setQueueAttributes },
    { SqsAction::DeleteQueue, deleteQueue },
    { SqsAction::PurgeQueue, purgeQueue },
    { SqsAction::SendMessage, sendMessage },
    { SqsAction::SendMessageBatch, sendMessageBatch },
    { SqsAction::ReceiveMessage, receiveMessage },
    { SqsAction::DeleteMessage, deleteMessage },
    { SqsAction::DeleteMessageBatch, deleteMessageBatch },
    { SqsAction::ChangeMessageVisibility, changeMessageVisibility },
    { SqsAction::ChangeMessageVisibilityBatch, changeMessageVisibilityBatch },
    { SqsAction::ListDeadLetterSourceQueues, listDeadLetterSourceQueues },
    { SqsAction::StartMessageMoveTask, startMessageMoveTask },
    { SqsAction::ListMessageMoveTasks, listMessageMoveTasks },
    { SqsAction::CancelMessageMoveTask, cancelMessageMoveTask },
    { SqsAction::TagQueue, tagQueue },
    { SqsAction::UntagQueue, untagQueue },
    { SqsAction::ListQueueTags, listQueueTags },
    { SqsAction::AddPermission, addPermission },
    { SqsAction::RemovePermission, removePermission },
} };

constexpr bool inActionOrder()
{
    for (size_t i = 0; i < kHandlers.size(); ++i)
        if (size_t(kHandlers[i].first) != i || size_t(kSqsActions[i].action) != i)
            return false;
    return true;
}
static_assert(inActionOrder(), "kHandlers and kSqsActions list every action in SqsAction's order");
} // namespace

std::optional<SqsAction> sqsActionNamed(std::string_view name)
{
    const auto it = std::find_if(
        kSqsActions.begin(), kSqsActions.end(), [&](const SqsActionInfo& info) { return info.name == name; });
    return it == kSqsActions.end() ? std::nullopt : std::optional(it->action);
}

bool SqsService::knownAction(const std::string& action)
{
    return sqsActionNamed(action).has_value();
}

CallOutcome SqsService::call(const std::string& action, const json& params, const CallContext& context)
{
    CallOutcome outcome;
    const std::optional<SqsAction> known = sqsActionNamed(action);
    if (!known) {
        outcome.error = makeError("InvalidAction", "The action " + action + " is not valid for this endpoint.");
        return outcome;
    }
    Call call { *this, m_engine, params, context, outcome };
    try {
        // A fault the plan injects answers first, as SQS's own refusal would (docs/faults.md).
        if (m_engine.faults()) {
            std::string queue;
            try {
                queue = call.queue();
            } catch (const ParamError&) { // no queue named (CreateQueue, ListQueues): a fault for any queue may strike
            }
            if (auto error = m_engine.injectedRefusal(action, queue, context.actor)) {
                outcome.error = std::move(error);
                return outcome;
            }
            outcome.answerAfterMs = m_engine.injectedLatency(action, queue, context.actor).value_or(0);
        }
        kHandlers[size_t(*known)].second(call);
    } catch (const ParamError& e) {
        outcome.error = e.error;
        outcome.output = json::object();
    }
    if (outcome.error)
        outcome.output = json::object(); // a refusal answers with its error only
    return outcome;
}

} // namespace lifeline::endpoint
