#include "lifeline/import/otlp_spans.h"

#include "lifeline/support/json_depth.h"

#include <charconv>
#include <set>
#include <simdjson.h>

namespace lifeline::import {

const std::string* attributeOf(const SpanAttributes& attributes, std::string_view key)
{
    for (const auto& [name, value] : attributes)
        if (name == key)
            return &value;
    return nullptr;
}

namespace {

using simdjson::dom::element;

// An OTLP document nests about ten deep (request, resource spans, scope spans, span, attribute, value, array value);
// far deeper text is refused before it is parsed.
constexpr int kMaxDepth = 32;

std::string_view stringOr(element object, const char* key)
{
    std::string_view out;
    return object[key].get(out) == simdjson::SUCCESS ? out : std::string_view();
}

// OTLP's 64-bit integers are strings in JSON ("1700000000000000000"); a number is accepted too.
bool readInt(simdjson::simdjson_result<element> value, int64_t& out)
{
    if (value.get(out) == simdjson::SUCCESS)
        return true;
    std::string_view text;
    if (value.get(text) != simdjson::SUCCESS)
        return false;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size();
}

// Only what the import reads is kept: a span's other attributes (HTTP, the SDK's, the user's) are skipped unread.
bool wanted(std::string_view key)
{
    static const std::set<std::string, std::less<>> kRead { "messaging.system", "messaging.operation",
        "messaging.operation.type", "messaging.destination", "messaging.destination.name", "messaging.message.id",
        "messaging.message_id", "messaging.batch.message_count", "messaging.url", "rpc.service", "rpc.method",
        "url.full", "aws.queue.url", "aws.sqs.queue.url", "aws.sqs.queue_url", "service.name" };
    return kRead.count(key) != 0;
}

SpanAttributes readAttributes(element object)
{
    SpanAttributes out;
    simdjson::dom::array list;
    if (object["attributes"].get(list) != simdjson::SUCCESS)
        return out;
    for (const element attribute : list) {
        std::string_view key;
        if (attribute["key"].get(key) != simdjson::SUCCESS || !wanted(key))
            continue;
        simdjson::dom::object value;
        if (attribute["value"].get(value) != simdjson::SUCCESS)
            continue;
        std::string_view s;
        int64_t number = 0;
        bool flag = false;
        double real = 0;
        std::string text;
        if (value["stringValue"].get(s) == simdjson::SUCCESS)
            text = s;
        else if (readInt(value["intValue"], number))
            text = std::to_string(number);
        else if (value["boolValue"].get(flag) == simdjson::SUCCESS)
            text = flag ? "true" : "false";
        else if (value["doubleValue"].get(real) == simdjson::SUCCESS) {
            char buffer[32];
            text.assign(buffer, std::to_chars(buffer, buffer + sizeof buffer, real).ptr);
        } else
            continue;
        out.emplace_back(std::string(key), std::move(text));
    }
    return out;
}

SpanKind readKind(element span)
{
    int64_t k = 0;
    if (span["kind"].get(k) == simdjson::SUCCESS)
        return k >= 0 && k <= 5 ? SpanKind(k) : SpanKind::Unspecified;
    static const char* const kNames[] = { "SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
        "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER" };
    std::string_view name;
    if (span["kind"].get(name) == simdjson::SUCCESS)
        for (int i = 0; i < 6; ++i)
            if (name == kNames[i])
                return SpanKind(i);
    return SpanKind::Unspecified;
}

struct Reader {
    const std::string& where; // "spans.jsonl:12"
    std::vector<Span>& spans;

    Failure wrong(const std::string& path, const std::string& what) const
    {
        return Failure { where + ": " + path + ": " + what };
    }

    Outcome<> readSpan(element value, const std::string& path, const std::string& scope, const std::string& service)
    {
        if (!value.is_object())
            return wrong(path, "a span (an object)");
        Span span;
        span.traceId = stringOr(value, "traceId");
        span.spanId = stringOr(value, "spanId");
        if (span.traceId.empty())
            return wrong(path + ".traceId", "the span's trace id (hex)");
        if (span.spanId.empty())
            return wrong(path + ".spanId", "the span's id (hex)");
        span.parentSpanId = stringOr(value, "parentSpanId");
        span.name = stringOr(value, "name");
        span.kind = readKind(value);
        if (!readInt(value["startTimeUnixNano"], span.startNs) || span.startNs < 0)
            return wrong(path + ".startTimeUnixNano", "a time in nanoseconds since 1970");
        if (!readInt(value["endTimeUnixNano"], span.endNs) || span.endNs < span.startNs)
            return wrong(path + ".endTimeUnixNano", "a time in nanoseconds since 1970, not before the start");
        span.attributes = readAttributes(value);
        simdjson::dom::array links;
        if (value["links"].get(links) == simdjson::SUCCESS)
            for (const element link : links)
                if (link.is_object())
                    span.links.push_back({ std::string(stringOr(link, "traceId")),
                        std::string(stringOr(link, "spanId")), readAttributes(link) });
        element status;
        if (value["status"].get(status) == simdjson::SUCCESS && status.is_object()) {
            int64_t code = 0;
            std::string_view name;
            span.failed = (status["code"].get(code) == simdjson::SUCCESS && code == 2)
                || (status["code"].get(name) == simdjson::SUCCESS && name == "STATUS_CODE_ERROR");
            span.statusMessage = stringOr(status, "message");
        }
        span.scope = scope;
        span.service = service;
        span.origin = where;
        spans.push_back(std::move(span));
        return {};
    }

