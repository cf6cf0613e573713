// `lifeline import` at scale: 1,000,000 spans in the JavaScript instrumentation's shape (a send, a receive linking its
// message, a process span, and a DeleteMessage under it, for each of 250,000 messages over 16 queues), written as the
// Collector's file exporter writes them (1,000 spans a line, the lines in reverse), read and imported. Issue 74's
// floor: a million spans in under 10 s.
#include "bench_util.h"
#include "lifeline/import/trace_import.h"

#include <nlohmann/json.hpp>

namespace lifeline::bench {

namespace {

using json = nlohmann::json;

json attribute(const char* key, const std::string& value)
{
    return { { "key", key }, { "value", { { "stringValue", value } } } };
}

std::string hex16(uint64_t v)
{
    char out[17];
    std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(v));
    return out;
}

std::string spansFile(int messages)
{
    const int64_t t0 = 1765100000000000000;
    std::vector<std::string> lines;
    json spans = json::array();
    const auto flush = [&] {
        json request = { { "resourceSpans",
            json::array(
                { { { "resource", { { "attributes", json::array({ attribute("service.name", "orders-app") }) } } },
                    { "scopeSpans",
                        json::array({ { { "scope", { { "name", "@opentelemetry/instrumentation-aws-sdk" } } },
                            { "spans", spans } } }) } } }) } };
        lines.push_back(request.dump());
        spans = json::array();
    };
    uint64_t id = 1;
    for (int m = 0; m < messages; ++m) {
        const std::string queue = "orders-" + std::to_string(m % 16);
        const std::string messageId = "00000000-0000-4000-8000-" + hex16(uint64_t(m)).substr(4);
        const std::string trace = hex16(uint64_t(m)) + hex16(0x5eed);
        const int64_t at = t0 + int64_t(m) * 2000000; // a send every 2 ms
        const auto span = [&](const char* name, int kind, int64_t from, int64_t to, json attributes,
                              const std::string& parent = {}) {
            json s = { { "traceId", trace }, { "spanId", hex16(id++) }, { "name", queue + " " + name },
                { "kind", kind }, { "startTimeUnixNano", std::to_string(from) },
                { "endTimeUnixNano", std::to_string(to) }, { "attributes", std::move(attributes) } };
            if (!parent.empty())
                s["parentSpanId"] = parent;
            return s;
        };
        const json common
            = json::array({ attribute("messaging.system", "aws_sqs"), attribute("messaging.destination.name", queue) });
        json send = common, receive = common, process = common, remove = common;
        send.push_back(attribute("rpc.method", "SendMessage"));
        send.push_back(attribute("messaging.message.id", messageId));
        receive.push_back(attribute("rpc.method", "ReceiveMessage"));
        process.push_back(attribute("messaging.operation.type", "process"));
        process.push_back(attribute("messaging.message.id", messageId));
        remove.push_back(attribute("rpc.method", "DeleteMessage"));
        spans.push_back(span("send", 4, at, at + 3000000, send));
        json received = span("receive", 5, at + 5000000, at + 9000000, receive);
        received["links"] = json::array({ { { "traceId", trace }, { "spanId", hex16(id - 1) },
            { "attributes", json::array({ attribute("messaging.message.id", messageId) }) } } });
        spans.push_back(std::move(received));
        const std::string processId = hex16(id);
        spans.push_back(span("process", 5, at + 9100000, at + 60000000, process));
        spans.push_back(span("delete", 3, at + 50000000, at + 55000000, remove, processId));
        if (spans.size() >= 1000)
            flush();
    }
    if (!spans.empty())
        flush();
    std::string text;
    for (auto line = lines.rbegin(); line != lines.rend(); ++line)
        text += *line + "\n";
    return text;
}

} // namespace

void runImportBenchmark()
{
    const std::string text = spansFile(250000);
    const size_t heapBefore = heapInUse();
    const auto start = std::chrono::steady_clock::now();
    std::vector<import::Span> spans;
    if (const auto read = import::readOtlpJson(text, "bench.jsonl", spans); !read) {
        std::fprintf(stderr, "import bench: %s\n", read.message().c_str());
        return;
    }
    const double readSeconds = secondsSince(start);
    const auto imported = import::importSpans(std::move(spans), {});
    report("import.spans_1m_read_s", readSeconds, "s");
    report("import.spans_1m_total_s", secondsSince(start), "s");
    report("import.spans_1m_messages", double(imported.run().messageCount()), "lanes");
    report("import.spans_1m_heap_mb", double(heapInUse() - heapBefore) / 1e6, "MB");
    report("import.file_mb", double(text.size()) / 1e6, "MB");
}

} // namespace lifeline::bench
