#include "lifeline/import/otlp_spans.h"

#include "lifeline/support/json_depth.h"

#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

namespace lifeline::import {

using nlohmann::json;

const std::string* attributeOf(const SpanAttributes& attributes, std::string_view key)
{
    for (const auto& [name, value] : attributes)
        if (name == key)
            return &value;
    return nullptr;
}

namespace {

// An OTLP document nests about ten deep (request, resource spans, scope spans, span, attribute, value, array value);
// far deeper text is refused before it is parsed.
constexpr int kMaxDepth = 32;

struct Reader {
    const std::string& where; // "spans.jsonl:12"
    std::vector<Span>& spans;

    Failure wrong(const std::string& path, const std::string& what) const
    {
        return Failure { where + ": " + path + ": " + what };
    }

    // OTLP's 64-bit integers are strings in JSON ("1700000000000000000"); a number is accepted too.
    static bool readInt(const json& value, int64_t& out)
    {
        if (value.is_number_integer()) {
            out = value.get<int64_t>();
            return true;
        }
        if (!value.is_string())
            return false;
        const auto& text = value.get_ref<const std::string&>();
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
        return ec == std::errc() && ptr == text.data() + text.size();
    }

    static std::string stringOr(const json& object, const char* key)
    {
        const auto it = object.find(key);
        return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
    }

    // Only what the import reads is kept: a span's other attributes (HTTP, the SDK's, the user's) are skipped unread.
    static bool wanted(const std::string& key)
    {
        static const std::set<std::string, std::less<>> kRead { "messaging.system", "messaging.operation",
            "messaging.operation.type", "messaging.destination", "messaging.destination.name", "messaging.message.id",
            "messaging.message_id", "messaging.batch.message_count", "messaging.url", "rpc.service", "rpc.method",
            "url.full", "aws.queue.url", "aws.sqs.queue.url", "aws.sqs.queue_url", "service.name" };
        return kRead.count(key) != 0;
    }

    static SpanAttributes readAttributes(const json& object)
    {
        SpanAttributes out;
        const auto list = object.find("attributes");
        if (list == object.end() || !list->is_array())
            return out;
        for (const json& attribute : *list) {
            if (!attribute.is_object() || !attribute.contains("key") || !attribute["key"].is_string()
                || !wanted(attribute["key"].get_ref<const std::string&>()))
                continue;
            const auto value = attribute.find("value");
            if (value == attribute.end() || !value->is_object())
                continue;
            std::string text;
            int64_t number = 0;
            if (const auto s = value->find("stringValue"); s != value->end() && s->is_string())
                text = s->get<std::string>();
            else if (const auto i = value->find("intValue"); i != value->end() && readInt(*i, number))
                text = std::to_string(number);
            else if (const auto b = value->find("boolValue"); b != value->end() && b->is_boolean())
                text = b->get<bool>() ? "true" : "false";
            else if (const auto d = value->find("doubleValue"); d != value->end() && d->is_number())
                text = d->dump();
            else
                continue;
            out.emplace_back(attribute["key"].get<std::string>(), std::move(text));
        }
        return out;
    }

    static SpanKind readKind(const json& span)
    {
        const auto kind = span.find("kind");
        if (kind == span.end())
            return SpanKind::Unspecified;
        if (kind->is_number_integer()) {
            const int64_t k = kind->get<int64_t>();
            return k >= 0 && k <= 5 ? SpanKind(k) : SpanKind::Unspecified;
        }
        static const char* const kNames[] = { "SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
            "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER" };
        for (int k = 0; k < 6; ++k)
            if (kind->is_string() && kind->get_ref<const std::string&>() == kNames[k])
                return SpanKind(k);
        return SpanKind::Unspecified;
    }

