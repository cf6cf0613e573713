// The local endpoint without sockets: HTTP parsing and its limits, both protocols' decoding and encoding, and the
// service over the engine with SQS's exact answers and errors.
#include "http_requests.h"
#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/observe/observed_call.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::endpoint;
using json = nlohmann::json;

using lifeline::test::jsonRequest;
using lifeline::test::parse;
using lifeline::test::queryRequest;

TEST_CASE("http: a request arrives in pieces - pipelined requests - keep-alive", "[endpoint][http]")
{
    HttpParser parser;
    const std::string one = "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello";
    const std::string two = "GET /b?Action=ListQueues HTTP/1.1\r\nConnection: close\r\n\r\n";
    CHECK(parser.feed(one.substr(0, 10)) == HttpParser::State::NeedMore);
    CHECK(parser.feed(one.substr(10, 40)) == HttpParser::State::NeedMore);
    CHECK(parser.feed(one.substr(50) + two) == HttpParser::State::Complete);
    CHECK(parser.request().method == "POST");
    CHECK(parser.request().path() == "/a");
    CHECK(parser.request().body == "hello");
    CHECK(parser.request().header("host") == "x");
    CHECK(parser.request().keepAlive);
    parser.next();
    REQUIRE(parser.state() == HttpParser::State::Complete);
    CHECK(parser.request().query() == "Action=ListQueues");
    CHECK_FALSE(parser.request().keepAlive);
}

TEST_CASE("http: header text is read in ASCII - a list's tokens whole, not substrings", "[endpoint][http]")
{
    CHECK(endpoint::asciiLower("Keep-ALIVE \xC4\xB0") == "keep-alive \xC4\xB0"); // bytes past ASCII stay as they are
    CHECK(endpoint::trimWhitespace(" \t close \r") == "close");
    CHECK(endpoint::hasListToken("Keep-Alive, Upgrade", "upgrade"));
    CHECK(endpoint::hasListToken("gzip ,  Chunked", "chunked"));
    CHECK_FALSE(endpoint::hasListToken("not-close", "close"));
    CHECK_FALSE(endpoint::hasListToken("", "close"));
    HttpParser parser;
    REQUIRE(
        parser.feed("GET / HTTP/1.1\r\nConnection: keep-alive-but-close-later\r\n\r\n") == HttpParser::State::Complete);
    CHECK(parser.request().keepAlive); // neither token: HTTP/1.1 keeps the connection
    parser.next();
    REQUIRE(parser.feed("GET / HTTP/1.1\r\nConnection: TE, Close\r\n\r\n") == HttpParser::State::Complete);
    CHECK_FALSE(parser.request().keepAlive);
}

TEST_CASE("http: Expect 100-continue is asked for once a request, however its body arrives", "[endpoint][http]")
{
    HttpParser parser;
    const std::string head = "POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 6\r\n\r\n";
    CHECK_FALSE(parser.expectsContinue());
    REQUIRE(parser.feed(head) == HttpParser::State::NeedMore);
    CHECK(parser.expectsContinue());
    parser.continueSent();
    CHECK_FALSE(parser.expectsContinue());
    REQUIRE(parser.feed("abc") == HttpParser::State::NeedMore);
    CHECK_FALSE(parser.expectsContinue()); // the server wrote it already: a second 100 would read as the answer
    REQUIRE(parser.feed("def" + head) == HttpParser::State::Complete);
    CHECK(parser.request().body == "abcdef");
    parser.next();
    CHECK(parser.expectsContinue()); // the next request asks again
}

