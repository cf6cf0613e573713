// The endpoint's request pipeline without sockets (request_pipeline.h): an SQS call guarded, decoded, made and encoded;
// a long poll parked; the control API's commands handed to the server; LocalStack's peek; and what is numbered and
// named only when an answer needs it.
#include "http_requests.h"
#include "lifeline/endpoint/request_pipeline.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::endpoint;
using lifeline::test::jsonRequest;
using lifeline::test::parse;
using json = nlohmann::json;

namespace {

struct Pipeline {
    Engine engine;
    SqsService service { engine };
    RequestContext context;
    int requestIds = 0; // how many the pipeline asked for
    int actorsAsked = 0;

    Pipeline()
    {
        context.nextRequestId = [this] { return "req-" + std::to_string(++requestIds); };
        context.actor = [this] {
            ++actorsAsked;
            return kOperatorActor;
        };
    }
    Reply handle(const HttpRequest& request) { return handleRequest(request, engine, service, context); }
    HttpResponse answer(const HttpRequest& request)
    {
        Reply reply = handle(request);
        REQUIRE(std::holds_alternative<HttpResponse>(reply));
        HttpResponse response = std::get<HttpResponse>(std::move(reply));
        if (response.bodyParts) // made while it is read: read it all, as the server would send it
            for (std::optional<std::string> part; (part = response.bodyParts()) && !part->empty();)
                response.body += *part;
        return response;
    }
};

HttpRequest peekRequest(const std::string& query, const std::string& headers = {})
{
    return parse("GET /_aws/sqs/messages?QueueUrl=http://127.0.0.1:9324/000000000000/jobs" + query
        + " HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n");
}

} // namespace

TEST_CASE(
    "request pipeline: an SQS call made and encoded - its RequestId and client asked once", "[endpoint][pipeline]")
{
    Pipeline p;
    const HttpResponse created = p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    CHECK(created.status == 200);
    CHECK(json::parse(created.body) == json({ { "QueueUrl", "http://127.0.0.1:9324/000000000000/jobs" } }));
    CHECK(p.requestIds == 1);
    CHECK(p.actorsAsked == 1);
    const HttpResponse sent = p.answer(jsonRequest(
        "SendMessage", R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": "hello"})"));
    CHECK(sent.status == 200);
    CHECK(json::parse(sent.body).at("MD5OfMessageBody") == "5d41402abc4b2a76b9719d911017c592");
    CHECK(p.engine.counters("jobs")->visible == 1);
    // A queue named nowhere: SQS's error, in the JSON protocol's shape.
    const HttpResponse missing = p.answer(jsonRequest("GetQueueUrl", R"({"QueueName": "nope"})"));
    CHECK(missing.status == 400);
    CHECK(json::parse(missing.body).at("__type") == "com.amazonaws.sqs#QueueDoesNotExist");
}

TEST_CASE("request pipeline: a page's request refused before it is read - a broken body answered - nothing changed",
    "[endpoint][pipeline]")
{
    Pipeline p;
    const HttpResponse refused
        = p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})", "Origin: https://evil.example\r\n"));
    CHECK(refused.status == 403);
    CHECK(json::parse(refused.body).at("message")
        == "Requests from web pages are refused (Origin: https://evil.example); start lifeline serve with "
           "--allow-origin ORIGIN to allow a page you trust.");
    CHECK(p.actorsAsked == 0); // no client named by a request that made no call
    const HttpResponse broken = p.answer(jsonRequest("CreateQueue", "{not json"));
    CHECK(broken.status == 400);
    CHECK(json::parse(broken.body).at("__type").get<std::string>().ends_with("#SerializationException"));
    CHECK(p.engine.listQueues().empty());
}

TEST_CASE("request pipeline: a long poll is parked with its protocol and RequestId - answered when the engine "
          "completes it",
    "[endpoint][pipeline]")
{
    Pipeline p;
    (void)p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    Reply reply = p.handle(jsonRequest("ReceiveMessage",
        R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "WaitTimeSeconds": 20, "AttributeNames": ["All"]})"));
    REQUIRE(std::holds_alternative<ParkedReceive>(reply));
    const ParkedReceive& parked = std::get<ParkedReceive>(reply);
    CHECK(parked.protocol == Protocol::Json);
    CHECK(parked.requestId == "req-2");
    CHECK(parked.view.attributeNames == std::vector<std::string> { "All" });
    CHECK(p.engine.pendingPollCount() == 1);
    p.engine.advanceBy(20000);
    const auto done = p.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == parked.poll);
    CHECK(done[0].messages.empty());
}

