// The recording proxy's intake without sockets (proxied_request.h): a web page's request refused in the protocol it
// spoke, before anything goes upstream with the user's credentials; a client's request read for its queue, its long
// poll, the messages it sends and how long its answer may take.
#include "http_requests.h"
#include "lifeline/observe/proxied_request.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::observe;
using lifeline::test::jsonRequest;
using lifeline::test::queryRequest;
using json = nlohmann::json;

namespace {
const endpoint::GuardOptions kGuard;
int requestIds = 0;
std::string nextId()
{
    return "proxy-" + std::to_string(++requestIds);
}
} // namespace

TEST_CASE("proxy intake: a web page's request is refused before it goes upstream, in the protocol it spoke")
{
    requestIds = 0;
    const auto page = admitProxied(
        jsonRequest("DeleteQueue", R"({"QueueUrl": "https://sqs.eu-west-1.amazonaws.com/123456789012/orders"})",
            "Origin: https://evil.example\r\n"),
        kGuard, nextId);
    REQUIRE(std::holds_alternative<endpoint::HttpResponse>(page));
    const auto& refused = std::get<endpoint::HttpResponse>(page);
    CHECK(refused.status == 403);
    CHECK(json::parse(refused.body).at("__type") == "com.amazonaws.sqs#AccessDenied");
    CHECK(requestIds == 1); // its RequestId is the proxy's

    // A page allowed by --allow-origin goes on.
    endpoint::GuardOptions trusting;
    trusting.allowedOrigins = { "https://evil.example" };
    CHECK(std::holds_alternative<ProxiedRequest>(
        admitProxied(jsonRequest("ListQueues", "{}", "Origin: https://evil.example\r\n"), trusting, nextId)));
}

TEST_CASE("proxy intake: a client's request read for its queue, its long poll and the messages it sends")
{
    const auto receive = admitProxied(queryRequest("Action=ReceiveMessage&QueueUrl=https%3A%2F%2Fsqs.eu-west-1."
                                                   "amazonaws.com%2F123456789012%2Forders&WaitTimeSeconds=7"),
        kGuard, nextId);
    REQUIRE(std::holds_alternative<ProxiedRequest>(receive));
    const auto& polling = std::get<ProxiedRequest>(receive);
    CHECK(polling.queueUrl == "https://sqs.eu-west-1.amazonaws.com/123456789012/orders");
    CHECK(polling.queue == "orders");
    CHECK(polling.startsPoll);
    CHECK(polling.waitSeconds == 7);
    CHECK(polling.sends.empty());
    // Without WaitTimeSeconds the queue's own wait may hold it: up to 20 s.
    const auto queueWait = std::get<ProxiedRequest>(admitProxied(
        jsonRequest("ReceiveMessage", R"({"QueueUrl": "http://localhost:4566/000000000000/jobs"})"), kGuard, nextId));
    CHECK(queueWait.waitSeconds == 20);

    const auto batch = std::get<ProxiedRequest>(
        admitProxied(jsonRequest("SendMessageBatch",
                         R"({"QueueUrl": "http://localhost:4566/000000000000/jobs.fifo", "Entries": [
                {"Id": "a", "MessageBody": "first", "MessageGroupId": "g1"},
                {"Id": "b", "MessageBody": "second", "MessageGroupId": "g2", "DelaySeconds": 0}]})"),
            kGuard, nextId));
    CHECK(batch.queue == "jobs.fifo");
    CHECK_FALSE(batch.startsPoll);
    CHECK(batch.waitSeconds == 0);
    REQUIRE(batch.sends.size() == 2);
    CHECK((batch.sends[0].body == "first" && batch.sends[0].groupId == "g1" && batch.sends[0].messageId.empty()));
    CHECK((batch.sends[1].body == "second" && batch.sends[1].delaySeconds == 0));

    // A request SQS will refuse still goes up (the client gets the upstream's own error), read for nothing.
    const auto broken = std::get<ProxiedRequest>(admitProxied(jsonRequest("SendMessage", "{not json"), kGuard, nextId));
    CHECK(broken.decoded.error.has_value());
    CHECK(broken.queue.empty());
    CHECK(broken.sends.empty());
}