TEST_CASE("http: a chunked body where the server takes one - fed a byte at a time, pipelined, and refused when "
          "malformed or too large",
    "[endpoint][http]")
{
    const HttpLimits chunking { .maxHeaderBytes = 1024, .maxBodyBytes = 32, .acceptChunked = true };
    const std::string request = "POST /v1/traces HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n";
    HttpParser parser(chunking);
    for (const char c : request.substr(0, request.size() - 1))
        REQUIRE(parser.feed(std::string_view(&c, 1)) == HttpParser::State::NeedMore);
    REQUIRE(parser.feed(request.substr(request.size() - 1) + "GET / HTTP/1.1\r\n\r\n") == HttpParser::State::Complete);
    CHECK(parser.request().body == "hello, world");
    parser.next();
    REQUIRE(parser.state() == HttpParser::State::Complete); // the pipelined GET behind it
    CHECK(parser.request().method == "GET");

    const auto refused = [&](const std::string& body) {
        HttpParser p(chunking);
        p.feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + body);
        return p.state() == HttpParser::State::Error ? p.errorStatus() : 0;
    };
    CHECK(refused("zz\r\n") == 400);
    CHECK(refused("3\r\nabcd\r\n") == 400); // longer than its size says
    CHECK(refused("21\r\n") == 413); // 33 bytes: over the limit before they come
    CHECK(refused("10\r\n" + std::string(16, 'a') + "\r\n11\r\n") == 413);
    HttpParser gzip(chunking);
    gzip.feed("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
    CHECK(gzip.errorStatus() == 501);
    HttpParser both(chunking);
    both.feed("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n");
    CHECK(both.errorStatus() == 400);
}

TEST_CASE("http: limits and malformed requests get the right status", "[endpoint][http]")
{
    HttpParser small(HttpLimits { 64, 10 });
    CHECK(small.feed("GET / HTTP/1.1\r\nX-Long: " + std::string(100, 'a')) == HttpParser::State::Error);
    CHECK(small.errorStatus() == 431);
    HttpParser body(HttpLimits { 1024, 10 });
    CHECK(body.feed("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n") == HttpParser::State::Error);
    CHECK(body.errorStatus() == 413);
    HttpParser chunked;
    CHECK(chunked.feed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == HttpParser::State::Error);
    CHECK(chunked.errorStatus() == 411);
    HttpParser garbage;
    CHECK(garbage.feed("HELLO\r\n\r\n") == HttpParser::State::Error);
    CHECK(garbage.errorStatus() == 400);
    HttpParser version;
    CHECK(version.feed("GET / HTTP/2.0\r\n\r\n") == HttpParser::State::Error);
    CHECK(version.errorStatus() == 505);
    HttpParser length;
    CHECK(length.feed("POST / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n") == HttpParser::State::Error);
    CHECK(length.errorStatus() == 400);
    CHECK(urlDecode("a%2Fb+c") == std::optional<std::string>("a/b c"));
    CHECK_FALSE(urlDecode("%4"));
    CHECK_FALSE(urlDecode("%zz"));
}

TEST_CASE("query protocol: flattened lists and maps fold into the JSON input shape", "[endpoint][query]")
{
    const auto decoded = decodeRequest(queryRequest(
        "Action=SendMessageBatch&Version=2012-11-05&QueueUrl=http%3A%2F%2Flocalhost%3A9324%2F000000000000%2Fq1"
        "&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=x"
        "&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=y"
        "&SendMessageBatchRequestEntry.2.DelaySeconds=3"
        "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Name=k"
        "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.DataType=String"
        "&SendMessageBatchRequestEntry.2.MessageAttribute.1.Value.StringValue=v"));
    REQUIRE_FALSE(decoded.error);
    CHECK(decoded.protocol == Protocol::Query);
    CHECK(decoded.action == "SendMessageBatch");
    CHECK(decoded.params == json::parse(R"({"QueueUrl": "http://localhost:9324/000000000000/q1", "Entries": [
            {"Id": "a", "MessageBody": "x"},
            {"Id": "b", "MessageBody": "y", "DelaySeconds": "3",
             "MessageAttributes": {"k": {"DataType": "String", "StringValue": "v"}}}]})"));
    const auto create = decodeRequest(queryRequest("Action=CreateQueue&QueueName=q1.fifo&Attribute.1.Name=FifoQueue"
                                                   "&Attribute.1.Value=true&Attribute.2.Name=VisibilityTimeout"
                                                   "&Attribute.2.Value=40&Tag.1.Key=team&Tag.1.Value=blue"));
    CHECK(create.params
        == json::parse(R"({"QueueName": "q1.fifo", "Attributes": {"FifoQueue": "true", "VisibilityTimeout": "40"},
            "Tags": {"team": "blue"}})"));
    const auto receive = decodeRequest(
        queryRequest("Action=ReceiveMessage&QueueUrl=u&AttributeName.1=All&MessageAttributeName.1=All"));
    CHECK(receive.params == json::parse(R"({"QueueUrl": "u", "AttributeNames": ["All"],
        "MessageAttributeNames": ["All"]})"));
    CHECK(decodeRequest(queryRequest("Version=2012-11-05")).error->code == "MissingAction");
    CHECK(decodeRequest(queryRequest("Action=%ZZ")).error->code == "MalformedQueryString");
    // GET with a query string works too.
    const auto get = decodeRequest(parse("GET /000000000000/q1?Action=GetQueueAttributes&AttributeName.1=All "
                                         "HTTP/1.1\r\nHost: h\r\n\r\n"));
    CHECK(get.action == "GetQueueAttributes");
}

