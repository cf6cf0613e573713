// HTTP/1.1 answers as the recording proxy reads them from its upstream (Amazon SQS, LocalStack, ElasticMQ, a
// `lifeline serve`): status line, headers, and a body by Content-Length, chunked transfer coding, or up to the end of
// the connection. Incremental and socket-free like the request parser (endpoint/http.h), so it is tested and fuzzed
// alone. Why not Qt's QNetworkAccessManager: on Qt 6.4 it opens at most 6 connections per host, so a seventh client
// long-polling through the proxy would wait behind the first six for up to 20 s (docs/decisions.md).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifeline::aws {

struct HttpAnswer {
    int status = 0;
    std::vector<std::pair<std::string, std::string>> headers; // names lower-cased
    std::string body;
    bool keepAlive = true; // the connection may carry the next request

    std::string_view header(std::string_view lowerName) const; // empty when absent
};

// The largest answer SQS can send: ten messages of 1 MiB (body and attributes), each character escaped six times
// over at worst (a quote is XML's "&quot;"), and room for the rest. Any smaller cap refuses answers to receives
// whose messages the upstream has already put in flight.
inline constexpr size_t kMaxSqsAnswerBytes = size_t(10) * 1024 * 1024 * 6 + size_t(1024) * 1024;

class HttpResponseParser {
public:
    enum class State { NeedMore, Complete, Error };
    explicit HttpResponseParser(size_t maxBytes = kMaxSqsAnswerBytes)
        : m_maxBytes(maxBytes)
    {
    }

    // Takes more bytes of the connection; Complete: answer() holds it (call next() before feeding the next).
    State feed(std::string_view bytes);
    // The connection ended: an answer that runs to the end of the connection is complete now, any other is cut short.
    State finish();
    State state() const { return m_state; }
    const std::string& errorText() const { return m_error; }
    HttpAnswer takeAnswer() { return std::move(m_answer); }
    void next(); // forgets the answer; bytes after it stay buffered
    // The request was a HEAD (no body follows whatever the headers say).
    void expectNoBody() { m_noBody = true; }

private:
    State parse();
    State parseHead();
    State parseChunks();
    State fail(std::string why);

    size_t m_maxBytes;
    std::string m_buffer;
    size_t m_pos = 0; // parsed up to here
    enum class Body { None, Length, Chunked, UntilClose } m_body = Body::None;
    bool m_headDone = false;
    bool m_noBody = false;
    size_t m_length = 0;
    State m_state = State::NeedMore;
    HttpAnswer m_answer;
    std::string m_error;
};

} // namespace lifeline::aws
