#include "lifeline/endpoint/sqs_service.h"

#include "lifeline/base64.h"
#include "lifeline/message_rules.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>

namespace lifeline::endpoint {

using json = nlohmann::json;

namespace {

// A parameter the request got wrong: thrown inside a call, answered as SQS's error.
struct ParamError {
    SqsError error;
};

[[noreturn]] void invalid(const std::string& name, const std::string& value, const std::string& reason)
{
    throw ParamError { makeError(
        codes::InvalidParameterValue, "Value " + value + " for parameter " + name + " is invalid. Reason: " + reason) };
}

std::optional<std::string> optString(const json& params, const char* name)
{
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return std::nullopt;
    if (!it->is_string())
        invalid(name, it->dump(), "Must be a string.");
    return it->get<std::string>();
}

std::string required(const json& params, const char* name)
{
    auto value = optString(params, name);
    if (!value)
        throw ParamError { makeError(
            codes::MissingParameter, std::string("The request must contain the parameter ") + name + ".") };
    return *value;
}

// Query sends numbers as text, JSON as numbers: both are taken, anything else is refused.
std::optional<int64_t> optInteger(const json& params, const char* name)
{
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return std::nullopt;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_string()) {
        const std::string text = it->get<std::string>();
        int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && ptr == text.data() + text.size() && !text.empty())
            return value;
        invalid(name, text, "Must be an integer.");
    }
    invalid(name, it->dump(), "Must be an integer.");
}

std::vector<std::string> stringList(const json& params, const char* name)
{
    std::vector<std::string> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_array())
        invalid(name, it->dump(), "Must be a list of strings.");
    for (const auto& item : *it) {
        if (!item.is_string())
            invalid(name, item.dump(), "Must be a list of strings.");
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::map<std::string, std::string> stringMap(const json& params, const char* name)
{
    std::map<std::string, std::string> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_object())
        invalid(name, it->dump(), "Must be a map of strings.");
    for (const auto& [key, value] : it->items()) {
        if (value.is_string())
            out[key] = value.get<std::string>();
        else if (value.is_number_integer() || value.is_boolean())
            out[key] = value.dump(); // lenient: a number where SQS keeps strings
        else
            invalid(name + std::string(".") + key, value.dump(), "Must be a string.");
    }
    return out;
}

std::vector<MessageAttribute> messageAttributes(const json& params, const char* name)
{
    std::vector<MessageAttribute> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_object())
        invalid(name, it->dump(), "Must be a map of message attribute values.");
    for (const auto& [key, value] : it->items()) {
        MessageAttribute attribute;
        attribute.name = key;
        if (!value.is_object())
            invalid(name, value.dump(), "Must be a message attribute value.");
        attribute.value.dataType = optString(value, "DataType").value_or("");
        attribute.value.stringValue = optString(value, "StringValue").value_or("");
        if (auto binary = optString(value, "BinaryValue")) {
            auto bytes = base64Decode(*binary);
            if (!bytes)
                invalid("BinaryValue", *binary, "Must be base64.");
            attribute.value.binaryValue = std::move(*bytes);
        }
        out.push_back(std::move(attribute));
    }
    return out;
}

std::optional<std::string> traceHeader(const json& params)
{
    const auto it = params.find("MessageSystemAttributes");
    if (it == params.end() || !it->is_object())
        return std::nullopt;
    const auto trace = it->find("AWSTraceHeader");
    if (trace == it->end() || !trace->is_object())
        return std::nullopt;
    return optString(*trace, "StringValue");
}

const json& entriesOf(const json& params)
{
    static const json kEmpty = json::array();
    const auto it = params.find("Entries");
    if (it == params.end() || it->is_null())
        return kEmpty;
    if (!it->is_array())
        invalid("Entries", it->dump(), "Must be a list.");
    for (const auto& entry : *it)
        if (!entry.is_object())
            invalid("Entries", entry.dump(), "Each entry must be an object.");
    return *it;
}

json attributeValueJson(const MessageAttributeValue& value)
{
    json out { { "DataType", value.dataType } };
    if (value.dataType.starts_with("Binary"))
        out["BinaryValue"] = base64Encode(value.binaryValue);
    else
        out["StringValue"] = value.stringValue;
    return out;
}

bool wantsAttribute(const std::vector<std::string>& names, const std::string& name)
{
    for (const auto& n : names) {
        if (n == "All" || n == ".*" || n == name)
            return true;
        if (n.size() > 2 && n.ends_with(".*") && name.compare(0, n.size() - 1, n, 0, n.size() - 1) == 0)
            return true;
    }
    return false;
}

