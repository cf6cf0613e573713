#include "lifeline/aws/sigv4.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <map>
#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace lifeline::aws {

namespace {

std::string hex(const unsigned char* data, size_t size)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (size_t i = 0; i < size; ++i) {
        out += kDigits[data[i] >> 4];
        out += kDigits[data[i] & 15];
    }
    return out;
}

std::string hmac(const std::string& key, const std::string& data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> out {};
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
        out.data(), &size);
    return std::string(reinterpret_cast<const char*>(out.data()), size);
}

std::string lower(std::string text)
{
    std::transform(
        text.begin(), text.end(), text.begin(), [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
    return text;
}

// Leading and trailing space removed, runs of spaces inside made one (SigV4's canonical header value).
std::string trimmed(const std::string& value)
{
    std::string out;
    bool space = false;
    for (const char c : value) {
        if (c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space)
            out += ' ';
        space = false;
        out += c;
    }
    return out;
}

bool unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
        || c == '.' || c == '~'; // RFC 3986's unreserved, whatever the locale
}

std::string percentEncode(const std::string& text, bool keepSlash)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : text) {
        if (unreserved(c) || (keepSlash && c == '/')) {
            out += char(c);
        } else {
            out += '%';
            out += kDigits[c >> 4];
            out += kDigits[c & 15];
        }
    }
    return out;
}

std::string percentDecode(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const auto digit = [](char c) {
            return c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f'  ? c - 'a' + 10
                : c >= 'A' && c <= 'F'  ? c - 'A' + 10
                                        : -1;
        };
        if (text[i] == '%' && i + 2 < text.size() && digit(text[i + 1]) >= 0 && digit(text[i + 2]) >= 0) {
            out += char(digit(text[i + 1]) * 16 + digit(text[i + 2]));
            i += 2;
        } else {
            out += text[i]; // '+' stays '+': RFC 3986, as AWS reads a query string
        }
    }
    return out;
}

// The query string's pairs, decoded and encoded again the canonical way, sorted by name then value.
std::string canonicalQuery(const std::string& query)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    size_t start = 0;
    while (start <= query.size() && !query.empty()) {
        const size_t end = std::min(query.find('&', start), query.size());
        const std::string part = query.substr(start, end - start);
        if (!part.empty()) {
            const size_t eq = part.find('=');
            pairs.emplace_back(percentEncode(percentDecode(part.substr(0, eq)), false),
                eq == std::string::npos ? std::string() : percentEncode(percentDecode(part.substr(eq + 1)), false));
        }
        start = end + 1;
    }
    std::sort(pairs.begin(), pairs.end());
    std::string out;
    for (const auto& [name, value] : pairs)
        out += (out.empty() ? "" : "&") + name + "=" + value;
    return out;
}

// The path as sent, encoded once more: every service but S3 signs it "URI-encoded twice" (AWS's SigV4 rules).
std::string canonicalPath(const std::string& path)
{
    return percentEncode(path.empty() ? std::string("/") : path, true);
}

} // namespace

std::string sha256Hex(const std::string& data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> out {};
    unsigned int size = 0;
    EVP_Digest(data.data(), data.size(), out.data(), &size, EVP_sha256(), nullptr);
    return hex(out.data(), size);
}

Signature signV4(const SigningRequest& request, const AwsCredentials& credentials, const std::string& region,
    const std::string& service, int64_t epochSeconds)
{
    Signature s;
    const std::time_t time = std::time_t(epochSeconds);
    std::tm utc {};
    gmtime_r(&time, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &utc);
    s.amzDate = stamp;
    const std::string date = s.amzDate.substr(0, 8);

    std::map<std::string, std::string> headers; // sorted by lower-case name; repeated headers joined by commas
    for (const auto& [name, value] : request.headers) {
        const std::string key = lower(name);
        if (key == "user-agent" || key == "expect" || key == "x-amzn-trace-id" || key == "authorization"
            || key == "host" || key == "x-amz-date" || key == "x-amz-security-token")
            continue;
        auto [it, fresh] = headers.try_emplace(key, trimmed(value));
        if (!fresh)
            it->second += "," + trimmed(value);
    }
    headers["host"] = request.host;
    headers["x-amz-date"] = s.amzDate;
    if (!credentials.sessionToken.empty())
        headers["x-amz-security-token"] = credentials.sessionToken;
    std::string canonicalHeaders, signedHeaders;
    for (const auto& [name, value] : headers) {
        canonicalHeaders += name + ":" + value + "\n";
        signedHeaders += (signedHeaders.empty() ? "" : ";") + name;
    }
    s.canonicalRequest = request.method + "\n" + canonicalPath(request.path) + "\n" + canonicalQuery(request.query)
        + "\n" + canonicalHeaders + "\n" + signedHeaders + "\n" + sha256Hex(request.body);
    const std::string scope = date + "/" + region + "/" + service + "/aws4_request";
    s.stringToSign = "AWS4-HMAC-SHA256\n" + s.amzDate + "\n" + scope + "\n" + sha256Hex(s.canonicalRequest);
    const std::string key
        = hmac(hmac(hmac(hmac("AWS4" + credentials.secretAccessKey, date), region), service), "aws4_request");
    const std::string signature = hmac(key, s.stringToSign);
    s.authorization = "AWS4-HMAC-SHA256 Credential=" + credentials.accessKeyId + "/" + scope
        + ", SignedHeaders=" + signedHeaders
        + ", Signature=" + hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
    return s;
}

} // namespace lifeline::aws
