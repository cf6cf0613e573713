#include "lifeline/endpoint/http.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace lifeline::endpoint {

std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return out;
}

std::string_view trimWhitespace(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

bool hasListToken(std::string_view value, std::string_view lowerToken)
{
    while (!value.empty()) {
        const size_t comma = std::min(value.find(','), value.size());
        if (asciiLower(trimWhitespace(value.substr(0, comma))) == lowerToken)
            return true;
        value.remove_prefix(std::min(comma + 1, value.size()));
    }
    return false;
}

namespace {

bool isToken(std::string_view text)
{
    if (text.empty())
        return false;
    for (const char c : text)
        if (c <= 32 || c >= 127 || std::strchr("()<>@,;:\\\"/[]?={}", c))
            return false;
    return true;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

std::string_view HttpRequest::header(std::string_view lowerName) const
{
    for (const auto& [name, value] : headers)
        if (name == lowerName)
            return value;
    return {};
}

std::string_view HttpRequest::path() const
{
    const std::string_view t(target);
    return t.substr(0, t.find('?'));
}

std::string_view HttpRequest::query() const
{
    const std::string_view t(target);
    const size_t at = t.find('?');
    return at == std::string_view::npos ? std::string_view() : t.substr(at + 1);
}

const char* reasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Unknown";
    }
}

std::string HttpResponse::serialize() const
{
    std::string out;
    out.reserve(body.size() + 256);
    out += "HTTP/1.1 ";
    out += std::to_string(status);
    out += ' ';
    out += reasonPhrase(status);
    out += "\r\n";
    for (const auto& [name, value] : headers) {
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    if (bodyParts) {
        out += "Transfer-Encoding: chunked\r\n";
    } else {
        out += "Content-Length: ";
        out += std::to_string(body.size());
        out += "\r\n";
    }
    if (close)
        out += "Connection: close\r\n";
    out += "\r\n";
    if (!bodyParts)
        out += body;
    return out;
}

std::string HttpResponse::chunkHead(size_t size)
{
    char head[24];
    std::snprintf(head, sizeof head, "%zx\r\n", size);
    return head;
}

HttpParser::HttpParser(HttpLimits limits)
    : m_limits(limits)
{
}

HttpParser::State HttpParser::fail(int status, std::string text)
{
    m_errorStatus = status;
    m_errorText = std::move(text);
    return m_state = State::Error;
}

HttpParser::State HttpParser::feed(std::string_view bytes)
{
    if (m_state != State::NeedMore)
        return m_state;
    m_buffer.append(bytes);
    return parse();
}

void HttpParser::next()
{
    if (m_state != State::Complete)
        return;
    m_buffer.erase(0, m_bodyStart + m_contentLength);
    m_bodyStart = 0;
    m_contentLength = 0;
    m_chunked = false;
    m_inTrailers = false;
    m_chunkCursor = 0;
    m_continueSent = false;
    m_request = HttpRequest {};
    m_state = State::NeedMore;
    parse();
}

bool HttpParser::expectsContinue() const
{
    if (m_state != State::NeedMore || m_bodyStart == 0 || m_continueSent)
        return false;
    return asciiLower(m_request.header("expect")) == "100-continue";
}

namespace {
// Lines end in CRLF, or in a bare LF, which RFC 9112 2.2 lets a tolerant reader take (some scripts send it).
std::string_view withoutCr(std::string_view line)
{
    return !line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line;
}

// Where the head ends (the start of its first empty line) and where the body starts; npos while incomplete.
size_t headEnd(const std::string& buffer, size_t& bodyStart)
{
    for (size_t lineStart = 0;;) {
        const size_t newline = buffer.find('\n', lineStart);
        if (newline == std::string::npos)
            return std::string::npos;
        const bool empty = newline == lineStart || (newline == lineStart + 1 && buffer[lineStart] == '\r');
        if (empty && lineStart > 0) {
            bodyStart = newline + 1;
            return lineStart;
        }
        lineStart = newline + 1;
    }
}
} // namespace

HttpParser::State HttpParser::parse()
{
    if (m_bodyStart == 0) {
        // Leading empty lines before a request are allowed (RFC 9112 2.2).
        size_t skip = 0;
        while (skip < m_buffer.size()
            && (m_buffer[skip] == '\n'
                || (m_buffer[skip] == '\r' && skip + 1 < m_buffer.size() && m_buffer[skip + 1] == '\n')))
            skip += m_buffer[skip] == '\r' ? 2 : 1;
        if (skip)
            m_buffer.erase(0, skip);
        size_t bodyStart = 0;
        const size_t end = headEnd(m_buffer, bodyStart);
        if (end == std::string::npos) {
            if (m_buffer.size() > m_limits.maxHeaderBytes)
                return fail(
                    431, "the request's headers are larger than " + std::to_string(m_limits.maxHeaderBytes) + " bytes");
            return m_state = State::NeedMore;
        }
        if (bodyStart > m_limits.maxHeaderBytes)
            return fail(
                431, "the request's headers are larger than " + std::to_string(m_limits.maxHeaderBytes) + " bytes");
        const std::string_view head(m_buffer.data(), end);
        const size_t lineEnd = head.find('\n');
        const std::string_view line = withoutCr(head.substr(0, lineEnd));
        const size_t sp1 = line.find(' ');
        const size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
        if (sp1 == std::string_view::npos || sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != line.npos)
            return fail(400, "malformed request line");
        const std::string_view method = line.substr(0, sp1);
        const std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        const std::string_view version = line.substr(sp2 + 1);
        if (!isToken(method) || target.empty())
            return fail(400, "malformed request line");
        if (version != "HTTP/1.1" && version != "HTTP/1.0")
            return fail(505, "only HTTP/1.1 and HTTP/1.0 are served");
        m_request.method = std::string(method);
        m_request.target = std::string(target);
        m_request.keepAlive = version == "HTTP/1.1";
        std::string_view rest = lineEnd == std::string_view::npos ? std::string_view() : head.substr(lineEnd + 1);
        bool haveLength = false;
        while (!rest.empty()) {
            const size_t eol = rest.find('\n');
            const std::string_view h = withoutCr(rest.substr(0, eol));
            rest = eol == std::string_view::npos ? std::string_view() : rest.substr(eol + 1);
            const size_t colon = h.find(':');
            if (colon == std::string_view::npos || !isToken(h.substr(0, colon)))
                return fail(400, "malformed header line");
            std::string name = asciiLower(h.substr(0, colon));
            const std::string_view value = trimWhitespace(h.substr(colon + 1));
            if (name == "content-length") {
                size_t length = 0;
                const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
                if (ec != std::errc() || ptr != value.data() + value.size() || value.empty())
                    return fail(400, "malformed Content-Length");
                if (haveLength && length != m_contentLength)
                    return fail(400, "conflicting Content-Length headers");
                haveLength = true;
                m_contentLength = length;
            } else if (name == "transfer-encoding") {
                if (const auto refused = takeTransferCoding(value))
                    return *refused;
            } else if (name == "connection") {
                if (hasListToken(value, "close"))
                    m_request.keepAlive = false;
                else if (hasListToken(value, "keep-alive"))
                    m_request.keepAlive = true;
            }
            m_request.headers.emplace_back(std::move(name), std::string(value));
        }
        m_bodyStart = m_chunkCursor = bodyStart;
        if (m_contentLength > m_limits.maxBodyBytes)
            return fail(413, "the request body is larger than " + std::to_string(m_limits.maxBodyBytes) + " bytes");
    }
    if (m_chunked)
        return parseChunks();
    if (m_buffer.size() - m_bodyStart < m_contentLength)
        return m_state = State::NeedMore;
    m_request.body.assign(m_buffer, m_bodyStart, m_contentLength);
    return m_state = State::Complete;
}

std::optional<HttpParser::State> HttpParser::takeTransferCoding(std::string_view value)
{
    if (!m_limits.acceptChunked)
        return fail(411, "chunked bodies are not accepted: send Content-Length");
    if (asciiLower(value) != "chunked")
        return fail(501, "the only transfer coding read is chunked, got '" + std::string(value) + "'");
    m_chunked = true;
    return std::nullopt;
}

// RFC 9112 7.1: chunks of a hexadecimal size (extensions after ';' ignored), each followed by a line end; a chunk of
// size 0, then trailer lines (ignored) up to an empty one.
HttpParser::State HttpParser::parseChunks()
{
    if (m_chunkCursor == m_bodyStart && m_contentLength != 0)
        return fail(400, "a chunked body with a Content-Length as well");
    const std::string_view buffer(m_buffer);
    for (;;) {
        const size_t eol = buffer.find('\n', m_chunkCursor);
        if (eol == std::string_view::npos)
            return buffer.size() - m_chunkCursor > 4096 ? fail(400, "a chunk's size line is too long")
                                                        : (m_state = State::NeedMore);
        std::string_view line = withoutCr(buffer.substr(m_chunkCursor, eol - m_chunkCursor));
        if (m_inTrailers) {
            m_chunkCursor = eol + 1;
            if (!line.empty())
                continue;
            m_contentLength = m_chunkCursor - m_bodyStart; // what next() drops with the head
            return m_state = State::Complete;
        }
        line = trimWhitespace(line.substr(0, line.find(';')));
        size_t size = 0;
        const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
        if (error != std::errc() || end != line.data() + line.size() || line.empty())
            return fail(400, "malformed chunk size");
        if (size == 0) {
            m_inTrailers = true;
            m_chunkCursor = eol + 1;
            continue;
        }
        if (size > m_limits.maxBodyBytes - m_request.body.size())
            return fail(413, "the request body is larger than " + std::to_string(m_limits.maxBodyBytes) + " bytes");
        const size_t data = eol + 1;
        if (buffer.size() < data + size + 1)
            return m_state = State::NeedMore;
        size_t next = data + size;
        if (buffer[next] == '\r') {
            if (buffer.size() < next + 2)
                return m_state = State::NeedMore;
            ++next;
        }
        if (buffer[next] != '\n')
            return fail(400, "a chunk does not end where its size says");
        m_request.body.append(buffer.substr(data, size));
        m_chunkCursor = next + 1;
    }
}

std::optional<std::string> urlDecode(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+')
            out += ' ';
        else if (c == '%') {
            if (i + 2 >= text.size())
                return std::nullopt; // a '%' needs two hex digits after it
            const int hi = hexValue(text[i + 1]);
            const int lo = hexValue(text[i + 2]);
            if (hi < 0 || lo < 0)
                return std::nullopt;
            out += char(hi * 16 + lo);
            i += 2;
        } else
            out += c;
    }
    return out;
}

std::string urlEncode(std::string_view text)
{
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
            || c == '.' || c == '~')
            out += char(c);
        else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

} // namespace lifeline::endpoint