template <class T> json batchFailures(const BatchResult<T>& result)
{
    json failed = json::array();
    for (const auto& f : result.failed)
        failed.push_back(
            { { "Id", f.id }, { "SenderFault", f.senderFault }, { "Code", f.code }, { "Message", f.message } });
    return failed;
}

std::string lastSegment(std::string_view url)
{
    while (!url.empty() && url.back() == '/')
        url.remove_suffix(1);
    const size_t slash = url.rfind('/');
    return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

} // namespace

SqsService::SqsService(Engine& engine)
    : m_engine(engine)
{
}

std::string SqsService::queueUrl(const std::string& host, const std::string& name) const
{
    return "http://" + host + "/" + m_engine.options().accountId + "/" + name;
}

bool SqsService::knownAction(const std::string& action)
{
    static const char* const kActions[] = { "CreateQueue", "GetQueueUrl", "ListQueues", "GetQueueAttributes",
        "SetQueueAttributes", "DeleteQueue", "PurgeQueue", "SendMessage", "SendMessageBatch", "ReceiveMessage",
        "DeleteMessage", "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch",
        "ListDeadLetterSourceQueues", "StartMessageMoveTask", "ListMessageMoveTasks", "CancelMessageMoveTask",
        "TagQueue", "UntagQueue", "ListQueueTags" };
    return std::any_of(std::begin(kActions), std::end(kActions), [&](const char* a) { return action == a; });
}

json SqsService::renderMessages(const std::vector<ReceivedMessage>& messages, const ReceiveView& view) const
{
    if (messages.empty())
        return json::object();
    json list = json::array();
    for (const auto& m : messages) {
        json out { { "MessageId", m.messageId }, { "ReceiptHandle", m.receiptHandle },
            { "MD5OfBody", m.md5OfBody.hex() }, { "Body", m.body } };
        const AttributeMap system = m.systemAttributes(view.attributeNames);
        if (!system.empty())
            out["Attributes"] = json(system);
        std::vector<MessageAttribute> shown;
        for (const auto& a : m.attributes)
            if (wantsAttribute(view.messageAttributeNames, a.name))
                shown.push_back(a);
        if (!shown.empty()) {
            // The digest covers the attributes returned, so an SDK that checks it agrees.
            out["MD5OfMessageAttributes"] = md5OfMessageAttributes(shown);
            json attributes = json::object();
            for (const auto& a : shown)
                attributes[a.name] = attributeValueJson(a.value);
            out["MessageAttributes"] = std::move(attributes);
        }
        list.push_back(std::move(out));
    }
    return json { { "Messages", std::move(list) } };
}

