#include "lifeline/endpoint/protocol.h"

#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/support/json_depth.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <utility>

namespace lifeline::endpoint {

using json = nlohmann::json;

namespace {

constexpr const char* kXmlns = "http://queue.amazonaws.com/doc/2012-11-05/";

// Query list prefixes (old model locationNames) and the JSON member each folds into.
struct ListRule {
    const char* prefix;
    const char* member;
    enum Kind { Strings, NameValueMap, KeyValueMap, Entries, AttributeValueMap } kind;
};
constexpr ListRule kListRules[] = {
    { "Attribute", "Attributes", ListRule::NameValueMap },
    { "Tag", "Tags", ListRule::KeyValueMap },
    { "AttributeName", "AttributeNames", ListRule::Strings },
    { "MessageAttributeName", "MessageAttributeNames", ListRule::Strings },
    { "MessageSystemAttributeName", "MessageSystemAttributeNames", ListRule::Strings },
    { "TagKey", "TagKeys", ListRule::Strings },
    { "AWSAccountId", "AWSAccountIds", ListRule::Strings },
    { "ActionName", "Actions", ListRule::Strings },
    { "MessageAttribute", "MessageAttributes", ListRule::AttributeValueMap },
    { "MessageSystemAttribute", "MessageSystemAttributes", ListRule::AttributeValueMap },
    { "SendMessageBatchRequestEntry", "Entries", ListRule::Entries },
    { "DeleteMessageBatchRequestEntry", "Entries", ListRule::Entries },
    { "ChangeMessageVisibilityBatchRequestEntry", "Entries", ListRule::Entries },
};

using Flat = std::vector<std::pair<std::string, std::string>>;

// `Prefix.N.rest=value` grouped by N (in number order), each with its `rest=value` pairs.
std::map<long, Flat> groupByIndex(const Flat& flat, const std::string& prefix)
{
    std::map<long, Flat> out;
    for (const auto& [key, value] : flat) {
        if (key.size() <= prefix.size() + 1 || key.compare(0, prefix.size(), prefix) != 0 || key[prefix.size()] != '.')
            continue;
        const std::string_view rest = std::string_view(key).substr(prefix.size() + 1);
        const size_t dot = rest.find('.');
        const std::string_view number = rest.substr(0, dot);
        long n = 0;
        const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
        if (ec != std::errc() || ptr != number.data() + number.size())
            continue;
        out[n].emplace_back(dot == std::string_view::npos ? std::string() : std::string(rest.substr(dot + 1)), value);
    }
    return out;
}

std::string find(const Flat& flat, const std::string& key)
{
    for (const auto& [k, v] : flat)
        if (k == key)
            return v;
    return {};
}

bool has(const Flat& flat, const std::string& key)
{
    return std::any_of(flat.begin(), flat.end(), [&](const auto& kv) { return kv.first == key; });
}

json attributeValue(const Flat& fields, const std::string& base)
{
    json value = json::object();
    for (const char* member : { "DataType", "StringValue", "BinaryValue" })
        if (has(fields, base + member))
            value[member] = find(fields, base + member);
    return value;
}

bool isListPrefix(std::string_view key)
{
    const std::string_view head = key.substr(0, key.find('.'));
    return std::any_of(
        std::begin(kListRules), std::end(kListRules), [&](const ListRule& rule) { return head == rule.prefix; });
}

void xmlValue(std::string& out, const std::string& name, const json& value);

void xmlMembers(std::string& out, const json& object, const std::string& action);

std::string scalarText(const json& value)
{
    if (value.is_string())
        return value.get<std::string>();
    if (value.is_boolean())
        return value.get<bool>() ? "true" : "false";
    return value.dump();
}

void xmlValue(std::string& out, const std::string& name, const json& value)
{
    out += '<' + name + '>';
    if (value.is_object())
        xmlMembers(out, value, {});
    else if (value.is_string())
        appendXmlEscaped(out, value.get_ref<const std::string&>());
    else
        appendXmlEscaped(out, scalarText(value));
    out += "</" + name + '>';
}

// The flattened element name each list member has in query answers.
std::string listElement(const std::string& member, const std::string& action)
{
    if (member == "QueueUrls" || member == "queueUrls")
        return "QueueUrl";
    if (member == "Messages")
        return "Message";
    if (member == "Failed")
        return "BatchResultErrorEntry";
    if (member == "Successful")
        return action + "ResultEntry";
    if (member == "Results")
        return "ListMessageMoveTasksResultEntry";
    return member;
}

void xmlMembers(std::string& out, const json& object, const std::string& action)
{
    for (const auto& [member, value] : object.items()) {
        if (value.is_array()) {
            const std::string element = listElement(member, action);
            for (const auto& item : value)
                xmlValue(out, element, item);
        } else if (member == "Attributes" && value.is_object()) {
            for (const auto& [k, v] : value.items())
                out += "<Attribute><Name>" + xmlEscape(k) + "</Name><Value>" + xmlEscape(scalarText(v))
                    + "</Value></Attribute>";
        } else if (member == "Tags" && value.is_object()) {
            for (const auto& [k, v] : value.items())
                out += "<Tag><Key>" + xmlEscape(k) + "</Key><Value>" + xmlEscape(scalarText(v)) + "</Value></Tag>";
        } else if (member == "MessageAttributes" && value.is_object()) {
            for (const auto& [k, v] : value.items()) {
                out += "<MessageAttribute><Name>" + xmlEscape(k) + "</Name><Value>";
                xmlMembers(out, v, {});
                out += "</Value></MessageAttribute>";
            }
        } else
            xmlValue(out, member, value);
    }
}

} // namespace

void appendXmlEscaped(std::string& out, std::string_view text)
{
    // Sized once, in place: a 1 MiB body of quotes is 6 MiB escaped, and growing to it (or building it apart and
    // appending it) copies it over and over.
    size_t size = out.size() + text.size();
    for (const char c : text)
        size += c == '"' || c == '\'' ? 5 : c == '&' || c == '\r' ? 4 : c == '<' || c == '>' ? 3 : 0;
    out.reserve(size);
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        case '\r':
            out += "&#xD;"; // as AWS writes it: a bare CR would be normalised away by the XML parser
            break;
        default:
            out += c;
        }
    }
}

