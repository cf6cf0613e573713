#include "lifeline/endpoint/request_pipeline.h"

#include <map>
#include <memory>
#include <utility>

namespace lifeline::endpoint {

namespace {

constexpr std::string_view kPeekPath = "/_aws/sqs/messages";

Reply controlReply(const HttpRequest& request, const GuardOptions& guard)
{
    // Refused as an SQS call from a web page would be (an Origin, a foreign Host); the method is the parser's.
    if (auto refused = guardRequest(request, {}, guard))
        return controlError(403, "origin", refused->message);
    auto parsed = parseControlRequest(request);
    if (auto* error = std::get_if<HttpResponse>(&parsed))
        return std::move(*error);
    return std::get<ControlCommand>(std::move(parsed));
}

// The peek's parameters: an AWS client's ReceiveMessage call (JSON), or plain ones in the query string or a form.
std::map<std::string, std::string> peekParameters(const HttpRequest& request, bool json)
{
    std::map<std::string, std::string> params;
    if (json) {
        const auto decoded = decodeRequest(request);
        for (const auto& [key, value] : decoded.params.items())
            if (value.is_string())
                params[key] = value.get<std::string>();
            else if (value.is_boolean())
                params[key] = value.get<bool>() ? "true" : "false";
        return params;
    }
    for (const std::string_view text : { request.query(), std::string_view(request.body) })
        if (const auto pairs = splitForm(text))
            for (const auto& [key, value] : *pairs)
                params[key] = value;
    return params;
}

// What LocalStack answers a peek asked with `Accept: application/json`: its query protocol's XML as JSON
// ({"ReceiveMessageResponse": {"ReceiveMessageResult": {"Message": [...]}, "ResponseMetadata": {...}}}, the result
// null when no message is there), each message's attributes as a list of {"Name", "Value"}. Test suites written for
// LocalStack read it so ($.ReceiveMessageResponse.ReceiveMessageResult).
nlohmann::json localStackMessage(const nlohmann::json& m)
{
    nlohmann::json message = { { "MessageId", m["MessageId"] }, { "ReceiptHandle", m["ReceiptHandle"] },
        { "MD5OfBody", m["MD5OfBody"] }, { "Body", m["Body"] } };
    // Each map held first: items() of a temporary would outlive it.
    const nlohmann::json given = m.value("Attributes", nlohmann::json::object());
    const nlohmann::json givenMessageAttributes = m.value("MessageAttributes", nlohmann::json::object());
    nlohmann::json attributes = nlohmann::json::array();
    for (const auto& [name, value] : given.items())
        attributes.push_back({ { "Name", name }, { "Value", value } });
    if (!attributes.empty())
        message["Attribute"] = attributes;
    if (m.contains("MD5OfMessageAttributes"))
        message["MD5OfMessageAttributes"] = m["MD5OfMessageAttributes"];
    nlohmann::json messageAttributes = nlohmann::json::array();
    for (const auto& [name, value] : givenMessageAttributes.items())
        messageAttributes.push_back({ { "Name", name }, { "Value", value } });
    if (!messageAttributes.empty())
        message["MessageAttribute"] = messageAttributes;
    return message;
}

// The answer as its messages come (`next`, nothing at the end); `any`: there is at least one to come.
HttpResponse localStackJson(bool any, std::function<std::optional<nlohmann::json>()> next, const std::string& requestId)
{
    HttpResponse response;
    response.status = 200;
    response.headers = { { "Content-Type", "application/json" }, { "x-amzn-RequestId", requestId } };
    const nlohmann::json metadata = { { "RequestId", requestId } };
    if (!any) {
        response.body = nlohmann::json {
            { "ReceiveMessageResponse", { { "ReceiveMessageResult", nullptr }, { "ResponseMetadata", metadata } } }
        }.dump();
        return response;
    }
    // The keys in nlohmann's order, as the whole document would have them (Result before Metadata).
    response.bodyParts
        = streamedList(Protocol::Json, {}, R"({"ReceiveMessageResponse":{"ReceiveMessageResult":{"Message":[)",
            R"(]},"ResponseMetadata":)" + metadata.dump() + "}}",
            [next = std::move(next)]() -> std::optional<nlohmann::json> {
                if (auto m = next())
                    return localStackMessage(*m);
                return std::nullopt;
            });
    return response;
}

HttpResponse peekReply(
    const HttpRequest& request, Engine& engine, const SqsService& service, const RequestContext& context)
{
    const std::string requestId = context.nextRequestId();
    const bool json = request.header("content-type") == "application/x-amz-json-1.0";
    const auto protocol = json ? Protocol::Json : Protocol::Query;
    // It reads every message's body: refused to a web page as ReceiveMessage would be.
    if (auto refused = guardRequest(request, {}, context.guard))
        return encodeError(protocol, *refused, requestId);
    const std::map<std::string, std::string> params = peekParameters(request, json);
    std::string queue;
    if (const std::string_view path = request.path(); path.starts_with(std::string(kPeekPath) + "/")) {
        const std::string_view rest = path.substr(kPeekPath.size() + 1);
        queue = std::string(rest.substr(rest.rfind('/') == std::string_view::npos ? 0 : rest.rfind('/') + 1));
    } else if (const auto url = params.find("QueueUrl"); url != params.end()) {
        queue = url->second.substr(url->second.rfind('/') + 1);
    }
    const auto flag = [&](const char* name) {
        const auto it = params.find(name);
        return it != params.end() && (asciiLower(it->second) == "true" || it->second == "1");
    };
    const bool showInvisible = flag("ShowInvisible"), showDelayed = flag("ShowDelayed");
    auto peeked = engine.peekLanes(queue, showInvisible, showDelayed);
    if (!peeked)
        return encodeError(protocol, peeked.error(), requestId);
    const bool localStack = !json && request.header("accept").find("application/json") != std::string_view::npos;
    if (peeked.value().empty())
        return localStack ? localStackJson(false, {}, requestId)
                          : encodeResult(protocol, "ReceiveMessage",
                              service.renderMessages({}, ReceiveView { { "All" }, { "All" } }), requestId);
    // One message at a time, described when its turn comes: one that was received, deleted or moved since is left
    // out (as it would be from an answer made a moment later).
    auto lanes = std::make_shared<std::vector<Engine::PeekedLane>>(std::move(peeked.value()));
    auto cursor = std::make_shared<size_t>(0);
    auto next = [&engine, &service, lanes, cursor, showInvisible, showDelayed]() -> std::optional<nlohmann::json> {
        while (*cursor < lanes->size()) {
            const Engine::PeekedLane& lane = (*lanes)[(*cursor)++];
            auto message = engine.describePeeked(lane);
            if (!message)
                continue;
            std::vector<ReceivedMessage> one;
            one.push_back(std::move(*message)); // a 1 MiB body is copied once more at most, into the answer's JSON
            nlohmann::json rendered = service.renderMessages(one, ReceiveView { { "All" }, { "All" } });
            nlohmann::json m = std::move(rendered["Messages"][0]);
            m["ReceiptHandle"] = "SQS/BACKDOOR/ACCESS"; // LocalStack's: a peek hands out no receipt
            if (showInvisible)
                m["Attributes"]["IsVisible"] = lane.state == MessageState::Visible ? "true" : "false";
            if (showDelayed)
                m["Attributes"]["IsDelayed"] = lane.state == MessageState::Delayed ? "true" : "false";
            return m;
        }
        return std::nullopt;
    };
    if (localStack)
        return localStackJson(true, std::move(next), requestId);
    return encodeStreamedList(protocol, "ReceiveMessage", "Messages", std::move(next), requestId);
}

} // namespace

bool isPeekPath(std::string_view path)
{
    return path == kPeekPath || path.starts_with(std::string(kPeekPath) + "/");
}

Reply handleRequest(const HttpRequest& request, Engine& engine, SqsService& service, const RequestContext& context)
{
    if (request.path() == kFaultsPath) {
        if (auto refused = guardRequest(request, {}, context.guard))
            return controlError(403, "origin", refused->message);
        return faultsReply(request, engine);
    }
    if (isControlPath(request.path()))
        return controlReply(request, context.guard);
    if (isPeekPath(request.path()))
        return peekReply(request, engine, service, context);
    const std::string requestId = context.nextRequestId();
    auto decoded = decodeRequest(request);
    // What a web page may have sent is refused before anything else happens (request_guard.h).
    if (auto refused = guardRequest(request, decoded.action, context.guard))
        return encodeError(decoded.protocol, *refused, requestId);
    if (decoded.error)
        return encodeError(decoded.protocol, *decoded.error, requestId);
    CallContext call;
    const std::string_view host = request.header("host");
    call.host = host.empty() ? context.defaultHost : std::string(host);
    call.path = std::string(request.path());
    call.actor = context.actor();
    auto outcome = service.call(decoded.action, decoded.params, call);
    if (outcome.error)
        return encodeError(decoded.protocol, *outcome.error, requestId);
    if (outcome.answerAfterMs > 0 && !outcome.pendingPoll) { // a poll that waits is answered when it completes
        HttpResponse late = encodeResult(decoded.protocol, decoded.action, outcome.output, requestId);
        late.answerAfterMs = outcome.answerAfterMs;
        return late;
    }
    if (outcome.pendingPoll) {
        const auto queueUrl = decoded.params.find("QueueUrl");
        const std::string url
            = queueUrl != decoded.params.end() && queueUrl->is_string() ? queueUrl->get<std::string>() : "";
        return ParkedReceive { *outcome.pendingPoll, url.substr(url.rfind('/') + 1), std::move(outcome.view),
            decoded.protocol, requestId };
    }
    return encodeResult(decoded.protocol, decoded.action, outcome.output, requestId);
}

} // namespace lifeline::endpoint