CallOutcome SqsService::call(const std::string& action, const json& params, const CallContext& context)
{
    CallOutcome outcome;
    const auto fail = [&outcome](const SqsError& error) { outcome.error = error; };
    const auto queueName = [&]() -> std::string {
        if (auto url = optString(params, "QueueUrl"))
            return lastSegment(*url);
        const std::string fromPath = lastSegment(context.path);
        if (!fromPath.empty() && context.path.find('/', 1) != std::string::npos)
            return fromPath;
        throw ParamError { makeError(codes::MissingParameter, "The request must contain the parameter QueueUrl.") };
    };
    try {
        json& out = outcome.output;
        if (action == "CreateQueue") {
            const std::string name = required(params, "QueueName");
            // The JSON model calls CreateQueue's tags "tags"; query's Tag.N folds into "Tags".
            auto tags = stringMap(params, "tags");
            if (tags.empty())
                tags = stringMap(params, "Tags");
            auto created = m_engine.createQueue(name, stringMap(params, "Attributes"), tags, context.actor);
            if (!created)
                return fail(created.error()), outcome;
            out["QueueUrl"] = queueUrl(context.host, name);
        } else if (action == "GetQueueUrl") {
            const std::string name = required(params, "QueueName");
            const auto index = m_engine.queueIndex(name);
            if (!index || !m_engine.queueInfo(*index).alive)
                return fail(makeError(codes::NonExistentQueue, "The specified queue does not exist.")), outcome;
            out["QueueUrl"] = queueUrl(context.host, name);
        } else if (action == "ListQueues") {
            const auto names = m_engine.listQueues(optString(params, "QueueNamePrefix").value_or(""));
            const auto max = optInteger(params, "MaxResults");
            if (max && (*max < 1 || *max > 1000))
                invalid("MaxResults", std::to_string(*max), "MaxResults must be an integer between 1 and 1000.");
            size_t start = 0;
            if (auto token = optString(params, "NextToken")) {
                const auto decoded = base64Decode(*token);
                size_t value = 0;
                if (!decoded
                    || std::from_chars(decoded->data(), decoded->data() + decoded->size(), value).ec != std::errc())
                    invalid("NextToken", *token, "Invalid NextToken value.");
                start = value;
            }
            const size_t limit = size_t(max.value_or(1000));
            json urls = json::array();
            for (size_t i = start; i < names.size() && urls.size() < limit; ++i)
                urls.push_back(queueUrl(context.host, names[i]));
            if (!urls.empty())
                out["QueueUrls"] = std::move(urls);
            if (max && start + limit < names.size())
                out["NextToken"] = base64Encode(std::to_string(start + limit));
        } else if (action == "GetQueueAttributes") {
            auto attributes = m_engine.getQueueAttributes(queueName(), stringList(params, "AttributeNames"));
            if (!attributes)
                return fail(attributes.error()), outcome;
            if (!attributes->empty())
                out["Attributes"] = json(attributes.value());
        } else if (action == "SetQueueAttributes") {
            auto status = m_engine.setQueueAttributes(queueName(), stringMap(params, "Attributes"), context.actor);
            if (!status)
                return fail(status.error()), outcome;
        } else if (action == "DeleteQueue") {
            if (auto status = m_engine.deleteQueue(queueName(), context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "PurgeQueue") {
            if (auto status = m_engine.purgeQueue(queueName(), context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "SendMessage") {
            SendMessageRequest request;
            request.queue = queueName();
            request.body = required(params, "MessageBody");
            request.delaySeconds = optInteger(params, "DelaySeconds");
            request.attributes = messageAttributes(params, "MessageAttributes");
            request.messageGroupId = optString(params, "MessageGroupId");
            request.messageDeduplicationId = optString(params, "MessageDeduplicationId");
            request.awsTraceHeader = traceHeader(params);
            request.actor = context.actor;
            auto sent = m_engine.sendMessage(request);
            if (!sent)
                return fail(sent.error()), outcome;
            out["MessageId"] = sent->messageId;
            out["MD5OfMessageBody"] = sent->md5OfMessageBody.hex();
            if (!sent->md5OfMessageAttributes.empty())
                out["MD5OfMessageAttributes"] = sent->md5OfMessageAttributes;
            if (!sent->sequenceNumber.empty())
                out["SequenceNumber"] = sent->sequenceNumber;
        } else if (action == "SendMessageBatch") {
            const std::string queue = queueName();
            std::vector<SendMessageBatchEntry> entries;
            for (const auto& e : entriesOf(params)) {
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
            auto result = m_engine.sendMessageBatch(queue, entries, context.actor);
            if (!result)
                return fail(result.error()), outcome;
            json successful = json::array();
            for (const auto& [id, sent] : result->successful) {
                json entry { { "Id", id }, { "MessageId", sent.messageId },
                    { "MD5OfMessageBody", sent.md5OfMessageBody.hex() } };
                if (!sent.md5OfMessageAttributes.empty())
                    entry["MD5OfMessageAttributes"] = sent.md5OfMessageAttributes;
                if (!sent.sequenceNumber.empty())
                    entry["SequenceNumber"] = sent.sequenceNumber;
                successful.push_back(std::move(entry));
            }
            out["Successful"] = std::move(successful);
            out["Failed"] = batchFailures(result.value());
        } else if (action == "ReceiveMessage") {
            ReceiveMessageRequest request;
            request.queue = queueName();
            request.maxNumberOfMessages = optInteger(params, "MaxNumberOfMessages");
            request.visibilityTimeout = optInteger(params, "VisibilityTimeout");
            request.waitTimeSeconds = optInteger(params, "WaitTimeSeconds");
            request.receiveRequestAttemptId = optString(params, "ReceiveRequestAttemptId");
            request.actor = context.actor;
            outcome.view.attributeNames = stringList(params, "AttributeNames");
            for (auto& name : stringList(params, "MessageSystemAttributeNames"))
                outcome.view.attributeNames.push_back(std::move(name));
            outcome.view.messageAttributeNames = stringList(params, "MessageAttributeNames");
            auto received = m_engine.receiveMessage(request);
            if (!received)
                return fail(received.error()), outcome;
            if (received->pending) {
                outcome.pendingPoll = received->poll;
                return outcome;
            }
            out = renderMessages(received->messages, outcome.view);
        } else if (action == "DeleteMessage") {
            const std::string queue = queueName();
            if (auto status = m_engine.deleteMessage(queue, required(params, "ReceiptHandle"), context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "DeleteMessageBatch") {
            const std::string queue = queueName();
            std::vector<DeleteMessageBatchEntry> entries;
            for (const auto& e : entriesOf(params))
                entries.push_back({ optString(e, "Id").value_or(""), optString(e, "ReceiptHandle").value_or("") });
            auto result = m_engine.deleteMessageBatch(queue, entries, context.actor);
            if (!result)
                return fail(result.error()), outcome;
            json successful = json::array();
            for (const auto& [id, ok] : result->successful)
                successful.push_back({ { "Id", id } });
            out["Successful"] = std::move(successful);
            out["Failed"] = batchFailures(result.value());
        } else if (action == "ChangeMessageVisibility") {
            const std::string queue = queueName();
            const std::string handle = required(params, "ReceiptHandle");
            const auto timeout = optInteger(params, "VisibilityTimeout");
            if (!timeout)
                throw ParamError { makeError(
                    codes::MissingParameter, "The request must contain the parameter VisibilityTimeout.") };
            if (auto status = m_engine.changeMessageVisibility(queue, handle, *timeout, context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "ChangeMessageVisibilityBatch") {
            const std::string queue = queueName();
            std::vector<ChangeVisibilityBatchEntry> entries;
            for (const auto& e : entriesOf(params))
                entries.push_back({ optString(e, "Id").value_or(""), optString(e, "ReceiptHandle").value_or(""),
                    optInteger(e, "VisibilityTimeout").value_or(0) });
            auto result = m_engine.changeMessageVisibilityBatch(queue, entries, context.actor);
            if (!result)
                return fail(result.error()), outcome;
            json successful = json::array();
            for (const auto& [id, ok] : result->successful)
                successful.push_back({ { "Id", id } });
            out["Successful"] = std::move(successful);
            out["Failed"] = batchFailures(result.value());
        } else if (action == "ListDeadLetterSourceQueues") {
            auto sources = m_engine.listDeadLetterSourceQueues(queueName());
            if (!sources)
                return fail(sources.error()), outcome;
            json urls = json::array();
            for (const auto& name : sources.value())
                urls.push_back(queueUrl(context.host, name));
            out["queueUrls"] = std::move(urls);
        } else if (action == "TagQueue") {
            if (auto status = m_engine.tagQueue(queueName(), stringMap(params, "Tags"), context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "UntagQueue") {
            if (auto status = m_engine.untagQueue(queueName(), stringList(params, "TagKeys"), context.actor); !status)
                return fail(status.error()), outcome;
        } else if (action == "ListQueueTags") {
            auto tags = m_engine.listQueueTags(queueName());
            if (!tags)
                return fail(tags.error()), outcome;
            if (!tags->empty())
                out["Tags"] = json(tags.value());
        } else if (action == "StartMessageMoveTask") {
            auto handle = m_engine.startMessageMoveTask(required(params, "SourceArn"),
                optString(params, "DestinationArn"), optInteger(params, "MaxNumberOfMessagesPerSecond"), context.actor);
            if (!handle)
                return fail(handle.error()), outcome;
            out["TaskHandle"] = handle.value();
        } else if (action == "ListMessageMoveTasks") {
            auto tasks = m_engine.listMessageMoveTasks(
                required(params, "SourceArn"), optInteger(params, "MaxResults").value_or(1));
            if (!tasks)
                return fail(tasks.error()), outcome;
            json results = json::array();
            for (const auto& t : tasks.value()) {
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
                results.push_back(std::move(r));
            }
            out["Results"] = std::move(results);
        } else if (action == "CancelMessageMoveTask") {
            auto moved = m_engine.cancelMessageMoveTask(required(params, "TaskHandle"), context.actor);
            if (!moved)
                return fail(moved.error()), outcome;
            out["ApproximateNumberOfMessagesMoved"] = moved.value();
        } else {
            return fail(makeError("InvalidAction", "The action " + action + " is not valid for this endpoint.")),
                   outcome;
        }
    } catch (const ParamError& e) {
        outcome.error = e.error;
        outcome.output = json::object();
    }
    return outcome;
}

} // namespace lifeline::endpoint
