// What the recording proxy sends upstream for a client's request: the same method, path, query, body and the
// headers that carry meaning (Content-Type, X-Amz-Target, X-Amzn-Query-Mode, X-Amzn-Trace-Id, User-Agent), addressed
// to the upstream's host and signed anew there with the user's credentials. The client's own Authorization,
// X-Amz-Date, X-Amz-Security-Token and X-Amz-Content-Sha256 are dropped: they were made for the proxy's address
// and, with a real client, with throwaway keys. Pure: the time is a parameter.
#pragma once

#include "lifeline/aws/sigv4.h"
#include "lifeline/endpoint/http.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lifeline::aws {

struct Upstream {
    bool tls = false;
    std::string host; // "sqs.eu-west-1.amazonaws.com", "127.0.0.1"
    uint16_t port = 80;
    std::string basePath; // "" or "/prefix" (no trailing '/')
    std::string hostHeader() const; // host, plus ":port" when it is not the scheme's default
    std::string url() const; // https://host[:port][basePath]
};

// Reads --upstream: http:// or https://, a host, an optional port and path; no user info, query or fragment.
std::optional<Upstream> parseUpstream(std::string_view url, std::string* why);
// The upstream is this machine (plain HTTP to it stays on the machine).
bool isLoopbackHost(std::string_view host);

// The bytes of the upstream request for `request`, signed for `region` and `service` at `epochSeconds`.
std::string forwardRequest(const endpoint::HttpRequest& request, const Upstream& upstream,
    const AwsCredentials& credentials, const std::string& region, int64_t epochSeconds,
    const std::string& service = "sqs");

// The proxy's own request (GetQueueAttributes for a queue it saw), in the query protocol every SQS speaks.
endpoint::HttpRequest ownRequest(const std::string& formBody);

} // namespace lifeline::aws
