#include "lifeline/aws/forward.h"

#include <algorithm>
#include <charconv>

namespace lifeline::aws {

namespace {
// The client's headers the upstream gets (names as the parser keeps them, lower-cased), in this order.
constexpr const char* kForwarded[]
    = { "content-type", "x-amz-target", "x-amzn-query-mode", "x-amzn-trace-id", "user-agent" };
// Of those, the ones signed (botocore signs the first three; User-Agent and the trace header are left unsigned).
bool signedHeader(std::string_view name)
{
    return name == "content-type" || name == "x-amz-target" || name == "x-amzn-query-mode";
}
} // namespace

std::string Upstream::hostHeader() const
{
    const bool defaultPort = (tls && port == 443) || (!tls && port == 80);
    const std::string name = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    return defaultPort ? name : name + ":" + std::to_string(port);
}

std::string Upstream::url() const
{
    return std::string(tls ? "https://" : "http://") + hostHeader() + basePath;
}

bool isLoopbackHost(std::string_view host)
{
    // An address, not a name's prefix: "127.attacker.example" is anywhere. Names other than localhost resolve where
    // DNS says.
    if (host == "localhost" || host == "::1" || host == "[::1]")
        return true;
    int octets = 0;
    for (size_t at = 0; at <= host.size(); ++octets) {
        const size_t dot = std::min(host.find('.', at), host.size());
        const std::string_view part = host.substr(at, dot - at);
        unsigned value = 0;
        const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (part.empty() || part.size() > 3 || error != std::errc() || end != part.data() + part.size() || value > 255
            || (octets == 0 && value != 127))
            return false;
        at = dot + 1;
    }
    return octets == 4;
}

std::optional<Upstream> parseUpstream(std::string_view url, std::string* why)
{
    const auto fail = [&](const std::string& text) -> std::optional<Upstream> {
        if (why)
            *why = text;
        return std::nullopt;
    };
    Upstream out;
    if (url.starts_with("https://")) {
        out.tls = true;
        out.port = 443;
        url.remove_prefix(8);
    } else if (url.starts_with("http://")) {
        url.remove_prefix(7);
    } else {
        return fail("--upstream must start with http:// or https:// (https://sqs.eu-west-1.amazonaws.com)");
    }
    const size_t pathAt = std::min(url.find('/'), url.size());
    std::string_view authority = url.substr(0, pathAt);
    std::string_view path = url.substr(pathAt);
    if (authority.find('@') != std::string_view::npos)
        return fail("--upstream must not hold a user name or password: credentials come from the AWS profile");
    if (path.find_first_of("?#") != std::string_view::npos)
        return fail("--upstream takes no query or fragment");
    std::string_view portText;
    if (authority.starts_with("[")) { // [::1]:4566
        const size_t close = authority.find(']');
        if (close == std::string_view::npos)
            return fail("--upstream has an unclosed '[' in its address");
        out.host = std::string(authority.substr(1, close - 1));
        if (close + 1 < authority.size()) {
            if (authority[close + 1] != ':')
                return fail("--upstream has something after its address's ']'");
            portText = authority.substr(close + 2);
        }
    } else {
        const size_t colon = authority.find(':');
        out.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            portText = authority.substr(colon + 1);
    }
    if (out.host.empty())
        return fail("--upstream names no host");
    if (!portText.empty() || authority.ends_with(":")) {
        unsigned port = 0;
        const auto [p, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
        if (ec != std::errc() || p != portText.data() + portText.size() || port == 0 || port > 65535)
            return fail("--upstream's port must be 1..65535, got '" + std::string(portText) + "'");
        out.port = uint16_t(port);
    }
    while (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    out.basePath = std::string(path);
    return out;
}

std::string forwardRequest(const endpoint::HttpRequest& request, const Upstream& upstream,
    const AwsCredentials& credentials, const std::string& region, int64_t epochSeconds, const std::string& service)
{
    SigningRequest signing;
    signing.method = request.method;
    signing.host = upstream.hostHeader();
    signing.path = upstream.basePath + std::string(request.path().empty() ? "/" : request.path());
    signing.query = std::string(request.query());
    signing.body = request.body;
    std::vector<std::pair<std::string, std::string>> unsignedHeaders;
    for (const char* name : kForwarded) {
        const std::string_view value = request.header(name);
        if (value.empty())
            continue;
        if (signedHeader(name))
            signing.headers.emplace_back(name, std::string(value));
        else
            unsignedHeaders.emplace_back(name, std::string(value));
    }
    const Signature signature = signV4(signing, credentials, region, service, epochSeconds);
    std::string out = signing.method + " " + signing.path + (signing.query.empty() ? "" : "?" + signing.query)
        + " HTTP/1.1\r\nHost: " + signing.host + "\r\n";
    for (const auto& [name, value] : signing.headers)
        out += name + ": " + value + "\r\n";
    for (const auto& [name, value] : unsignedHeaders)
        out += name + ": " + value + "\r\n";
    out += "X-Amz-Date: " + signature.amzDate + "\r\n";
    if (!credentials.sessionToken.empty())
        out += "X-Amz-Security-Token: " + credentials.sessionToken + "\r\n";
    out += "Authorization: " + signature.authorization + "\r\n";
    out += "Content-Length: " + std::to_string(request.body.size()) + "\r\n\r\n";
    out += request.body;
    return out;
}

endpoint::HttpRequest ownRequest(const std::string& formBody)
{
    endpoint::HttpRequest request;
    request.method = "POST";
    request.target = "/";
    request.headers = { { "content-type", "application/x-www-form-urlencoded; charset=utf-8" },
        { "user-agent", "lifeline-proxy" } };
    request.body = formBody;
    return request;
}

} // namespace lifeline::aws
