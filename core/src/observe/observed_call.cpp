#include "lifeline/observe/observed_call.h"

#include "lifeline/aws/secret_scrub.h"

#include <algorithm>
#include <charconv>

namespace lifeline::observe {

using endpoint::SqsAction;
using nlohmann::json;

namespace {
// A whole number given as a JSON number or, as the query protocol folds it, a string.
std::optional<int64_t> wholeNumber(const json& object, const char* key)
{
    const auto it = object.find(key);
    if (it == object.end())
        return std::nullopt;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_string()) {
        const auto& text = it->get_ref<const std::string&>();
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && end == text.data() + text.size())
            return value;
    }
    return std::nullopt;
}

std::string text(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& list(const json& object, const char* key)
{
    static const json kEmpty = json::array();
    const auto it = object.find(key);
    return it != object.end() && it->is_array() ? *it : kEmpty;
}

AttributeMap stringMap(const json& object, const char* key)
{
    AttributeMap out;
    const auto it = object.find(key);
    if (it == object.end() || !it->is_object())
        return out;
    for (const auto& [name, value] : it->items())
        if (value.is_string())
            out[name] = value.get<std::string>();
    return out;
}

// The request's entry with this Id (batch answers name entries by the Id the request gave them).
const json* entryWithId(const json& params, const std::string& id)
{
    for (const json& entry : list(params, "Entries"))
        if (entry.is_object() && text(entry, "Id") == id)
            return &entry;
    return nullptr;
}

void readSends(ObservedCall& call, const json& params, const json& answer)
{
    if (call.is(SqsAction::SendMessage)) {
        const std::string id = text(answer, "MessageId");
        if (!id.empty())
            call.sent.push_back({ id, wholeNumber(params, "DelaySeconds"), text(params, "MessageBody"),
                text(params, "MessageGroupId") });
        return;
    }
    for (const json& done : list(answer, "Successful")) {
        if (!done.is_object())
            continue;
        const json* entry = entryWithId(params, text(done, "Id"));
        const std::string id = text(done, "MessageId");
        if (entry && !id.empty())
            call.sent.push_back({ id, wholeNumber(*entry, "DelaySeconds"), text(*entry, "MessageBody"),
                text(*entry, "MessageGroupId") });
    }
}

void readReceipts(ObservedCall& call, const json& params, const json& answer)
{
    call.visibilitySeconds = wholeNumber(params, "VisibilityTimeout");
    for (const json& m : list(answer, "Messages")) {
        if (!m.is_object())
            continue;
        ObservedReceipt receipt { text(m, "MessageId"), text(m, "ReceiptHandle"), text(m, "Body"), {}, {} };
        if (receipt.messageId.empty() || receipt.receiptHandle.empty())
            continue;
        if (const auto a = m.find("Attributes"); a != m.end() && a->is_object()) {
            if (const auto count = wholeNumber(*a, "ApproximateReceiveCount"); count && *count > 0 && *count < 1e9)
                receipt.receiveCount = uint32_t(*count);
            receipt.sentTimestampMs = wholeNumber(*a, "SentTimestamp");
        }
        call.received.push_back(std::move(receipt));
    }
}

void readHandles(ObservedCall& call, const json& params, const json& answer)
{
    if (call.is(SqsAction::DeleteMessage) || call.is(SqsAction::ChangeMessageVisibility)) {
        const std::string handle = text(params, "ReceiptHandle");
        if (!handle.empty())
            call.handles.push_back({ handle, wholeNumber(params, "VisibilityTimeout").value_or(0) });
        return;
    }
    for (const json& done : list(answer, "Successful")) {
        if (!done.is_object())
            continue;
        if (const json* entry = entryWithId(params, text(done, "Id")); entry && !text(*entry, "ReceiptHandle").empty())
            call.handles.push_back(
                { text(*entry, "ReceiptHandle"), wholeNumber(*entry, "VisibilityTimeout").value_or(0) });
    }
}
} // namespace

std::vector<ObservedSend> requestedSends(const std::string& action, const json& params)
{
    std::vector<ObservedSend> out;
    if (!params.is_object())
        return out;
    const auto known = endpoint::sqsActionNamed(action);
    if (known == SqsAction::SendMessage)
        out.push_back(
            { {}, wholeNumber(params, "DelaySeconds"), text(params, "MessageBody"), text(params, "MessageGroupId") });
    else if (known == SqsAction::SendMessageBatch)
        for (const json& entry : list(params, "Entries"))
            if (entry.is_object())
                out.push_back({ {}, wholeNumber(entry, "DelaySeconds"), text(entry, "MessageBody"),
                    text(entry, "MessageGroupId") });
    return out;
}

bool isObserved(const std::string& action)
{
    const auto known = endpoint::sqsActionNamed(action);
    return known && endpoint::infoOf(*known).observed;
}

std::string queueNameFromUrl(std::string_view url)
{
    while (!url.empty() && url.back() == '/')
        url.remove_suffix(1);
    const size_t slash = url.rfind('/');
    return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

ObservedCall readCall(const std::string& action, const json& params, int status, const json& answer)
{
    ObservedCall call;
    call.action = action;
    call.known = endpoint::sqsActionNamed(action);
    call.ok = status == 200;
    if (params.is_object()) {
        const std::string url = text(params, "QueueUrl");
        call.queue = url.empty() ? text(params, "QueueName") : queueNameFromUrl(url);
    }
    if (!call.ok) {
        if (answer.is_object()) {
            const std::string type = text(answer, "__type");
            call.errorCode = type.substr(type.find('#') == std::string::npos ? 0 : type.find('#') + 1);
            // Shown, logged and recorded: SignatureDoesNotMatch quotes the proxy's session token.
            call.errorMessage
                = aws::scrubSecrets(answer.contains("message") ? text(answer, "message") : text(answer, "Message"));
        }
        return call;
    }
    if (!params.is_object() || !answer.is_object())
        return call;
    if (call.is(SqsAction::SendMessage) || call.is(SqsAction::SendMessageBatch))
        readSends(call, params, answer);
    else if (call.is(SqsAction::ReceiveMessage))
        readReceipts(call, params, answer);
    else if (call.is(SqsAction::DeleteMessage) || call.is(SqsAction::DeleteMessageBatch)
        || call.is(SqsAction::ChangeMessageVisibility) || call.is(SqsAction::ChangeMessageVisibilityBatch))
        readHandles(call, params, answer);
    else if (call.is(SqsAction::CreateQueue) || call.is(SqsAction::SetQueueAttributes))
        call.attributes = stringMap(params, "Attributes");
    else if (call.is(SqsAction::GetQueueAttributes))
        call.attributes = stringMap(answer, "Attributes");
    return call;
}

} // namespace lifeline::observe