std::string xmlEscape(std::string_view text)
{
    std::string out;
    appendXmlEscaped(out, text);
    return out;
}

std::optional<Flat> splitForm(std::string_view text)
{
    Flat out;
    while (!text.empty()) {
        const size_t amp = text.find('&');
        const std::string_view pair = text.substr(0, amp);
        text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
        if (pair.empty())
            continue;
        const size_t eq = pair.find('=');
        auto key = urlDecode(pair.substr(0, eq));
        auto value = urlDecode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1));
        if (!key || !value)
            return std::nullopt;
        out.emplace_back(std::move(*key), std::move(*value));
    }
    return out;
}

namespace {

// botocore's query serializer sends an empty list or map as its member name with no value (`Entries=`,
// `MessageAttributeNames=`); AWS reads it as empty, so an empty batch is EmptyBatchRequest, not a type error.
std::optional<json> emptyMember(const std::string& key, const std::string& value)
{
    if (!value.empty())
        return std::nullopt;
    for (const ListRule& rule : kListRules)
        if (key == rule.member)
            return rule.kind == ListRule::Strings || rule.kind == ListRule::Entries ? json::array() : json::object();
    return std::nullopt;
}

} // namespace

json foldQueryParameters(const Flat& flat)
{
    json params = json::object();
    for (const auto& [key, value] : flat) {
        if (key.find('.') != std::string::npos || isListPrefix(key))
            continue;
        auto empty = emptyMember(key, value);
        params[key] = empty ? std::move(*empty) : json(value);
    }
    for (const ListRule& rule : kListRules) {
        const auto groups = groupByIndex(flat, rule.prefix);
        if (groups.empty())
            continue;
        json& member = params[rule.member];
        switch (rule.kind) {
        case ListRule::Strings:
            member = json::array();
            for (const auto& [n, fields] : groups)
                if (has(fields, ""))
                    member.push_back(find(fields, ""));
            break;
        case ListRule::NameValueMap:
            member = json::object();
            for (const auto& [n, fields] : groups)
                if (has(fields, "Name"))
                    member[find(fields, "Name")] = find(fields, "Value");
            break;
        case ListRule::KeyValueMap:
            member = json::object();
            for (const auto& [n, fields] : groups)
                if (has(fields, "Key"))
                    member[find(fields, "Key")] = find(fields, "Value");
            break;
        case ListRule::AttributeValueMap:
            member = json::object();
            for (const auto& [n, fields] : groups)
                if (has(fields, "Name"))
                    member[find(fields, "Name")] = attributeValue(fields, "Value.");
            break;
        case ListRule::Entries:
            if (!member.is_array())
                member = json::array();
            for (const auto& [n, fields] : groups)
                member.push_back(foldQueryParameters(fields));
            break;
        }
    }
    return params;
}

