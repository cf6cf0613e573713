// A live import (`lifeline import --listen`): OTLP/HTTP requests as exporters post them, played a lag behind the spans'
// clock; the same run as the file's import when every span comes within the lag; the receiver's answers as OTLP/HTTP
// specifies them; memory bounded by the history under a flood (docs/import.md, "Live").
#include "lifeline/export/run_export.h"
#include "lifeline/import/live_import.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <zlib.h>

using namespace lifeline;
using namespace lifeline::import;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(LIFELINE_IMPORT_DIR) + "/" + name, std::ios::binary);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

QueueSettings ordersSettings()
{
    QueueSettings settings;
    REQUIRE(addQueueAttributes(settings, json::parse(fixture("orders-attributes.json")), ""));
    return settings;
}

int64_t endMs(const json& span)
{
    return std::stoll(span["endTimeUnixNano"].get<std::string>()) / 1000000;
}

// Each span of an OTLP JSON Lines file as a request of its own (its resource and scope kept), in the order an
// exporter sends them: by when they end.
std::vector<std::pair<int64_t, std::string>> requestPerSpan(const std::string& file)
{
    std::vector<std::pair<int64_t, std::string>> out;
    std::istringstream lines(fixture(file));
    for (std::string line; std::getline(lines, line);) {
        const json document = json::parse(line);
        for (const json& resource : document["resourceSpans"])
            for (const json& scope : resource["scopeSpans"])
                for (const json& span : scope["spans"]) {
                    json request { { "resourceSpans",
                        json::array({ { { "resource", resource["resource"] },
                            { "scopeSpans",
                                json::array(
                                    { { { "scope", scope["scope"] }, { "spans", json::array({ span }) } } }) } } }) } };
                    out.emplace_back(endMs(span), request.dump());
                }
    }
    std::ranges::stable_sort(out, {}, &std::pair<int64_t, std::string>::first);
    return out;
}

std::string csvOf(const RunView& run)
{
    std::ostringstream out;
    writeEventsCsv(run, out);
    return out.str();
}

endpoint::HttpRequest post(std::string body, std::string type = "application/json")
{
    endpoint::HttpRequest request;
    request.method = "POST";
    request.target = "/v1/traces";
    request.headers = { { "content-type", std::move(type) } };
    request.body = std::move(body);
    return request;
}