TEST_CASE("JSON protocol: the target names the action - a bad body is a SerializationException", "[endpoint][json]")
{
    const auto decoded = decodeRequest(jsonRequest("SendMessage", R"({"QueueUrl": "u", "MessageBody": "hi"})"));
    CHECK(decoded.protocol == Protocol::Json);
    CHECK(decoded.action == "SendMessage");
    CHECK(decoded.params["MessageBody"] == "hi");
    CHECK(decodeRequest(jsonRequest("SendMessage", "{not json")).error->code == "SerializationException");
    CHECK(decodeRequest(jsonRequest("SendMessage", "[1]")).error->code == "SerializationException");
}

TEST_CASE("errors are encoded as each protocol's clients expect", "[endpoint][errors]")
{
    const SqsError missing = makeError(codes::NonExistentQueue, "The specified queue does not exist.");
    const HttpResponse json = encodeError(Protocol::Json, missing, "rid");
    CHECK(json.status == 400);
    CHECK(json.body
        == R"({"__type":"com.amazonaws.sqs#QueueDoesNotExist","message":"The specified queue does not exist."})");
    bool header = false;
    for (const auto& [name, value] : json.headers)
        header = header || (name == "x-amzn-query-error" && value == "AWS.SimpleQueueService.NonExistentQueue;Sender");
    CHECK(header);
    const HttpResponse query = encodeError(Protocol::Query, missing, "rid");
    CHECK(query.body
        == "<?xml version=\"1.0\"?><ErrorResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\"><Error>"
           "<Type>Sender</Type><Code>AWS.SimpleQueueService.NonExistentQueue</Code><Message>The specified queue does "
           "not exist for this wsdl version.</Message><Detail/></Error><RequestId>rid</RequestId></ErrorResponse>");
    CHECK(jsonErrorType("QueueAlreadyExists") == "QueueNameExists");
    CHECK(jsonErrorType("InvalidParameterValue") == "InvalidParameterValueException");
    CHECK(jsonErrorType("MissingParameter") == "MissingRequiredParameterException");
    CHECK(jsonErrorType("AWS.SimpleQueueService.PurgeQueueInProgress") == "PurgeQueueInProgress");
    CHECK(encodeError(Protocol::Json, makeError(codes::PurgeQueueInProgress, "x", 403), "r").status == 403);
}

TEST_CASE("service: a queue's life over both protocols' shapes", "[endpoint][service]")
{
    Engine engine;
    SqsService service(engine);
    CallContext context { "127.0.0.1:9324", "/", 3 };
    auto created = service.call(
        "CreateQueue", json { { "QueueName", "jobs" }, { "Attributes", { { "VisibilityTimeout", "5" } } } }, context);
    REQUIRE_FALSE(created.error);
    CHECK(created.output == json { { "QueueUrl", "http://127.0.0.1:9324/000000000000/jobs" } });
    const std::string url = created.output["QueueUrl"];
    auto sent = service.call("SendMessage", json { { "QueueUrl", url }, { "MessageBody", "hello" } }, context);
    REQUIRE_FALSE(sent.error);
    CHECK(sent.output["MD5OfMessageBody"] == "5d41402abc4b2a76b9719d911017c592");
    CHECK(engine.log()[engine.log().size() - 1].actor == 3); // the client is on the timeline
    auto received = service.call(
        "ReceiveMessage", json { { "QueueUrl", url }, { "AttributeNames", { "ApproximateReceiveCount" } } }, context);
    REQUIRE(received.output["Messages"].size() == 1);
    const json& message = received.output["Messages"][0];
    CHECK(message["Body"] == "hello");
    CHECK(message["Attributes"] == json { { "ApproximateReceiveCount", "1" } });
    // Rendered as query XML: flattened Message and Attribute elements.
    const HttpResponse xml = encodeResult(Protocol::Query, "ReceiveMessage", received.output, "rid");
    CHECK(xml.body.find("<ReceiveMessageResult><Message><Attributes>") == std::string::npos);
    CHECK(xml.body.find("<ReceiveMessageResult><Message>") != std::string::npos);
    CHECK(xml.body.find("<Body>hello</Body>") != std::string::npos);
    CHECK(xml.body.find("<Attribute><Name>ApproximateReceiveCount</Name><Value>1</Value></Attribute>")
        != std::string::npos);
    // A wait with nothing there is a pending poll that a later send completes.
    auto waiting = service.call("ReceiveMessage", json { { "QueueUrl", url }, { "WaitTimeSeconds", 20 } }, context);
    REQUIRE(waiting.pendingPoll);
    service.call("SendMessage", json { { "QueueUrl", url }, { "MessageBody", "late" } }, context);
    const auto done = engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == *waiting.pendingPoll);
    CHECK(service.renderMessages(done[0].messages, waiting.view)["Messages"][0]["Body"] == "late");
    // A client that goes away ends its poll: a later message stays for someone else.
    auto gone = service.call("ReceiveMessage", json { { "QueueUrl", url }, { "WaitTimeSeconds", 20 } }, context);
    REQUIRE(gone.pendingPoll);
    CHECK(engine.cancelPoll(*gone.pendingPoll));
    CHECK_FALSE(engine.cancelPoll(*gone.pendingPoll));
    CHECK(engine.pendingPollCount() == 0);
    // The queue named by the path when QueueUrl is absent.
    auto byPath = service.call("GetQueueAttributes", json { { "AttributeNames", { "VisibilityTimeout" } } },
        CallContext { "h", "/000000000000/jobs", 0 });
    CHECK(byPath.output == json { { "Attributes", { { "VisibilityTimeout", "5" } } } });
    // Errors: SQS's own.
    CHECK(service.call("GetQueueUrl", json { { "QueueName", "nope" } }, context).error
        == makeError(codes::NonExistentQueue, "The specified queue does not exist."));
    CHECK(service.call("SendMessage", json { { "QueueUrl", url } }, context).error
        == makeError(codes::MissingParameter, "The request must contain the parameter MessageBody."));
    CHECK(service
              .call("SendMessage", json { { "QueueUrl", url }, { "MessageBody", "x" }, { "DelaySeconds", "soon" } },
                  context)
              .error->message
        == "Value soon for parameter DelaySeconds is invalid. Reason: Must be an integer.");
    CHECK(service.call("Explode", json::object(), context).error->code == "InvalidAction");
    CHECK(engine.messageCount() == 2); // nothing the refusals touched
}