namespace {

DecodedRequest decodeParameters(const HttpRequest& request)
{
    DecodedRequest out;
    const std::string_view target = request.header("x-amz-target");
    if (!target.empty()) {
        out.protocol = Protocol::Json;
        constexpr std::string_view kPrefix = "AmazonSQS.";
        if (target.substr(0, kPrefix.size()) != kPrefix) {
            out.error = makeError("UnknownOperationException", "The target " + std::string(target) + " is not valid.");
            return out;
        }
        out.action = std::string(target.substr(kPrefix.size()));
        if (request.method != "POST") {
            out.error = makeError("SerializationException", "JSON requests must be POST.");
            return out;
        }
        if (request.body.empty())
            return out;
        // SQS's requests nest a few levels (Entries[].MessageAttributes{}.{}.StringListValues[]); deeper text is
        // refused before it is parsed, so nothing recursive ever walks a client's nesting.
        if (jsonNestsDeeperThan(request.body, kMaxJsonNesting)) {
            out.error = makeError("SerializationException",
                "The request body nests deeper than " + std::to_string(kMaxJsonNesting) + " levels.");
            return out;
        }
        try {
            out.params = json::parse(request.body);
        } catch (const json::exception&) {
            out.error = makeError("SerializationException", "The request body is not valid JSON.");
            return out;
        }
        if (!out.params.is_object())
            out.error = makeError("SerializationException", "The request body must be a JSON object.");
        return out;
    }
    out.protocol = Protocol::Query;
    Flat flat;
    // Parameters come in the query string (GET) and in a form body (POST); a body of another type is not a form.
    std::vector<std::string_view> parts { request.query() };
    const std::string_view contentType = request.header("content-type");
    if (contentType.empty() || contentType.find("x-www-form-urlencoded") != std::string_view::npos)
        parts.emplace_back(request.body);
    for (const std::string_view part : parts) {
        auto pairs = splitForm(part);
        if (!pairs) {
            out.error = makeError("MalformedQueryString", "The request has a malformed percent-encoding.");
            return out;
        }
        flat.insert(flat.end(), pairs->begin(), pairs->end());
    }
    for (const auto& [key, value] : flat) {
        if (std::count(key.begin(), key.end(), '.') >= kMaxQueryKeySegments) {
            out.error = makeError("MalformedQueryString",
                "The parameter " + key.substr(0, 64) + "... has more than " + std::to_string(kMaxQueryKeySegments)
                    + " parts.");
            return out;
        }
    }
    out.action = find(flat, "Action");
    if (out.action.empty()) {
        out.error = makeError("MissingAction", "The request must contain the parameter Action.");
        return out;
    }
    out.params = foldQueryParameters(flat);
    out.params.erase("Action");
    out.params.erase("Version");
    return out;
}

// X-Ray's trace header arrives as the HTTP header X-Amzn-Trace-Id when the sender uses no AWSTraceHeader system
// attribute; SQS keeps it as that attribute (AWS-snap test_aws_trace_header_propagation).
void traceFromHeader(json& params, const std::string& action, std::string_view header)
{
    const auto addTo = [&](json& message) {
        if (!message.is_object())
            return;
        json& system = message["MessageSystemAttributes"];
        if (!system.is_object())
            system = json::object();
        if (!system.contains("AWSTraceHeader"))
            system["AWSTraceHeader"] = { { "DataType", "String" }, { "StringValue", std::string(header) } };
    };
    const auto known = sqsActionNamed(action);
    if (known == SqsAction::SendMessage)
        addTo(params);
    else if (known == SqsAction::SendMessageBatch && params.contains("Entries") && params["Entries"].is_array())
        for (json& entry : params["Entries"])
            addTo(entry);
}

} // namespace

DecodedRequest decodeRequest(const HttpRequest& request)
{
    DecodedRequest out = decodeParameters(request);
    if (out.error || !out.params.is_object())
        return out;
    if (const std::string_view trace = request.header("x-amzn-trace-id"); !trace.empty())
        traceFromHeader(out.params, out.action, trace);
    // Given both lists, the query protocol follows AttributeName.N and JSON takes MessageSystemAttributeNames with
    // it (AWS-snap test_message_system_attribute_names_with_attribute_names: query answered SenderId only).
    if (out.protocol == Protocol::Query && out.action == nameOf(SqsAction::ReceiveMessage)
        && out.params.contains("AttributeNames"))
        out.params.erase("MessageSystemAttributeNames");
    return out;
}

