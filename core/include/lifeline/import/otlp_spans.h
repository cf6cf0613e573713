// Spans as OpenTelemetry writes them to a file or sends them over HTTP in JSON (the OTLP JSON encoding): one
// ExportTraceServiceRequest a line (the Collector's file exporter, JSON Lines) or one request body (OTLP/HTTP with
// `Content-Type: application/json`). Only what a message's lane can use is kept: the span's ids, its parent, its
// name and kind, its times, its attributes as text, its links and whether it failed, and which instrumentation wrote
// it (its scope). docs/import.md says which instrumentations write what.
#pragma once

#include "lifeline/support/outcome.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifeline::import {

// An attribute's value as text: strings as they are, integers in decimal, booleans "true"/"false", doubles as JSON
// prints them; arrays and maps are left out (no SQS attribute an instrumentation writes is one).
using SpanAttributes = std::vector<std::pair<std::string, std::string>>;

const std::string* attributeOf(const SpanAttributes& attributes, std::string_view key);

enum class SpanKind : uint8_t { Unspecified, Internal, Server, Client, Producer, Consumer };

struct SpanLink {
    std::string traceId, spanId;
    SpanAttributes attributes;
};

struct Span {
    std::string traceId, spanId, parentSpanId; // lower-case hex, as OTLP JSON writes them
    std::string name;
    SpanKind kind = SpanKind::Unspecified;
    int64_t startNs = 0, endNs = 0; // since 1970
    SpanAttributes attributes;
    std::vector<SpanLink> links;
    bool failed = false; // status code ERROR
    std::string statusMessage;
    std::string scope; // the instrumentation scope's name: "@opentelemetry/instrumentation-aws-sdk"
    std::string service; // the resource's service.name
    std::string origin; // where it was read: "spans.jsonl:12"
};

// Reads every span of `text` (JSON Lines, or one JSON document) into `spans`; `fileName` names the file in errors and
// in each span's origin. A malformed line fails the whole file with its line number and what is wrong; a span that
// lacks its times or ids is an error naming its field ("spans.jsonl:3: resourceSpans[0].scopeSpans[0].spans[2]
// .startTimeUnixNano: a time in nanoseconds").
Outcome<> readOtlpJson(std::string_view text, const std::string& fileName, std::vector<Span>& spans);

} // namespace lifeline::import