TEST_CASE("service: batches answer per entry - FIFO timers are refused with SQS's text", "[endpoint][service]")
{
    Engine engine;
    SqsService service(engine);
    const CallContext context;
    service.call("CreateQueue",
        json { { "QueueName", "f.fifo" },
            { "Attributes", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } } } },
        context);
    const std::string url = "http://localhost:9324/000000000000/f.fifo";
    auto timer = service.call("SendMessage",
        json { { "QueueUrl", url }, { "MessageBody", "x" }, { "MessageGroupId", "g" }, { "DelaySeconds", 2 } },
        context);
    CHECK(timer.error
        == makeError(codes::InvalidParameterValue,
            "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid "
            "for this queue type."));
    auto batch = service.call("SendMessageBatch",
        json::parse(R"({"QueueUrl": "http://localhost:9324/000000000000/f.fifo", "Entries": [
            {"Id": "ok", "MessageBody": "a", "MessageGroupId": "g"}, {"Id": "timer", "MessageBody": "b", "MessageGroupId": "g", "DelaySeconds": 5}]})"),
        context);
    INFO((batch.error ? batch.error->code + ": " + batch.error->message : std::string()));
    REQUIRE_FALSE(batch.error);
    CHECK(batch.output["Successful"].size() == 1);
    CHECK(batch.output["Successful"][0]["Id"] == "ok");
    CHECK(batch.output["Successful"][0]["SequenceNumber"].is_string());
    REQUIRE(batch.output["Failed"].size() == 1);
    CHECK(batch.output["Failed"][0]["Id"] == "timer");
    CHECK(batch.output["Failed"][0]["Code"] == "InvalidParameterValue");
    const HttpResponse xml = encodeResult(Protocol::Query, "SendMessageBatch", batch.output, "r");
    CHECK(xml.body.find("<SendMessageBatchResultEntry><Id>ok</Id>") != std::string::npos);
    CHECK(
        xml.body.find("<BatchResultErrorEntry><Code>InvalidParameterValue</Code><Id>timer</Id>") != std::string::npos);
}