std::string jsonErrorType(const std::string& code)
{
    static const std::map<std::string, std::string> kSpecial {
        { "AWS.SimpleQueueService.NonExistentQueue", "QueueDoesNotExist" },
        { "QueueAlreadyExists", "QueueNameExists" },
        { "InvalidParameterValue", "InvalidParameterValueException" },
        { "MissingParameter", "MissingRequiredParameterException" },
    };
    if (const auto it = kSpecial.find(code); it != kSpecial.end())
        return it->second;
    constexpr std::string_view kPrefix = "AWS.SimpleQueueService.";
    if (code.compare(0, kPrefix.size(), kPrefix) == 0)
        return code.substr(kPrefix.size());
    return code;
}

HttpResponse encodeResult(
    Protocol protocol, const std::string& action, const json& output, const std::string& requestId)
{
    HttpResponse response;
    if (protocol == Protocol::Json) {
        response.headers = { { "Content-Type", "application/x-amz-json-1.0" }, { "x-amzn-RequestId", requestId } };
        response.body = output.is_null() ? "{}" : output.dump(-1, ' ', false, json::error_handler_t::replace);
        return response;
    }
    response.headers = { { "Content-Type", "text/xml" }, { "x-amzn-RequestId", requestId } };
    std::string& xml = response.body;
    xml = "<?xml version=\"1.0\"?><" + action + "Response xmlns=\"" + kXmlns + "\">";
    if (output.is_object() && !output.empty()) {
        xml += "<" + action + "Result>";
        xmlMembers(xml, output, action);
        xml += "</" + action + "Result>";
    } else if (const auto known = sqsActionNamed(action); known && infoOf(*known).listResult) {
        xml += "<" + action + "Result/>"; // an empty result still has its element
    }
    xml += "<ResponseMetadata><RequestId>" + requestId + "</RequestId></ResponseMetadata></" + action + "Response>";
    return response;
}

namespace {

// The parts of a list answer (streamedList): its opening, each item, its close. An item's Body is the one value
// that can be large (1 MiB, 6 MiB once escaped in XML): it is written a slice at a time, so a part is never more
// than a few hundred KiB and a client reading a hundred such messages holds none of them whole.
class StreamedList {
public:
    StreamedList(Protocol protocol, std::string element, std::string open, std::string close,
        std::function<std::optional<json>()> next)
        : m_protocol(protocol)
        , m_element(std::move(element))
        , m_open(std::move(open))
        , m_close(std::move(close))
        , m_next(std::move(next))
    {
    }

    std::string nextPart()
    {
        std::string part;
        if (m_step == Step::Closed)
            return part;
        if (m_step == Step::Open) {
            part = m_open;
            m_step = Step::Items;
        }
        if (m_bodyAt < m_body.size()) {
            appendBodySlice(part);
            return part;
        }
        auto item = m_next();
        if (!item) {
            part += m_close;
            m_step = Step::Closed;
            return part;
        }
        if (m_protocol == Protocol::Json && std::exchange(m_wroteItem, true))
            part += ',';
        startItem(part, std::move(*item));
        return part;
    }

private:
    static constexpr size_t kBodySliceBytes = size_t(64) << 10;

    // The item up to its Body's text; the rest of it waits in m_afterBody.
    void startItem(std::string& part, json item)
    {
        m_body.clear();
        m_bodyAt = 0;
        if (auto body = item.find("Body"); body != item.end() && body->is_string()) {
            m_body = std::move(body->get_ref<std::string&>());
            *body = "";
        }
        std::string text;
        if (m_protocol == Protocol::Json)
            text = item.dump(-1, ' ', false, json::error_handler_t::replace);
        else
            xmlValue(text, m_element, item);
        // The empty Body's text, found where no other value can put it: escaped values hold no '<' and no bare '"'.
        const std::string_view marker = m_protocol == Protocol::Json ? R"("Body":")" : "<Body>";
        const size_t at = m_body.empty() ? std::string::npos : text.find(marker);
        if (at == std::string::npos) {
            part += text;
            m_body.clear();
            return;
        }
        part.append(text, 0, at + marker.size());
        m_afterBody = text.substr(at + marker.size());
        appendBodySlice(part);
    }

