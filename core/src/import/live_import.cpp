#include "lifeline/import/live_import.h"

#include <zlib.h>

namespace lifeline::import {

namespace {

// A gzip body (the Collector's otlphttp exporter compresses by default), inflated with zlib up to `maxBytes`: a body
// that would grow past it is refused rather than held.
Outcome<std::string> gunzip(std::string_view body, size_t maxBytes)
{
    z_stream stream {};
    if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
        return Failure { "gzip: zlib could not start" };
    std::string out;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): zlib's input pointer is not const, but it is only read
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    stream.avail_in = uInt(body.size());
    int status = Z_OK;
    while (status == Z_OK) {
        if (out.size() >= maxBytes) {
            inflateEnd(&stream);
            return Failure { "the body is over " + std::to_string(maxBytes / (size_t(1024) * 1024))
                + " MiB once inflated" };
        }
        const size_t had = out.size();
        out.resize(std::min(maxBytes, std::max<size_t>(had * 2, size_t(64) * 1024)));
        stream.next_out = reinterpret_cast<Bytef*>(out.data() + had);
        stream.avail_out = uInt(out.size() - had);
        status = inflate(&stream, Z_NO_FLUSH);
        out.resize(out.size() - stream.avail_out);
    }
    inflateEnd(&stream);
    if (status != Z_STREAM_END)
        return Failure { std::string("the gzip body is damaged (") + (stream.msg ? stream.msg : "cut short") + ")" };
    return out;
}

// A google.rpc.Status in JSON, as OTLP/HTTP answers a refused request.
endpoint::HttpResponse status(int http, int code, const std::string& message)
{
    endpoint::HttpResponse response;
    response.status = http;
    response.headers.emplace_back("Content-Type", "application/json");
    response.body = nlohmann::json { { "code", code }, { "message", message } }.dump();
    return response;
}

} // namespace

LiveImport::LiveImport(QueueSettings settings, LiveImportOptions options)
    : m_import(std::move(settings), observe::ObserverOptions { .inferring = true, .historyMs = options.historyMs })
    , m_options(options)
{
}

Outcome<size_t> LiveImport::addRequest(std::string_view body, int64_t wallMs)
{
    std::vector<Span> spans;
    const std::string name = "request " + std::to_string(m_requests + 1);
    if (body.find_first_not_of(" \t\r\n") != std::string_view::npos)
        if (auto read = readOtlpJson(body, name, spans); !read)
            return Failure { read.message() };
    ++m_requests;
    const size_t count = spans.size();
    m_import.add(std::move(spans));
    if (m_import.latestEndMs() > 0)
        m_clockOffsetMs = std::max(m_clockOffsetMs, m_import.latestEndMs() - wallMs);
    advance(wallMs);
    return count;
}

void LiveImport::advance(int64_t wallMs)
{
    if (m_clockOffsetMs == INT64_MIN)
        return; // no SQS span yet: no clock to play by
    const int64_t ripe = wallMs + m_clockOffsetMs - m_options.lagMs;
    if (ripe <= m_playedMs)
        return;
    m_playedMs = ripe;
    m_import.playUntil(ripe);
}

endpoint::HttpResponse otlpHttpReply(const endpoint::HttpRequest& request, LiveImport& live, int64_t wallMs)
{
    if (request.path() != "/v1/traces")
        return status(404, 5,
            "this is Lifeline's OTLP/HTTP receiver: spans go to POST /v1/traces (metrics and logs are not read)");
    if (request.method != "POST")
        return status(405, 12, "POST the spans to /v1/traces");
    const std::string type = endpoint::asciiLower(request.header("content-type"));
    if (!type.starts_with("application/json"))
        return status(415, 3,
            type.starts_with("application/x-protobuf")
                ? "Lifeline reads OTLP/HTTP in JSON, not protobuf: set the exporter's protocol to http/json "
                  "(OTEL_EXPORTER_OTLP_PROTOCOL=http/json, or the Collector's otlphttp exporter's encoding: json)"
                : "Content-Type must be application/json (OTLP/HTTP in JSON), got '" + type + "'");
    std::string inflated;
    std::string_view body = request.body;
    const std::string encoding = endpoint::asciiLower(endpoint::trimWhitespace(request.header("content-encoding")));
    if (encoding == "gzip") {
        auto unzipped = gunzip(request.body, live.options().maxBodyBytes);
        if (!unzipped)
            return status(400, 3, unzipped.message());
        inflated = std::move(unzipped.value());
        body = inflated;
    } else if (!encoding.empty() && encoding != "identity") {
        return status(415, 3, "Content-Encoding must be gzip or none, got '" + encoding + "'");
    }
    if (auto added = live.addRequest(body, wallMs); !added)
        return status(400, 3, added.message());
    endpoint::HttpResponse response;
    response.headers.emplace_back("Content-Type", "application/json");
    response.body = "{}"; // an ExportTraceServiceResponse with every span accepted
    return response;
}

} // namespace lifeline::import