TEST_CASE("request pipeline: the control API's commands go to the server - its errors are answered here",
    "[endpoint][pipeline]")
{
    Pipeline p;
    const auto body = std::string(R"({"by": "30s"})");
    Reply reply = p.handle(parse("POST /_lifeline/clock/advance HTTP/1.1\r\nHost: localhost\r\nContent-Length: "
        + std::to_string(body.size()) + "\r\n\r\n" + body));
    REQUIRE(std::holds_alternative<ControlCommand>(reply));
    CHECK(std::get<ControlCommand>(reply).kind == ControlCommand::Kind::Advance);
    CHECK(std::get<ControlCommand>(reply).by == 30000);
    const HttpResponse refused = p.answer(
        parse("POST /_lifeline/reset HTTP/1.1\r\nHost: localhost\r\nOrigin: https://evil.example\r\nContent-Length: "
              "0\r\n\r\n"));
    CHECK(refused.status == 403);
    CHECK(json::parse(refused.body).at("error").at("field") == "origin");
    const HttpResponse wrong = p.answer(parse("GET /_lifeline/nothing HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    CHECK(wrong.status == 404);
    CHECK(p.requestIds == 0); // control answers carry no RequestId
    CHECK(p.actorsAsked == 0);
}

TEST_CASE("request pipeline: LocalStack's peek lists the messages in the query protocol - nothing received",
    "[endpoint][pipeline]")
{
    Pipeline p;
    (void)p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    (void)p.answer(jsonRequest(
        "SendMessage", R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": "peeked"})"));
    const HttpResponse peek = p.answer(parse("GET /_aws/sqs/messages?QueueUrl=http://127.0.0.1:9324/000000000000/"
                                             "jobs&ShowInvisible=true HTTP/1.1\r\nHost: localhost\r\n\r\n"));
    CHECK(peek.status == 200);
    CHECK(peek.body.find("<Body>peeked</Body>") != std::string::npos);
    CHECK(peek.body.find("<ReceiptHandle>SQS/BACKDOOR/ACCESS</ReceiptHandle>") != std::string::npos);
    CHECK(peek.body.find("<Name>IsVisible</Name><Value>true</Value>") != std::string::npos);
    CHECK(p.engine.counters("jobs")->visible == 1); // still there, not received
    const HttpResponse unknown = p.answer(parse("GET /_aws/sqs/messages/us-east-1/000000000000/nope HTTP/1.1\r\n"
                                                "Host: localhost\r\n\r\n"));
    CHECK(unknown.status == 400);
    CHECK(unknown.body.find("AWS.SimpleQueueService.NonExistentQueue") != std::string::npos);
}

TEST_CASE("request pipeline: a peek's answer is made a message at a time - one deleted meanwhile is left out, the "
          "document whole",
    "[endpoint][pipeline]")
{
    Pipeline p;
    (void)p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    for (const char* body : { "one", "two", "three" })
        (void)p.answer(jsonRequest("SendMessage",
            std::string(R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": ")") + body + "\"}"));
    Reply reply = p.handle(peekRequest(""));
    REQUIRE(std::holds_alternative<HttpResponse>(reply));
    HttpResponse& peek = std::get<HttpResponse>(reply);
    REQUIRE(peek.bodyParts);
    CHECK(peek.body.empty());
    CHECK(peek.serialize().find("Transfer-Encoding: chunked\r\n") != std::string::npos);
    CHECK(peek.serialize().find("Content-Length") == std::string::npos);
    const std::string first = *peek.bodyParts();
    CHECK(first
        == "<?xml version=\"1.0\"?><ReceiveMessageResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
           "<ReceiveMessageResult>"
            + first.substr(first.find("<Message>")));
    CHECK(first.find("<Body>one</Body>") != std::string::npos);
    CHECK(first.find("<Body>two</Body>") == std::string::npos); // one message a part
    // Between two parts a worker takes all three, deletes "two" and puts "three" back: the rest of the answer goes
    // on without "two", with "three" (visible, as it was peeked).
    const json received = json::parse(p.answer(jsonRequest("ReceiveMessage",
                                                   R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs",
                                                       "MaxNumberOfMessages": 10})"))
                                          .body)["Messages"];
    REQUIRE(received.size() == 3);
    for (const json& m : received) {
        const std::string handle = m["ReceiptHandle"];
        if (m["Body"] == "two")
            (void)p.answer(jsonRequest("DeleteMessage",
                R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "ReceiptHandle": ")" + handle + "\"}"));
        if (m["Body"] == "three")
            (void)p.answer(jsonRequest("ChangeMessageVisibility",
                R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "VisibilityTimeout": 0, "ReceiptHandle": ")"
                    + handle + "\"}"));
    }
    std::string rest;
    for (std::optional<std::string> part; (part = peek.bodyParts()) && !part->empty();)
        rest += *part;
    CHECK(rest.find("<Body>two</Body>") == std::string::npos);
    CHECK(rest.starts_with("<Message>"));
    CHECK(rest.find("<Body>three</Body>") != std::string::npos);
    CHECK(rest.ends_with("</Message></ReceiveMessageResult><ResponseMetadata><RequestId>req-5</RequestId>"
                         "</ResponseMetadata></ReceiveMessageResponse>"));
    CHECK(peek.bodyParts() == std::string()); // and stays at its end
    CHECK(HttpResponse::chunkHead(5) == "5\r\n");
    CHECK(HttpResponse::chunkHead(6 << 20) == "600000\r\n");
}

TEST_CASE("request pipeline: a streamed list joined is the document encodeResult makes - in both protocols",
    "[endpoint][pipeline]")
{
    // A large body of quotes, ampersands and two- and three-byte characters: written in slices, each part bounded.
    std::string large;
    while (large.size() < 300000)
        large += "\"&é€<'\r";
    const json items = json::array({ { { "Body", "a<b" }, { "MessageId", "1" } }, { { "Body", "\"c\"" } },
        { { "Body", large }, { "MD5OfBody", "x" } }, { { "Body", "" } }, { { "MessageId", "2" } } });
    for (const Protocol protocol : { Protocol::Query, Protocol::Json }) {
        size_t at = 0;
        HttpResponse streamed = encodeStreamedList(
            protocol, "ReceiveMessage", "Messages",
            [&]() -> std::optional<json> {
                if (at == items.size())
                    return std::nullopt;
                return items[at++];
            },
            "req-1");
        std::string joined;
        size_t largest = 0;
        for (std::optional<std::string> part; (part = streamed.bodyParts()) && !part->empty();) {
            joined += *part;
            largest = std::max(largest, part->size());
        }
        CHECK(largest <= 6 * 65536 + 200); // never the 1.8 MB the large body is escaped
        const HttpResponse whole = encodeResult(protocol, "ReceiveMessage", { { "Messages", items } }, "req-1");
        CHECK(joined == whole.body);
        CHECK(streamed.headers == whole.headers);
    }
}

TEST_CASE("request pipeline: LocalStack's JSON peek made a message at a time parses as the whole document",
    "[endpoint][pipeline]")
{
    Pipeline p;
    (void)p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    const HttpResponse none = p.answer(peekRequest("", "Accept: application/json\r\n"));
    CHECK(none.bodyParts == nullptr); // nothing to stream: a whole answer with its length
    CHECK(json::parse(none.body) == json::parse(R"({"ReceiveMessageResponse": {"ReceiveMessageResult": null,
                          "ResponseMetadata": {"RequestId": "req-2"}}})"));
    for (const char* body : { "one", "two" })
        (void)p.answer(jsonRequest("SendMessage",
            std::string(R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": ")") + body + "\"}"));
    const json peek = json::parse(p.answer(peekRequest("", "Accept: application/json\r\n")).body);
    const json& listed = peek.at("ReceiveMessageResponse").at("ReceiveMessageResult").at("Message");
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].at("Body") == "one");
    CHECK(listed[1].at("Body") == "two");
    CHECK(listed[1].at("ReceiptHandle") == "SQS/BACKDOOR/ACCESS");
    CHECK(peek.at("ReceiveMessageResponse").at("ResponseMetadata") == json({ { "RequestId", "req-5" } }));
}