    void appendBodySlice(std::string& part)
    {
        size_t end = std::min(m_body.size(), m_bodyAt + kBodySliceBytes);
        if (m_protocol == Protocol::Json) // never between the bytes of one UTF-8 character
            while (end < m_body.size() && end > m_bodyAt && (static_cast<unsigned char>(m_body[end]) & 0xC0) == 0x80)
                --end;
        const std::string_view slice = std::string_view(m_body).substr(m_bodyAt, end - m_bodyAt);
        if (m_protocol == Protocol::Json) {
            const std::string quoted = json(slice).dump(-1, ' ', false, json::error_handler_t::replace);
            part.append(quoted, 1, quoted.size() - 2);
        } else {
            appendXmlEscaped(part, slice);
        }
        m_bodyAt = end;
        if (m_bodyAt == m_body.size()) {
            part += m_afterBody;
            m_body.clear();
            m_bodyAt = 0;
        }
    }

    enum class Step { Open, Items, Closed };
    Protocol m_protocol;
    std::string m_element;
    std::string m_open;
    std::string m_close;
    std::function<std::optional<json>()> m_next;
    Step m_step = Step::Open;
    bool m_wroteItem = false;
    std::string m_body; // the item's Body, being written
    size_t m_bodyAt = 0;
    std::string m_afterBody;
};

} // namespace

std::function<std::optional<std::string>()> streamedList(Protocol protocol, std::string element, std::string open,
    std::string close, std::function<std::optional<json>()> next)
{
    auto list = std::make_shared<StreamedList>(
        protocol, std::move(element), std::move(open), std::move(close), std::move(next));
    return [list]() -> std::optional<std::string> { return list->nextPart(); };
}

HttpResponse encodeStreamedList(Protocol protocol, const std::string& action, const std::string& member,
    std::function<std::optional<json>()> next, const std::string& requestId)
{
    HttpResponse response = encodeResult(protocol, action, json::object(), requestId); // its headers
    response.body.clear();
    if (protocol == Protocol::Json)
        response.bodyParts = streamedList(protocol, {}, "{" + json(member).dump() + ":[", "]}", std::move(next));
    else
        response.bodyParts = streamedList(protocol, listElement(member, action),
            "<?xml version=\"1.0\"?><" + action + "Response xmlns=\"" + kXmlns + "\"><" + action + "Result>",
            "</" + action + "Result><ResponseMetadata><RequestId>" + requestId + "</RequestId></ResponseMetadata></"
                + action + "Response>",
            std::move(next));
    return response;
}

HttpResponse encodeError(Protocol protocol, const SqsError& error, const std::string& requestId)
{
    HttpResponse response;
    response.status = error.httpStatus;
    const char* type = error.senderFault ? "Sender" : "Receiver";
    if (protocol == Protocol::Json) {
        response.headers = { { "Content-Type", "application/x-amz-json-1.0" }, { "x-amzn-RequestId", requestId },
            { "x-amzn-query-error", error.code + ";" + type } };
        response.body = json {
            { "__type", "com.amazonaws.sqs#" + jsonErrorType(error.code) }, { "message", error.message }
        }.dump(-1, ' ', false, json::error_handler_t::replace);
        return response;
    }
    // The query protocol words one message differently (AWS-snap test_non_existent_queue).
    std::string message = error.message;
    if (error.code == "AWS.SimpleQueueService.NonExistentQueue" && message == "The specified queue does not exist.")
        message = "The specified queue does not exist for this wsdl version.";
    response.headers = { { "Content-Type", "text/xml" }, { "x-amzn-RequestId", requestId } };
    response.body = std::string("<?xml version=\"1.0\"?><ErrorResponse xmlns=\"") + kXmlns + "\"><Error><Type>" + type
        + "</Type><Code>" + xmlEscape(error.code) + "</Code><Message>" + xmlEscape(message)
        + "</Message><Detail/></Error><RequestId>" + requestId + "</RequestId></ErrorResponse>";
    return response;
}

HttpResponse encodeHttpRefusal(const HttpParser& parser, const std::string& requestId)
{
    const int status = parser.errorStatus();
    const char* code = status == 413 ? "RequestEntityTooLarge"
        : status == 431              ? "RequestHeaderFieldsTooLarge"
        : status == 411              ? "MissingContentLength"
        : status == 505              ? "HttpVersionNotSupported"
                                     : "MalformedHttpRequest";
    std::string message = parser.errorText();
    if (!message.empty())
        message[0] = char(std::toupper(static_cast<unsigned char>(message[0])));
    const bool json = parser.request().header("x-amz-target").starts_with("AmazonSQS.");
    HttpResponse response
        = encodeError(json ? Protocol::Json : Protocol::Query, makeError(code, message + ".", status), requestId);
    response.close = true; // what follows on the connection cannot be trusted to start a request
    return response;
}

} // namespace lifeline::endpoint