TEST_CASE("requests nested 200,000 deep in any field are refused before they are walked", "[endpoint][limits]")
{
    const std::string deep = std::string(200000, '[') + std::string(200000, ']');
    const std::string deepObject = [] {
        std::string text;
        for (int i = 0; i < 100000; ++i)
            text += "{\"a\":";
        text += "1";
        return text + std::string(100000, '}');
    }();
    for (const char* field : { "QueueName", "QueueUrl", "MessageBody", "Attributes", "Entries", "MaxNumberOfMessages",
             "MessageAttributes", "Tags" }) {
        for (const std::string* value : { &deep, &deepObject }) {
            const auto decoded
                = decodeRequest(jsonRequest("SendMessage", std::string("{\"") + field + "\": " + *value + "}"));
            REQUIRE(decoded.error.has_value());
            CHECK(decoded.error->code == "SerializationException");
            CHECK(decoded.error->message == "The request body nests deeper than 32 levels.");
            const auto response = encodeError(decoded.protocol, *decoded.error, "id");
            CHECK(response.status == 400);
        }
    }
    // As deep as SQS's own shapes go, and a little more, is fine.
    const auto fine = decodeRequest(jsonRequest("SendMessageBatch",
        R"({"QueueUrl": "q", "Entries": [{"Id": "a", "MessageBody": "b", "MessageAttributes":
            {"k": {"DataType": "String", "StringValue": "v", "StringListValues": [[[["x"]]]]}}}]})"));
    CHECK_FALSE(fine.error.has_value());
    // Query keys: a key of 10,000 parts is refused; SQS's deepest are fine.
    std::string key = "SendMessageBatchRequestEntry.1";
    for (int i = 0; i < 5000; ++i)
        key += ".SendMessageBatchRequestEntry.1";
    const auto query = decodeRequest(queryRequest("Action=SendMessageBatch&" + key + ".Id=a"));
    REQUIRE(query.error.has_value());
    CHECK(query.error->code == "MalformedQueryString");
    CHECK(query.error->message.ends_with("... has more than 12 parts."));
    CHECK_FALSE(decodeRequest(queryRequest("Action=SendMessageBatch&QueueUrl=q&SendMessageBatchRequestEntry.1.Id=a"
                                           "&SendMessageBatchRequestEntry.1.MessageAttribute.1.Value.StringValue=v"))
                    .error.has_value());
}

