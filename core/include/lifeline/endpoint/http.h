// HTTP/1.1 for the local SQS endpoint: an incremental request parser with hard limits (header and body size), and
// a response writer. No sockets here: the server feeds bytes in and writes bytes out, so the parser is tested and
// fuzzed on its own. Bodies need Content-Length (what every AWS SDK sends); chunked bodies are refused with 411.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifeline::endpoint {

struct HttpLimits {
    size_t maxHeaderBytes = size_t(16) * 1024; // request line and headers
    size_t maxBodyBytes = size_t(8) * 1024 * 1024; // a 1 MiB batch, form-encoded, stays well under this
    // Transfer-Encoding: chunked bodies, as OpenTelemetry's Node exporter sends them (the live import's receiver);
    // SQS refuses them (411), and so do the endpoint and the proxy.
    bool acceptChunked = false;
};

struct HttpRequest {
    std::string method;
    std::string target; // path and query string, as sent
    std::vector<std::pair<std::string, std::string>> headers; // names lower-cased
    std::string body;
    bool keepAlive = true;

    std::string_view header(std::string_view lowerName) const; // empty when absent
    std::string_view path() const; // target without the query string
    std::string_view query() const; // after '?', or empty
};

struct HttpResponse {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    bool close = false; // answer with Connection: close and end the connection
    // Sent this many virtual milliseconds from now, not at once (a latency fault: docs/faults.md).
    int64_t answerAfterMs = 0;
    // A body made while the client reads it, in place of `body` (a peek at a hundred 1 MiB messages would hold them
    // all, encoded, several times over): each call gives the next part, "" at the end, nothing when it cannot go on
    // (what it reads is gone: the connection is then closed mid-answer). Sent with chunked transfer coding.
    std::function<std::optional<std::string>()> bodyParts;

    // The head and `body`; with bodyParts, the head alone (Transfer-Encoding: chunked), each part to follow as
    // chunkHead(its size), the part, "\r\n"; the last one (size 0) with nothing between.
    std::string serialize() const;
    static std::string chunkHead(size_t size);
};

const char* reasonPhrase(int status);

// Header text as HTTP defines it, whatever the C library's locale: ASCII case folding, the optional whitespace
// around a value, a comma-separated list searched for a token. The request parser and the upstream's answer parser
// (net/http_response_parser.h) read headers with these.
std::string asciiLower(std::string_view text);
std::string_view trimWhitespace(std::string_view text);
bool hasListToken(std::string_view value, std::string_view lowerToken); // "Keep-Alive, Upgrade" has "upgrade"

class HttpParser {
public:
    enum class State { NeedMore, Complete, Error };

    explicit HttpParser(HttpLimits limits = {});

    // Takes more bytes of the connection. Complete: request() holds one request and the bytes after it stay
    // buffered for the next (pipelining); call next() before feeding on. Error: errorStatus() and errorText() say why,
    // and the connection should answer and close.
    State feed(std::string_view bytes);
    State state() const { return m_state; }
    const HttpRequest& request() const { return m_request; }
    HttpRequest takeRequest() { return std::move(m_request); }
    void next(); // forget the completed request and parse what is buffered
    bool expectsContinue() const; // headers are in and the client waits for "100 Continue" (not yet sent)
    void continueSent() { m_continueSent = true; } // the server wrote it: once a request
    int errorStatus() const { return m_errorStatus; }
    const std::string& errorText() const { return m_errorText; }
    // Where the connection stands, for its timeouts: nothing buffered (idle), a head being read, a body being read.
    bool holdsNothing() const { return m_buffer.empty() && m_state == State::NeedMore; }
    bool readingBody() const { return m_bodyStart != 0 && m_state == State::NeedMore; }
    // After a 413: how much of the refused body is still to come (the server reads and drops it).
    size_t bodyBytesOutstanding() const
    {
        const size_t held = m_bodyStart ? m_buffer.size() - m_bodyStart : 0;
        return m_contentLength > held ? m_contentLength - held : 0;
    }

private:
    State parse();
    State parseChunks(); // a chunked body, from m_chunkCursor on
    std::optional<State> takeTransferCoding(std::string_view value); // chunked where taken; else the refusal
    State fail(int status, std::string text);

    HttpLimits m_limits;
    std::string m_buffer;
    size_t m_bodyStart = 0; // 0: headers not complete yet
    size_t m_contentLength = 0; // a chunked body's: the bytes it took on the connection, once complete
    bool m_chunked = false;
    bool m_inTrailers = false; // a chunked body's last chunk came: its trailer lines, up to an empty one
    size_t m_chunkCursor = 0; // where a chunked body's next chunk starts in m_buffer
    bool m_continueSent = false;
    State m_state = State::NeedMore;
    HttpRequest m_request;
    int m_errorStatus = 0;
    std::string m_errorText;
};

// application/x-www-form-urlencoded and query strings: '+' is a space, %XX a byte. nullopt on a bad escape.
std::optional<std::string> urlDecode(std::string_view text);
std::string urlEncode(std::string_view text);

} // namespace lifeline::endpoint