TEST_CASE("request pipeline: a latency fault holds the answer back - the call took effect - a long poll that waits is "
          "answered when it completes",
    "[endpoint][pipeline][faults]")
{
    Pipeline p;
    p.answer(jsonRequest("CreateQueue", R"({"QueueName": "jobs"})"));
    p.engine.setFaults(FaultPlan {
        1, { FaultRule { .kind = FaultKind::Latency, .at = { 0, 0 }, .action = "SendMessage", .delay = 2500 } } });
    const HttpResponse late = p.answer(jsonRequest(
        "SendMessage", R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": "late"})"));
    CHECK(late.status == 200);
    CHECK(late.answerAfterMs == 2500);
    CHECK(json::parse(late.body).at("MD5OfMessageBody") == "f2c67381db28fa11c59fe7a6df0f2587");
    CHECK(p.engine.counters("jobs")->visible == 1); // it took effect when it came
    // Logged on the queue's row as injected.
    const EventLog& log = p.engine.log();
    REQUIRE(log.size() > 0);
    const Event last = log[log.size() - 2];
    CHECK(last.cause == Cause::FaultInjected);
    CHECK(last.detail == uint32_t(FaultKind::Latency));
    CHECK(last.queue == *p.engine.queueIndex("jobs"));
    CHECK(p.engine.faults()->struck()[size_t(FaultKind::Latency)] == 1);
    const HttpResponse second = p.answer(jsonRequest(
        "SendMessage", R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": "late"})"));
    CHECK(second.answerAfterMs == 2500); // the second `at` time
    const HttpResponse prompt = p.answer(jsonRequest(
        "SendMessage", R"({"QueueUrl": "http://127.0.0.1:9324/000000000000/jobs", "MessageBody": "prompt"})"));
    CHECK(prompt.answerAfterMs == 0);
}