    Outcome<> readScopeSpans(element scopeSpans, const std::string& path, const std::string& service)
    {
        if (!scopeSpans.is_object())
            return wrong(path, "an object");
        element scope;
        const std::string scopeName = scopeSpans["scope"].get(scope) == simdjson::SUCCESS && scope.is_object()
            ? std::string(stringOr(scope, "name"))
            : std::string();
        const auto list = scopeSpans["spans"];
        if (list.error() == simdjson::NO_SUCH_FIELD)
            return {};
        simdjson::dom::array spansOf;
        if (list.get(spansOf) != simdjson::SUCCESS)
            return wrong(path + ".spans", "a list");
        size_t i = 0;
        for (const element span : spansOf)
            if (auto read = readSpan(span, path + ".spans[" + std::to_string(i++) + "]", scopeName, service); !read)
                return read;
        return {};
    }

    Outcome<> readRequest(element request)
    {
        if (!request.is_object())
            return wrong("(the line)", "an ExportTraceServiceRequest: {\"resourceSpans\": [...]}");
        const auto resources = request["resourceSpans"];
        if (resources.error() == simdjson::NO_SUCH_FIELD)
            return {}; // an empty export, or a line of another signal's file (logs, metrics): nothing of ours
        simdjson::dom::array list;
        if (resources.get(list) != simdjson::SUCCESS)
            return wrong("resourceSpans", "a list");
        size_t r = 0;
        for (const element resource : list) {
            const std::string rpath = "resourceSpans[" + std::to_string(r++) + "]";
            if (!resource.is_object())
                return wrong(rpath, "an object");
            std::string service;
            element res;
            if (resource["resource"].get(res) == simdjson::SUCCESS && res.is_object()) {
                const SpanAttributes attributes = readAttributes(res);
                if (const auto* name = attributeOf(attributes, "service.name"))
                    service = *name;
            }
            const auto scopes = resource["scopeSpans"];
            if (scopes.error() == simdjson::NO_SUCH_FIELD)
                continue;
            simdjson::dom::array scopeList;
            if (scopes.get(scopeList) != simdjson::SUCCESS)
                return wrong(rpath + ".scopeSpans", "a list");
            size_t s = 0;
            for (const element scopeSpans : scopeList)
                if (auto read = readScopeSpans(scopeSpans, rpath + ".scopeSpans[" + std::to_string(s++) + "]", service);
                    !read)
                    return read;
        }
        return {};
    }
};

Outcome<> readDocument(
    simdjson::dom::parser& parser, std::string_view text, const std::string& where, std::vector<Span>& spans)
{
    if (jsonNestsDeeperThan(text, kMaxDepth))
        return Failure { where + ": nested deeper than an OTLP request can be" };
    element document;
    if (parser.parse(text.data(), text.size()).get(document) != simdjson::SUCCESS)
        return Failure { where
            + ": not JSON (an OTLP JSON request, one a line, as the Collector's file exporter "
              "writes; protobuf files are not read)" };
    Reader reader { where, spans };
    return reader.readRequest(document);
}

} // namespace

// simdjson reads the spans (docs/decisions.md, "lifeline import reads spans with simdjson"): a million spans are half
// a gigabyte of JSON, which nlohmann-json's DOM took 16 s to read on this machine.
Outcome<> readOtlpJson(std::string_view text, const std::string& fileName, std::vector<Span>& spans)
{
    // One document over several lines (a request body saved pretty-printed), or one request a line.
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return Failure { fileName + ": empty (no spans)" };
    simdjson::dom::parser parser;
    const size_t lineEnd = text.find('\n', first);
    element probe;
    const bool jsonLines = lineEnd != std::string_view::npos
        && parser.parse(text.data() + first, lineEnd - first).get(probe) == simdjson::SUCCESS;
    if (!jsonLines)
        return readDocument(parser, text, fileName, spans);
    size_t line = 1;
    for (size_t pos = 0; pos < text.size(); ++line) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view row = text.substr(pos, end - pos);
        pos = end + 1;
        if (row.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        if (auto read = readDocument(parser, row, fileName + ":" + std::to_string(line), spans); !read)
            return read;
    }
    return {};
}

} // namespace lifeline::import