TEST_CASE("http: bare LF line endings are read as a tolerant reader may (RFC 9112 2.2)", "[endpoint][http]")
{
    HttpParser parser;
    CHECK(parser.feed("\nPOST /q HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello"
                      "GET /b HTTP/1.1\r\nHost: y\nConnection: close\r\n\r\n")
        == HttpParser::State::Complete);
    CHECK(parser.request().method == "POST");
    CHECK(parser.request().header("host") == "x");
    CHECK(parser.request().body == "hello");
    parser.next();
    REQUIRE(parser.state() == HttpParser::State::Complete);
    CHECK(parser.request().path() == "/b");
    CHECK(parser.request().header("host") == "y");
    CHECK_FALSE(parser.request().keepAlive);
    // Still incomplete until the empty line arrives, whichever ending it has.
    HttpParser partial;
    CHECK(partial.feed("GET / HTTP/1.1\nHost: z\n") == HttpParser::State::NeedMore);
    CHECK(partial.feed("\n") == HttpParser::State::Complete);
}

TEST_CASE("browsers cannot drive the endpoint: Origin, GET changes and foreign Hosts get 403", "[endpoint][guard]")
{
    const auto requestWith = [](const std::string& method, const std::string& target, const std::string& headers) {
        return parse(method + " " + target + " HTTP/1.1\r\n" + headers + "Content-Length: 0\r\n\r\n");
    };
    GuardOptions options;
    // A form posted by a page on another site.
    auto refused = guardRequest(
        requestWith("POST", "/", "Host: 127.0.0.1:9324\r\nOrigin: https://evil.example\r\n"), "DeleteQueue", options);
    REQUIRE(refused.has_value());
    CHECK(refused->code == "AccessDenied");
    CHECK(refused->httpStatus == 403);
    CHECK(refused->message
        == "Requests from web pages are refused (Origin: https://evil.example); start lifeline serve with "
           "--allow-origin ORIGIN to allow a page you trust.");
    CHECK(guardRequest(
        requestWith("POST", "/", "Host: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\n"), "SendMessage", options));
    // GET that changes state: an <img src> could send it.
    refused = guardRequest(
        requestWith("GET", "/?Action=DeleteQueue&QueueUrl=q", "Host: localhost:9324\r\n"), "DeleteQueue", options);
    REQUIRE(refused.has_value());
    CHECK(refused->message
        == "The action DeleteQueue changes state and is refused over GET (a web page can make a browser send GET); "
           "use POST, or start lifeline serve with --allow-get-actions.");
    CHECK(
        guardRequest(requestWith("GET", "/?Action=ReceiveMessage", "Host: localhost\r\n"), "ReceiveMessage", options));
    // HEAD: a no-cors fetch() sends it from any page, without an Origin. Refused even where GET is allowed.
    for (const bool getAllowed : { false, true }) {
        GuardOptions withGet = options;
        withGet.allowGetActions = getAllowed;
        refused
            = guardRequest(requestWith("HEAD", "/?Action=SendMessage&QueueUrl=q&MessageBody=x", "Host: localhost\r\n"),
                "SendMessage", withGet);
        REQUIRE(refused.has_value());
        CHECK(refused->message
            == "The action SendMessage changes state and is refused over HEAD (a web page can make a browser send "
               "HEAD); use POST.");
    }
    CHECK(guardRequest(
        requestWith("PUT", "/?Action=PurgeQueue&QueueUrl=q", "Host: localhost\r\n"), "PurgeQueue", options));
    CHECK_FALSE(guardRequest(requestWith("GET", "/?Action=ListQueues", "Host: localhost\r\n"), "ListQueues", options));
    // DNS rebinding: a name that is not ours.
    refused = guardRequest(requestWith("POST", "/", "Host: attacker.example:9324\r\n"), "SendMessage", options);
    REQUIRE(refused.has_value());
    CHECK(refused->message.starts_with("The Host attacker.example is not this endpoint's address"));
    // What real clients send passes: an IP literal, localhost, IPv6, no Origin.
    for (const char* host : { "127.0.0.1:9324", "localhost:9324", "[::1]:9324", "192.168.1.20:9324", "app.localhost" })
        CHECK_FALSE(
            guardRequest(requestWith("POST", "/", std::string("Host: ") + host + "\r\n"), "SendMessage", options));
    // The opt-ins.
    options.allowedOrigins = { "https://dashboard.example" };
    options.allowedHosts = { "devbox" };
    options.allowGetActions = true;
    CHECK_FALSE(guardRequest(
        requestWith("POST", "/", "Host: 127.0.0.1\r\nOrigin: https://dashboard.example\r\n"), "SendMessage", options));
    CHECK(guardRequest(
        requestWith("POST", "/", "Host: 127.0.0.1\r\nOrigin: https://other.example\r\n"), "SendMessage", options));
    CHECK_FALSE(guardRequest(requestWith("POST", "/", "Host: devbox:9324\r\n"), "SendMessage", options));
    CHECK_FALSE(
        guardRequest(requestWith("GET", "/?Action=DeleteQueue", "Host: localhost\r\n"), "DeleteQueue", options));
}