std::string gzip(const std::string& text)
{
    z_stream stream {};
    REQUIRE(deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::string out(compressBound(uLong(text.size())) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = uInt(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

// A boto3sqs-shaped request: `count` messages sent at `atMs`, each processed (received, then deleted) 50 ms later.
std::string floodRequest(int64_t atMs, int first, int count)
{
    const auto attributes = [](const std::string& op, const std::string& id) {
        return json::array({ { { "key", "messaging.system" }, { "value", { { "stringValue", "aws.sqs" } } } },
            { { "key", "messaging.destination" }, { "value", { { "stringValue", "flood" } } } },
            { { "key", "messaging.operation" }, { "value", { { "stringValue", op } } } },
            { { "key", "messaging.message_id" }, { "value", { { "stringValue", id } } } } });
    };
    const auto ns = [](int64_t ms) { return std::to_string(ms * 1000000); };
    json spans = json::array();
    for (int i = first; i < first + count; ++i) {
        const std::string id = "message-" + std::to_string(i);
        char spanId[17];
        std::snprintf(spanId, sizeof spanId, "%016x", unsigned(i) * 2);
        spans.push_back({ { "traceId", "0af7651916cd43dd8448eb211c80319c" }, { "spanId", spanId },
            { "name", "flood send" }, { "kind", 4 }, { "startTimeUnixNano", ns(atMs) },
            { "endTimeUnixNano", ns(atMs + 5) }, { "attributes", attributes("send", id) } });
        std::snprintf(spanId, sizeof spanId, "%016x", unsigned(i) * 2 + 1);
        spans.push_back({ { "traceId", "0af7651916cd43dd8448eb211c80319c" }, { "spanId", spanId },
            { "name", "flood process" }, { "kind", 5 }, { "startTimeUnixNano", ns(atMs + 50) },
            { "endTimeUnixNano", ns(atMs + 80) }, { "attributes", attributes("process", id) } });
    }
    return json {
        { "resourceSpans",
            json::array({ { { "resource",
                                { { "attributes",
                                    json::array({ { { "key", "service.name" },
                                        { "value", { { "stringValue", "billing" } } } } }) } } },
                { "scopeSpans",
                    json::array({ { { "scope", { { "name", "opentelemetry.instrumentation.boto3sqs" } } },
                        { "spans", spans } } }) } } }) }
    }.dump();
}

} // namespace

TEST_CASE("live import: spans posted a request each as they end, within the lag, draw the file's run event for event")
{
    // The JavaScript instrumentation's spans of tests/import/otel_consumer.cjs, each posted 5 s after it ended (the
    // exporters' batch delay): played 8 s behind, every call is in before its time is played.
    const auto requests = requestPerSpan("js-aws-sdk.jsonl");
    REQUIRE(requests.size() == 27);
    std::vector<Span> all;
    REQUIRE(readOtlpJson(fixture("js-aws-sdk.jsonl"), "js-aws-sdk.jsonl", all));
    const ImportedRun fromFile = importSpans(all, ordersSettings());

    LiveImport live(ordersSettings(), LiveImportOptions { .lagMs = 8000, .historyMs = -1 });
    int64_t wall = 0;
    for (const auto& [ended, body] : requests) {
        wall = ended + 5000;
        const auto added = live.addRequest(body, wall);
        INFO((added ? std::string() : added.message()));
        REQUIRE(added);
        CHECK(added.value() == 1);
        // Played up to the lag behind the spans' clock as this machine reads it (each span came 5 s after it ended,
        // so their clock reads 5 s behind this one, at least): nothing later. The run starts at its first SQS call.
        if (live.import().epochMs() > 0)
            CHECK(live.run().now() == std::max<int64_t>(0, wall - 5000 - 8000 - live.import().epochMs()));
    }
    CHECK(live.run().messageCount() < fromFile.run().messageCount()); // the last calls wait for their time
    live.advance(wall + 60000);
    live.finish();
    CHECK(live.requests() == 27);
    CHECK(csvOf(live.run()) == csvOf(fromFile.run()));
    const ImportReport report = live.report();
    CHECK(report.messages == 4);
    CHECK(report.inferredEvents == 5);
    CHECK(report.contradictions.empty());
    CHECK(live.import().waiting() == 0);
}

TEST_CASE(
    "live import: an exporter's requests in any order within the lag - the later half first - draw the file's run")
{
    // The fixture's two lines are its spans' later half, then the earlier: posted so, a second apart, within a lag
    // longer than the 8.3 s they cover. The run's time 0 is the earliest call come in before the first is played.
    std::vector<Span> all;
    REQUIRE(readOtlpJson(fixture("js-aws-sdk.jsonl"), "js-aws-sdk.jsonl", all));
    const ImportedRun fromFile = importSpans(all, ordersSettings());
    LiveImport live(ordersSettings(), LiveImportOptions { .lagMs = 10000, .historyMs = -1 });
    std::istringstream lines(fixture("js-aws-sdk.jsonl"));
    int64_t wall = 1796634265000; // the spans' last end and a second
    for (std::string line; std::getline(lines, line); wall += 1000)
        REQUIRE(live.addRequest(line, wall));
    CHECK(live.run().messageCount() == 0); // nothing is played before the lag has passed
    live.advance(wall + 60000);
    CHECK(live.import().epochMs() == fromFile.epochMs);
    CHECK(csvOf(live.run()) == csvOf(fromFile.run()));
}

TEST_CASE("live import: a call that comes in after its time was played is drawn late, at the run's time")
{
    LiveImport live({}, LiveImportOptions { .lagMs = 1000, .historyMs = -1 });
    const int64_t at = 1765100000000;
    REQUIRE(live.addRequest(floodRequest(at, 0, 10), at + 100));
    live.advance(at + 30000);
    const TimeMs now = live.run().now();
    CHECK(now == 30000 - 20 - 1000); // the spans' clock read 20 ms behind this one: the process spans' end came then
    // Message 10, sent and processed with the others, comes half a minute late: drawn from the run's time.
    REQUIRE(live.addRequest(floodRequest(at, 10, 1), at + 30000));
    live.finish();
    REQUIRE(live.run().messageCount() == 11);
    std::vector<std::string> late;
    for (size_t i = 0; i < live.run().log().size(); ++i)
        if (const Event e = live.run().log()[i]; e.message == 10)
            late.push_back(std::to_string(e.time) + " " + toString(e.cause));
    CHECK(late
        == std::vector<std::string> {
            "28980 send", "28980 receive", "28980 processing-started", "28980 delete", "28980 processing-finished" });
    CHECK(live.run().message(0).state == MessageState::Deleted);
}

TEST_CASE("live import: POST /v1/traces answered as OTLP/HTTP specifies - JSON and gzip taken, the rest refused saying "
          "why")
{
    LiveImport live({}, LiveImportOptions {});
    const std::string body = requestPerSpan("js-aws-sdk.jsonl").front().second;

    auto answer = otlpHttpReply(post(body), live, 1000);
    CHECK(answer.status == 200);
    CHECK(answer.body == "{}");
    auto gzipped = post(gzip(body));
    gzipped.headers.emplace_back("content-encoding", "gzip");
    CHECK(otlpHttpReply(gzipped, live, 1000).status == 200);
    CHECK(live.requests() == 2);

    answer = otlpHttpReply(post(body, "application/x-protobuf"), live, 1000);
    CHECK(answer.status == 415);
    CHECK(json::parse(answer.body)["message"]
        == "Lifeline reads OTLP/HTTP in JSON, not protobuf: set the exporter's protocol to http/json "
           "(OTEL_EXPORTER_OTLP_PROTOCOL=http/json, or the Collector's otlphttp exporter's encoding: json)");
    answer
        = otlpHttpReply(post("{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"spanId\": 7}]}]}]}"), live, 1000);
    CHECK(answer.status == 400);
    CHECK(json::parse(answer.body)["code"] == 3);
    CHECK(json::parse(answer.body)["message"].get<std::string>().starts_with("request 3: "));
    auto damaged = post(gzip(body).substr(0, 40));
    damaged.headers.emplace_back("content-encoding", "gzip");
    answer = otlpHttpReply(damaged, live, 1000);
    CHECK(answer.status == 400);
    CHECK(json::parse(answer.body)["message"].get<std::string>().starts_with("the gzip body is damaged"));
    auto brotli = post(body);
    brotli.headers.emplace_back("content-encoding", "br");
    CHECK(otlpHttpReply(brotli, live, 1000).status == 415);
    auto metrics = post(body);
    metrics.target = "/v1/metrics";
    CHECK(otlpHttpReply(metrics, live, 1000).status == 404);
    auto get = post("");
    get.method = "GET";
    CHECK(otlpHttpReply(get, live, 1000).status == 405);
    CHECK(live.requests() == 2); // nothing refused was added
    CHECK(otlpHttpReply(post("{}"), live, 1000).status == 200); // an exporter's empty batch
}

TEST_CASE("live import: a gzip bomb is refused at the body limit, not inflated")
{
    LiveImport live({}, LiveImportOptions { .maxBodyBytes = 1024 * 1024 });
    auto bomb = post(gzip(std::string(size_t(50) * 1024 * 1024, ' ')));
    bomb.headers.emplace_back("content-encoding", "gzip");
    const auto answer = otlpHttpReply(bomb, live, 1000);
    CHECK(answer.status == 400);
    CHECK(json::parse(answer.body)["message"] == "the body is over 1 MiB once inflated");
}

TEST_CASE("live import: a flood's memory stays within the history kept")
{
    // 200 requests a second apart (500 messages each; 100 under the sanitizers, which run it ten times slower); 30 s
    // of history: what is held stops growing.
#ifdef LIFELINE_RANDOM_OPS
    constexpr int kPerRequest = 100;
#else
    constexpr int kPerRequest = 500;
#endif
    LiveImport live({}, LiveImportOptions { .lagMs = 2000, .historyMs = 30000 });
    const int64_t start = 1765100000000;
    size_t heldAt100 = 0, spansAt100 = 0;
    for (int r = 0; r < 200; ++r) {
        const int64_t at = start + r * 1000;
        REQUIRE(live.addRequest(floodRequest(at, r * kPerRequest, kPerRequest), at + 100));
        if (r == 100) {
            heldAt100 = live.run().heldMessageCount();
            spansAt100 = live.import().spansHeld();
        }
    }
    CHECK(live.run().messageCount() > size_t(180 * kPerRequest));
    CHECK(live.report().contradictions.empty());
    // 30 s of history and a minute of spans kept for late calls: about 35 and 90 requests' worth.
    CHECK(live.run().heldMessageCount() <= heldAt100 + 4096);
    CHECK(live.run().heldMessageCount() < size_t(60 * kPerRequest));
    CHECK(live.import().spansHeld() <= spansAt100);
    CHECK(live.import().spansHeld() < size_t(140 * kPerRequest));
    // The latest two requests' calls: a send, a receive, the work and the delete of each message.
    CHECK(live.import().waiting() == size_t(2 * kPerRequest * 4));
}
