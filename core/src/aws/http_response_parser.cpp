#include "lifeline/aws/http_response_parser.h"

#include "lifeline/endpoint/http.h"

#include <algorithm>
#include <charconv>

namespace lifeline::aws {

using endpoint::asciiLower;
using endpoint::hasListToken;
using endpoint::trimWhitespace;

std::string_view HttpAnswer::header(std::string_view lowerName) const
{
    for (const auto& [name, value] : headers)
        if (name == lowerName)
            return value;
    return {};
}

HttpResponseParser::State HttpResponseParser::fail(std::string why)
{
    m_error = std::move(why);
    m_state = State::Error;
    return m_state;
}

HttpResponseParser::State HttpResponseParser::feed(std::string_view bytes)
{
    if (m_state == State::Error)
        return m_state;
    m_buffer.append(bytes);
    if (m_state == State::Complete)
        return m_state;
    return parse();
}

HttpResponseParser::State HttpResponseParser::finish()
{
    if (m_state != State::NeedMore)
        return m_state;
    if (m_headDone && m_body == Body::UntilClose) {
        m_answer.body.assign(m_buffer, m_pos);
        m_pos = m_buffer.size();
        m_answer.keepAlive = false;
        m_state = State::Complete;
        return m_state;
    }
    return fail(m_headDone ? "the upstream closed the connection in the middle of an answer"
                           : "the upstream closed the connection without answering");
}

void HttpResponseParser::next()
{
    m_buffer.erase(0, m_pos);
    m_pos = 0;
    m_headDone = false;
    m_noBody = false;
    m_body = Body::None;
    m_length = 0;
    m_answer = HttpAnswer {};
    m_state = State::NeedMore;
    if (!m_buffer.empty())
        parse();
}

HttpResponseParser::State HttpResponseParser::parse()
{
    if (m_buffer.size() > m_maxBytes)
        return fail("the upstream's answer is larger than " + std::to_string(m_maxBytes) + " bytes");
    if (!m_headDone) {
        const State head = parseHead();
        if (head != State::Complete)
            return head;
    }
    switch (m_body) {
    case Body::None:
        m_state = State::Complete;
        return m_state;
    case Body::Length:
        if (m_buffer.size() - m_pos < m_length)
            return State::NeedMore;
        m_answer.body.assign(m_buffer, m_pos, m_length);
        m_pos += m_length;
        m_state = State::Complete;
        return m_state;
    case Body::Chunked:
        return parseChunks();
    case Body::UntilClose:
        return State::NeedMore;
    }
    return State::NeedMore;
}

HttpResponseParser::State HttpResponseParser::parseHead()
{
    const size_t end = m_buffer.find("\r\n\r\n", m_pos);
    if (end == std::string::npos)
        return m_buffer.size() - m_pos > size_t(64) * 1024 ? fail("the upstream's answer has a head over 64 KiB")
                                                           : State::NeedMore;
    const std::string_view head(m_buffer.data() + m_pos, end - m_pos);
    const size_t lineEnd = std::min(head.find("\r\n"), head.size());
    const std::string_view statusLine = head.substr(0, lineEnd);
    // HTTP/1.1 200 OK
    if (!statusLine.starts_with("HTTP/1.") || statusLine.size() < 12 || statusLine[8] != ' ')
        return fail("the upstream did not answer in HTTP/1.1");
    int status = 0;
    const auto [p, ec] = std::from_chars(statusLine.data() + 9, statusLine.data() + 12, status);
    if (ec != std::errc() || p != statusLine.data() + 12 || status < 100)
        return fail("the upstream's status line is malformed");
    const bool http10 = statusLine[7] == '0';
    m_answer.status = status;
    m_answer.headers.clear();
    size_t at = lineEnd + 2;
    while (at < head.size()) {
        const size_t next = std::min(head.find("\r\n", at), head.size());
        const std::string_view line = head.substr(at, next - at);
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return fail("the upstream sent a malformed header line");
        m_answer.headers.emplace_back(
            asciiLower(line.substr(0, colon)), std::string(trimWhitespace(line.substr(colon + 1))));
        at = next + 2;
    }
    m_pos = end + 4;
    if (status < 200) { // 100 Continue and other interim answers: the real one follows
        m_buffer.erase(0, m_pos);
        m_pos = 0;
        return parseHead();
    }
    m_headDone = true;
    const std::string_view connection = m_answer.header("connection");
    m_answer.keepAlive = http10 ? hasListToken(connection, "keep-alive") : !hasListToken(connection, "close");
    const std::string_view length = m_answer.header("content-length");
    if (m_noBody || status == 204 || status == 304) {
        m_body = Body::None;
    } else if (hasListToken(m_answer.header("transfer-encoding"), "chunked")) {
        m_body = Body::Chunked;
    } else if (!length.empty()) {
        const auto [q, lec] = std::from_chars(length.data(), length.data() + length.size(), m_length);
        if (lec != std::errc() || q != length.data() + length.size())
            return fail("the upstream's Content-Length is not a number");
        if (m_length > m_maxBytes)
            return fail("the upstream's answer is larger than " + std::to_string(m_maxBytes) + " bytes");
        m_body = Body::Length;
    } else {
        m_body = Body::UntilClose;
        m_answer.keepAlive = false;
    }
    return State::Complete;
}

HttpResponseParser::State HttpResponseParser::parseChunks()
{
    for (;;) {
        const size_t lineEnd = m_buffer.find("\r\n", m_pos);
        if (lineEnd == std::string::npos)
            return State::NeedMore;
        std::string_view sizeText(m_buffer.data() + m_pos, lineEnd - m_pos);
        sizeText = trimWhitespace(sizeText.substr(0, std::min(sizeText.find(';'), sizeText.size())));
        size_t size = 0;
        const auto [p, ec] = std::from_chars(sizeText.data(), sizeText.data() + sizeText.size(), size, 16);
        if (ec != std::errc() || p != sizeText.data() + sizeText.size())
            return fail("the upstream sent a malformed chunk size");
        if (size > m_maxBytes || m_answer.body.size() + size > m_maxBytes)
            return fail("the upstream's answer is larger than " + std::to_string(m_maxBytes) + " bytes");
        if (size == 0) {
            // Trailers, if any, end with an empty line.
            const size_t end = m_buffer.find("\r\n\r\n", lineEnd);
            if (m_buffer.compare(lineEnd, 4, "\r\n\r\n") != 0 && end == std::string::npos)
                return State::NeedMore;
            m_pos = (end == std::string::npos ? lineEnd : end) + 4;
            m_state = State::Complete;
            return m_state;
        }
        if (m_buffer.size() < lineEnd + 2 + size + 2)
            return State::NeedMore;
        m_answer.body.append(m_buffer, lineEnd + 2, size);
        if (m_buffer.compare(lineEnd + 2 + size, 2, "\r\n") != 0)
            return fail("the upstream sent a malformed chunk");
        m_pos = lineEnd + 2 + size + 2;
    }
}

} // namespace lifeline::aws
