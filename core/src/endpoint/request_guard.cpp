#include "lifeline/endpoint/request_guard.h"

#include "lifeline/endpoint/sqs_action.h"

#include <algorithm>
#include <cctype>

namespace lifeline::endpoint {

namespace {
std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The host part of a Host header: "127.0.0.1:9324" -> "127.0.0.1", "[::1]:9324" -> "::1".
std::string hostPart(std::string_view host)
{
    if (!host.empty() && host.front() == '[') {
        const size_t close = host.find(']');
        return lower(host.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
    }
    return lower(host.substr(0, host.rfind(':') == std::string_view::npos ? host.size() : host.rfind(':')));
}

bool isIpLiteral(const std::string& host)
{
    if (host.find(':') != std::string::npos) // IPv6: hex digits, colons and dots only
        return std::all_of(host.begin(), host.end(),
            [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; });
    int dots = 0;
    for (const char c : host) {
        if (c == '.')
            ++dots;
        else if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    }
    return dots == 3;
}

SqsError denied(const std::string& message)
{
    return makeError("AccessDenied", message, 403);
}
} // namespace

bool isReadOnlyAction(const std::string& action)
{
    const auto known = sqsActionNamed(action);
    return known && infoOf(*known).readOnly;
}

std::optional<SqsError> guardRequest(const HttpRequest& request, const std::string& action, const GuardOptions& options)
{
    const std::string_view origin = request.header("origin");
    const std::string fetchSite = lower(request.header("sec-fetch-site"));
    const bool fromPage = !origin.empty() || fetchSite == "cross-site" || fetchSite == "same-site";
    if (fromPage
        && std::find(options.allowedOrigins.begin(), options.allowedOrigins.end(), std::string(origin))
            == options.allowedOrigins.end())
        return denied("Requests from web pages are refused (Origin: " + std::string(origin.empty() ? "none" : origin)
            + "); start lifeline serve with --allow-origin ORIGIN to allow a page you trust.");
    const std::string_view hostHeader = request.header("host");
    if (!hostHeader.empty()) {
        const std::string host = hostPart(hostHeader);
        const bool local = host == "localhost" || host.ends_with(".localhost") || isIpLiteral(host);
        if (!local
            && std::find(options.allowedHosts.begin(), options.allowedHosts.end(), host) == options.allowedHosts.end())
            return denied("The Host " + host
                + " is not this endpoint's address (a page on another domain may have resolved to it); use the "
                  "address, or start lifeline serve with --allow-host "
                + host + ".");
    }
    // A change of state comes by POST: a page can make a browser send GET (an <img>) and HEAD (a no-cors fetch)
    // without an Origin; GET only on request, HEAD never.
    const bool getAllowed = request.method == "GET" && options.allowGetActions;
    if (request.method != "POST" && !getAllowed && !action.empty() && !isReadOnlyAction(action))
        return denied("The action " + action + " changes state and is refused over " + request.method
            + " (a web page can make a browser send " + request.method + "); use POST"
            + (request.method == "GET" ? ", or start lifeline serve with --allow-get-actions." : "."));
    return std::nullopt;
}

} // namespace lifeline::endpoint
