// A client's request as the recording proxy takes it in, with no socket in sight: what a web page may not make the
// proxy do with the user's credentials is refused (request_guard.h) before anything goes upstream, and a request that
// may go is read for what the proxy records before its answer comes back: its queue, whether it starts a long poll, the
// messages a send asks for, and how long its answer may take. The proxy's server only moves bytes around it
// (ui/http/proxy_server.cpp); tests/core/test_proxied_request.cpp takes requests through it in Catch2.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/observe/observed_call.h"

#include <functional>
#include <string>
#include <variant>
#include <vector>

namespace lifeline::observe {

struct ProxiedRequest {
    endpoint::DecodedRequest decoded; // decoded.error: a request the upstream will refuse; it goes up all the same
    std::string queueUrl; // as the request wrote it; empty when it names none
    std::string queue; // the queue's name, from queueUrl
    bool startsPoll = false; // a ReceiveMessage: its client's row shows it polling until the answer
    std::vector<ObservedSend> sends; // SendMessage(Batch): the messages asked for, without their MessageIds
    int64_t waitSeconds = 0; // the longest its answer may wait upstream: a receive's WaitTimeSeconds, else 20 (the
                             // queue's own may hold it); 0 for any other call
};

// The request to forward, or the refusal to answer (AccessDenied, in the request's protocol).
using ProxyAdmission = std::variant<ProxiedRequest, endpoint::HttpResponse>;

ProxyAdmission admitProxied(const endpoint::HttpRequest& request, const endpoint::GuardOptions& guard,
    const std::function<std::string()>& nextRequestId);

} // namespace lifeline::observe