    Outcome<> readSpan(const json& value, const std::string& path, const std::string& scope, const std::string& service)
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
        const auto start = value.find("startTimeUnixNano");
        if (start == value.end() || !readInt(*start, span.startNs) || span.startNs < 0)
            return wrong(path + ".startTimeUnixNano", "a time in nanoseconds since 1970");
        const auto end = value.find("endTimeUnixNano");
        if (end == value.end() || !readInt(*end, span.endNs) || span.endNs < span.startNs)
            return wrong(path + ".endTimeUnixNano", "a time in nanoseconds since 1970, not before the start");
        span.attributes = readAttributes(value);
        if (const auto links = value.find("links"); links != value.end() && links->is_array())
            for (const json& link : *links)
                if (link.is_object())
                    span.links.push_back({ stringOr(link, "traceId"), stringOr(link, "spanId"), readAttributes(link) });
        if (const auto status = value.find("status"); status != value.end() && status->is_object()) {
            const auto code = status->find("code");
            span.failed = code != status->end()
                && ((code->is_number_integer() && code->get<int64_t>() == 2)
                    || (code->is_string() && code->get_ref<const std::string&>() == "STATUS_CODE_ERROR"));
            span.statusMessage = stringOr(*status, "message");
        }
        span.scope = scope;
        span.service = service;
        span.origin = where;
        spans.push_back(std::move(span));
        return {};
    }

    Outcome<> readRequest(const json& request)
    {
        if (!request.is_object())
            return wrong("(the line)", "an ExportTraceServiceRequest: {\"resourceSpans\": [...]}");
        const auto resources = request.find("resourceSpans");
        if (resources == request.end())
            return {}; // an empty export, or a line of another signal's file (logs, metrics): nothing of ours
        if (!resources->is_array())
            return wrong("resourceSpans", "a list");
        for (size_t r = 0; r < resources->size(); ++r) {
            const json& resource = (*resources)[r];
            const std::string rpath = "resourceSpans[" + std::to_string(r) + "]";
            if (!resource.is_object())
                return wrong(rpath, "an object");
            std::string service;
            if (const auto res = resource.find("resource"); res != resource.end() && res->is_object()) {
                const SpanAttributes attributes = readAttributes(*res);
                if (const auto* name = attributeOf(attributes, "service.name"))
                    service = *name;
            }
            const auto scopes = resource.find("scopeSpans");
            if (scopes == resource.end())
                continue;
            if (!scopes->is_array())
                return wrong(rpath + ".scopeSpans", "a list");
            for (size_t s = 0; s < scopes->size(); ++s) {
                const json& scopeSpans = (*scopes)[s];
                const std::string spath = rpath + ".scopeSpans[" + std::to_string(s) + "]";
                if (!scopeSpans.is_object())
                    return wrong(spath, "an object");
                std::string scope;
                if (const auto sc = scopeSpans.find("scope"); sc != scopeSpans.end() && sc->is_object())
                    scope = stringOr(*sc, "name");
                const auto list = scopeSpans.find("spans");
                if (list == scopeSpans.end())
                    continue;
                if (!list->is_array())
                    return wrong(spath + ".spans", "a list");
                for (size_t i = 0; i < list->size(); ++i)
                    if (auto read = readSpan((*list)[i], spath + ".spans[" + std::to_string(i) + "]", scope, service);
                        !read)
                        return read;
            }
        }
        return {};
    }
};

Outcome<> readDocument(std::string_view text, const std::string& where, std::vector<Span>& spans)
{
    if (jsonNestsDeeperThan(text, kMaxDepth))
        return Failure { where + ": nested deeper than an OTLP request can be" };
    const json document = json::parse(text, nullptr, false);
    if (document.is_discarded())
        return Failure { where
            + ": not JSON (an OTLP JSON request, one a line, as the Collector's file exporter "
              "writes; protobuf files are not read)" };
    Reader reader { where, spans };
    return reader.readRequest(document);
}

} // namespace

Outcome<> readOtlpJson(std::string_view text, const std::string& fileName, std::vector<Span>& spans)
{
    // One document over several lines (a request body saved pretty-printed), or one request a line.
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return Failure { fileName + ": empty (no spans)" };
    const size_t lineEnd = text.find('\n', first);
    const bool jsonLines = lineEnd != std::string_view::npos
        && !json::parse(text.substr(first, lineEnd - first), nullptr, false).is_discarded();
    if (!jsonLines)
        return readDocument(text, fileName, spans);
    size_t line = 1;
    for (size_t pos = 0; pos < text.size(); ++line) {
        size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view row = text.substr(pos, end - pos);
        pos = end + 1;
        if (row.find_first_not_of(" \t\r") == std::string_view::npos)
            continue;
        if (auto read = readDocument(row, fileName + ":" + std::to_string(line), spans); !read)
            return read;
    }
    return {};
}

} // namespace lifeline::import