TEST_CASE("endpoint: a client's queue-level calls are its own events, not the operator's", "[endpoint][actors]")
{
    Engine engine;
    SqsService service(engine);
    CallContext context;
    context.host = "127.0.0.1:9324";
    context.actor = 7;
    REQUIRE_FALSE(service.call("CreateQueue", json { { "QueueName", "q" } }, context).error);
    REQUIRE_FALSE(service
                      .call("SetQueueAttributes",
                          json { { "QueueUrl", "http://127.0.0.1:9324/000000000000/q" },
                              { "Attributes", { { "VisibilityTimeout", "5" } } } },
                          context)
                      .error);
    REQUIRE(service
                .call("SetQueueAttributes",
                    json { { "QueueUrl", "http://127.0.0.1:9324/000000000000/q" },
                        { "Attributes", { { "DelaySeconds", "901" } } } },
                    context)
                .error);
    REQUIRE_FALSE(
        service.call("PurgeQueue", json { { "QueueUrl", "http://127.0.0.1:9324/000000000000/q" } }, context).error);
    REQUIRE(engine.log().size() == 3);
    for (size_t i = 0; i < engine.log().size(); ++i)
        CHECK(engine.log()[i].actor == 7);
}

TEST_CASE("endpoint: the action table - every name found, the read-only and observed ones exactly", "[endpoint]")
{
    using endpoint::SqsAction;
    std::vector<std::string> readOnly, observed;
    for (const auto& info : endpoint::kSqsActions) {
        INFO(std::string(info.name));
        CHECK(endpoint::sqsActionNamed(info.name) == info.action);
        CHECK(endpoint::nameOf(info.action) == info.name);
        if (info.readOnly)
            readOnly.emplace_back(info.name);
        if (info.observed)
            observed.emplace_back(info.name);
    }
    CHECK(endpoint::kSqsActions.size() == 23); // every action of the SQS API reference
    CHECK(readOnly
        == std::vector<std::string> { "GetQueueUrl", "ListQueues", "GetQueueAttributes", "ListDeadLetterSourceQueues",
            "ListMessageMoveTasks", "ListQueueTags" });
    CHECK(observed
        == std::vector<std::string> { "CreateQueue", "GetQueueUrl", "GetQueueAttributes", "SetQueueAttributes",
            "DeleteQueue", "PurgeQueue", "SendMessage", "SendMessageBatch", "ReceiveMessage", "DeleteMessage",
            "DeleteMessageBatch", "ChangeMessageVisibility", "ChangeMessageVisibilityBatch" });
    CHECK_FALSE(endpoint::sqsActionNamed("receivemessage")); // names are case-sensitive, as SQS's are
    CHECK_FALSE(endpoint::sqsActionNamed("PublishBatch"));
    CHECK(endpoint::isReadOnlyAction("ListQueues"));
    CHECK_FALSE(endpoint::isReadOnlyAction("ReceiveMessage")); // it changes visibility
    CHECK(observe::isObserved("ReceiveMessage"));
    CHECK_FALSE(observe::isObserved("ListQueues"));
}

