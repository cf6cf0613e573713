// What a local endpoint must refuse because a web page, not a client, may have sent it. Any page open in the user's
// browser can POST a form to 127.0.0.1 or load an image from `GET /?Action=DeleteQueue...`, and a page on a domain
// that re-resolves to 127.0.0.1 (DNS rebinding) even reads the answers. Real SDKs and the CLI send no Origin, never
// use GET for a change, and name the address they connect to in Host.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/support/result.h"

#include <optional>
#include <string>
#include <vector>

namespace lifeline::endpoint {

struct GuardOptions {
    std::vector<std::string> allowedOrigins; // --allow-origin: exact Origin values a page may send from
    std::vector<std::string> allowedHosts; // --allow-host: host names besides localhost and IP addresses
    bool allowGetActions = false; // --allow-get-actions: state-changing actions over GET (AWS accepts them)
};

// The actions that change nothing: allowed over GET. ReceiveMessage changes visibility, so it is not one.
bool isReadOnlyAction(const std::string& action);

// An AccessDenied (403) for a request a browser may have sent, or nothing when it may go on.
std::optional<SqsError> guardRequest(
    const HttpRequest& request, const std::string& action, const GuardOptions& options);

} // namespace lifeline::endpoint
