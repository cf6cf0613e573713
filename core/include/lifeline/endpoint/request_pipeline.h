// One HTTP request through the local endpoint, with no socket in sight: what a web page may not send is refused
// (request_guard.h), the control API's requests parsed (control_api.h), LocalStack's peek answered, an SQS call decoded
// (protocol.h), made (SqsService) and encoded. The servers only move bytes and own what outlives a request: the
// connections, the wall clock behind the virtual one, the long polls parked until the engine completes them. So the
// whole pipeline is tested in Catch2 (tests/core/test_request_pipeline.cpp).
#pragma once

#include "lifeline/endpoint/control_api.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/endpoint/sqs_service.h"

#include <functional>
#include <string>
#include <variant>

namespace lifeline::endpoint {

struct RequestContext {
    GuardOptions guard;
    std::string defaultHost = "localhost:9324"; // queue URLs' host when the request names none
    // The server's numbering of requests, asked only for an answer that carries a RequestId (an SQS call, a peek).
    std::function<std::string()> nextRequestId;
    // The client's actor in the run, asked only for an SQS call (a client is named by its first call).
    std::function<uint32_t()> actor;
};

// A ReceiveMessage that waits: the server answers it when the engine completes its poll (renderMessages).
struct ParkedReceive {
    PollId poll {};
    std::string queue; // the queue it waits on
    ReceiveView view;
    Protocol protocol = Protocol::Query;
    std::string requestId;
};

// An answer now, a receive to answer later, or a control command for the server to apply to its clock or its run.
using Reply = std::variant<HttpResponse, ParkedReceive, ControlCommand>;

Reply handleRequest(const HttpRequest& request, Engine& engine, SqsService& service, const RequestContext& context);

// LocalStack's developer endpoint (`/_aws/sqs/messages?QueueUrl=...&ShowInvisible=true&ShowDelayed=true`, or the
// queue in the path, /_aws/sqs/messages/REGION/ACCOUNT/QUEUE): a queue's messages as ReceiveMessage's answer in the
// request's protocol, without receiving them. Its answer is made while the client reads it (HttpResponse::bodyParts):
// the parts read `engine` and `service`, so they must not be asked for once either is gone (a reset).
bool isPeekPath(std::string_view path);

} // namespace lifeline::endpoint