TEST_CASE(
    "service: ListDeadLetterSourceQueues pages by MaxResults and NextToken as ListQueues does", "[endpoint][service]")
{
    Engine engine;
    SqsService service(engine);
    CallContext context { "127.0.0.1:9324", "/", 3 };
    const auto url = [](const std::string& name) { return "http://127.0.0.1:9324/000000000000/" + name; };
    REQUIRE_FALSE(service.call("CreateQueue", json { { "QueueName", "dlq" } }, context).error);
    const std::string policy
        = R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:dlq","maxReceiveCount":3})";
    for (const char* name : { "a", "b", "c" })
        REQUIRE_FALSE(
            service
                .call("CreateQueue", json { { "QueueName", name }, { "Attributes", { { "RedrivePolicy", policy } } } },
                    context)
                .error);
    auto all = service.call("ListDeadLetterSourceQueues", json { { "QueueUrl", url("dlq") } }, context);
    CHECK(all.output == json { { "queueUrls", { url("a"), url("b"), url("c") } } });
    auto first
        = service.call("ListDeadLetterSourceQueues", json { { "QueueUrl", url("dlq") }, { "MaxResults", 2 } }, context);
    REQUIRE(first.output["queueUrls"] == json { url("a"), url("b") });
    REQUIRE(first.output.contains("NextToken"));
    auto rest = service.call("ListDeadLetterSourceQueues",
        json { { "QueueUrl", url("dlq") }, { "MaxResults", 2 }, { "NextToken", first.output["NextToken"] } }, context);
    CHECK(rest.output == json { { "queueUrls", { url("c") } } });
    auto none = service.call("ListDeadLetterSourceQueues", json { { "QueueUrl", url("a") } }, context);
    CHECK(none.output == json { { "queueUrls", json::array() } }); // an empty list, as AWS gives it
    auto refused
        = service.call("ListDeadLetterSourceQueues", json { { "QueueUrl", url("dlq") }, { "MaxResults", 0 } }, context);
    REQUIRE(refused.error);
    CHECK(refused.error->message
        == "Value 0 for parameter MaxResults is invalid. Reason: MaxResults must be an integer between 1 and 1000.");
}

TEST_CASE("service: with quotas a FIFO queue's 301st SendMessage in a second is ThrottlingException on the wire",
    "[endpoint][service][quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    SqsService service(engine);
    CallContext context { "127.0.0.1:9324", "/", 3 };
    const auto created = service.call(
        "CreateQueue", json { { "QueueName", "jobs.fifo" }, { "Attributes", { { "FifoQueue", "true" } } } }, context);
    REQUIRE_FALSE(created.error);
    const std::string url = created.output["QueueUrl"];
    const auto send = [&](int i) {
        return service.call("SendMessage",
            json { { "QueueUrl", url }, { "MessageBody", "m" + std::to_string(i) }, { "MessageGroupId", "g" },
                { "MessageDeduplicationId", "m" + std::to_string(i) } },
            context);
    };
    for (int i = 0; i < 300; ++i)
        REQUIRE_FALSE(send(i).error);
    const auto throttled = send(300);
    REQUIRE(throttled.error);
    const HttpResponse asJson = encodeError(Protocol::Json, *throttled.error, "rid");
    CHECK(asJson.status == 400);
    CHECK(json::parse(asJson.body)["__type"] == "com.amazonaws.sqs#ThrottlingException");
    CHECK(json::parse(asJson.body)["message"] == "The request was denied due to request throttling.");
    const HttpResponse asXml = encodeError(Protocol::Query, *throttled.error, "rid");
    CHECK(asXml.body.find("<Code>ThrottlingException</Code>") != std::string::npos);
    CHECK(engine.counters("jobs.fifo")->visible == 300);
}
