// The differences from real SQS that replaying AWS's recordings found (tests/golden), each pinned here with AWS's
// exact values: batch entry texts, server-side encryption, attribute names and filters, the trace header, and the
// query protocol's empty lists and parameter precedence.
#include "engine_fixture.h"
#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/engine/message_rules.h"

#include <sstream>

using namespace lifeline;
using namespace lifeline::test;
using json = nlohmann::json;

namespace {

endpoint::HttpRequest request(const std::string& headers, const std::string& body)
{
    endpoint::HttpParser parser;
    const std::string raw = "POST / HTTP/1.1\r\nHost: 127.0.0.1:9324\r\n" + headers
        + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    REQUIRE(parser.feed(raw) == endpoint::HttpParser::State::Complete);
    return parser.takeRequest();
}

const std::string kForm = "Content-Type: application/x-www-form-urlencoded\r\n";
const std::string kTrace = "Root=1-3152b799-8954dae64eda91bc9a23a7e8;Parent=7fa8c0f79203be72;Sampled=1";

} // namespace

TEST_CASE("fidelity: a batch entry over the queue's maximum fails in the batch's own words", "[fidelity]")
{
    Fixture f;
    f.create("q", { { "MaximumMessageSize", "1024" } });
    auto batch = f.engine.sendMessageBatch("q",
        { { "big", std::string(1025, 'a'), {}, {}, {}, {}, {} },
            { "fits", std::string(1024, 'a'), {}, {}, {}, {}, {} } });
    REQUIRE(batch.ok());
    REQUIRE(batch->failed.size() == 1);
    CHECK(batch->failed[0].id == "big");
    CHECK(batch->failed[0].code == "InvalidParameterValue");
    CHECK(batch->failed[0].senderFault);
    CHECK(batch->failed[0].message
        == "One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.");
    REQUIRE(batch->successful.size() == 1);
    CHECK(batch->successful[0].second.md5OfMessageBody.hex() == "c9a34cfc85d982698c6ac89f76071abd");
    // A single send keeps its own wording.
    CHECK(f.sendError("q", std::string(1025, 'a')).message
        == "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes.");
}

TEST_CASE("fidelity: KMS and SQS-managed encryption cannot be set in one request", "[fidelity]")
{
    Fixture f;
    f.create("q");
    const auto refused
        = f.engine.setQueueAttributes("q", { { "KmsMasterKeyId", "testKeyId" }, { "SqsManagedSseEnabled", "true" } });
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error()
        == makeError(codes::InvalidAttributeName,
            "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS "
            "SSE."));
    const std::vector<std::string> names { "KmsMasterKeyId", "SqsManagedSseEnabled" };
    CHECK(f.engine.getQueueAttributes("q", names).value() == AttributeMap { { "SqsManagedSseEnabled", "true" } });
    // One at a time: a key turns SQS's encryption off, turning SQS's on drops the key.
    REQUIRE(f.engine.setQueueAttributes("q", { { "KmsMasterKeyId", "testKeyId" } }).ok());
    CHECK(f.engine.getQueueAttributes("q", names).value()
        == AttributeMap { { "KmsMasterKeyId", "testKeyId" }, { "SqsManagedSseEnabled", "false" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "SqsManagedSseEnabled", "true" } }).ok());
    CHECK(f.engine.getQueueAttributes("q", names).value() == AttributeMap { { "SqsManagedSseEnabled", "true" } });
}

TEST_CASE(
    "fidelity: attribute names take non-ASCII letters - not symbols or reserved prefixes in any case", "[fidelity]")
{
    const auto check = [](const std::string& name, const std::string& type = "String") {
        return validateMessageAttributes({ MessageAttribute { name, { type, "Valid", {} } } });
    };
    CHECK_FALSE(check("attr.1øßä")); // AWS-val: accepted
    CHECK_FALSE(check("日本語"));
    CHECK_FALSE(check("Attribute_name", "Number.float"));
    for (const std::string& name :
        std::vector<std::string> { "Invalid-§-attr", "Invalid-!-attr", "Invalid-(-attr", "Invalid-?-attr", "aWs.-x",
            "AMAZON.-x", ".-Invalid-attr", "Invalid.", "Inva..lid", std::string(257, 'L'), "a\xC3", "x×y" }) {
        INFO(name);
        const auto error = check(name);
        REQUIRE(error);
        CHECK(error->message == "Message (user) attribute name '" + name + "' is invalid.");
    }
    const auto longType = check("Attribute_name", "Number." + std::string(256, 'L'));
    REQUIRE(longType);
    CHECK(longType->message == "Message (user) attribute 'Attribute_name' has a data type longer than 256 characters.");
    CHECK(check("Attribute_name", "Invalid")->message
        == "The message attribute 'Attribute_name' has an invalid message attribute type, the set of supported type "
           "prefixes is Binary, Number, and String.");
}

TEST_CASE("fidelity: a trace header gives the send answer MD5OfMessageSystemAttributes", "[fidelity]")
{
    Fixture f;
    f.create("q");
    SendMessageRequest send = Fixture::sendRequest("q", "test", {}, {}, {});
    send.attributes = { { "timestamp", { "Number", "1493147359900", {} } } };
    const auto plain = f.engine.sendMessage(send).value();
    send.awsTraceHeader = "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1";
    const auto traced = f.engine.sendMessage(send).value();
    CHECK(plain.md5OfMessageSystemAttributes.empty());
    CHECK(traced.md5OfMessageSystemAttributes == "5ae4d5d7636402d80f4eb6d213245a88"); // AWS-val
    CHECK(traced.md5OfMessageAttributes == plain.md5OfMessageAttributes); // system attributes do not count
    CHECK(plain.md5OfMessageAttributes == "235c5c510d26fb653d073faed50ae77c"); // AWS-snap xray-msg
}

TEST_CASE("fidelity: MessageAttributeNames * and a prefix .* select as AWS does", "[fidelity][endpoint]")
{
    Engine engine;
    endpoint::SqsService service(engine);
    const endpoint::CallContext context;
    service.call(
        "CreateQueue", json { { "QueueName", "q" }, { "Attributes", { { "VisibilityTimeout", "0" } } } }, context);
    const std::string url = "http://localhost:9324/000000000000/q";
    service.call("SendMessage",
        json::parse(R"({"QueueUrl": "http://localhost:9324/000000000000/q", "MessageBody": "msg", "MessageAttributes": {
            "Help.Me": {"DataType": "String", "StringValue": "Me"}, "Hello": {"DataType": "String", "StringValue": "There"},
            "General": {"DataType": "String", "StringValue": "Kenobi"}}})"),
        context);
    const auto receive = [&](const json& names) {
        return service.call("ReceiveMessage", json { { "QueueUrl", url }, { "MessageAttributeNames", names } }, context)
            .output["Messages"][0];
    };
    const json all = receive({ "*" });
    CHECK(all["MessageAttributes"].size() == 3);
    CHECK(all["MD5OfMessageAttributes"] == "4c360f3fdafd970e05fae2f149d997f5");
    const json prefix = receive({ "Hel.*" });
    CHECK(prefix["MessageAttributes"] == json::parse(R"({"Hello": {"DataType": "String", "StringValue": "There"},
        "Help.Me": {"DataType": "String", "StringValue": "Me"}})"));
    CHECK(prefix["MD5OfMessageAttributes"] == "83fee93c1bcd8b9a5a923ffacdc636c7");
    CHECK_FALSE(receive({ "Foo", "Help" }).contains("MessageAttributes"));
}

TEST_CASE("fidelity: X-Amzn-Trace-Id becomes AWSTraceHeader - an attribute sent wins", "[fidelity][endpoint]")
{
    const auto decoded = endpoint::decodeRequest(
        request(kForm + "X-Amzn-Trace-Id: " + kTrace + "\r\n", "Action=SendMessage&QueueUrl=q&MessageBody=x"));
    CHECK(decoded.params["MessageSystemAttributes"]
        == json { { "AWSTraceHeader", { { "DataType", "String" }, { "StringValue", kTrace } } } });
    const auto own = endpoint::decodeRequest(request(kForm + "X-Amzn-Trace-Id: other\r\n",
        "Action=SendMessage&QueueUrl=q&MessageBody=x&MessageSystemAttribute.1.Name=AWSTraceHeader"
        "&MessageSystemAttribute.1.Value.DataType=String&MessageSystemAttribute.1.Value.StringValue=mine"));
    CHECK(own.params["MessageSystemAttributes"]["AWSTraceHeader"]["StringValue"] == "mine");
    const auto batch = endpoint::decodeRequest(
        request("X-Amz-Target: AmazonSQS.SendMessageBatch\r\nX-Amzn-Trace-Id: " + kTrace + "\r\n",
            R"({"QueueUrl": "q", "Entries": [{"Id": "a", "MessageBody": "x"}]})"));
    CHECK(batch.params["Entries"][0]["MessageSystemAttributes"]["AWSTraceHeader"]["StringValue"] == kTrace);
    const auto receive = endpoint::decodeRequest(
        request(kForm + "X-Amzn-Trace-Id: " + kTrace + "\r\n", "Action=ReceiveMessage&QueueUrl=q"));
    CHECK_FALSE(receive.params.contains("MessageSystemAttributes"));
}

TEST_CASE("fidelity: the query protocol's empty lists are empty - AttributeName.N wins over the newer list",
    "[fidelity][endpoint]")
{
    const auto empty = endpoint::decodeRequest(
        request(kForm, "Action=ReceiveMessage&QueueUrl=q&MessageAttributeNames=&AttributeNames=&Attributes="));
    CHECK(empty.params
        == json { { "QueueUrl", "q" }, { "MessageAttributeNames", json::array() }, { "AttributeNames", json::array() },
            { "Attributes", json::object() } });
    Engine engine;
    endpoint::SqsService service(engine);
    service.call("CreateQueue", json { { "QueueName", "q" } }, endpoint::CallContext {});
    const auto batch = endpoint::decodeRequest(request(kForm, "Action=SendMessageBatch&QueueUrl=q&Entries="));
    CHECK(service.call(batch.action, batch.params, endpoint::CallContext {}).error
        == makeError("AWS.SimpleQueueService.EmptyBatchRequest",
            "There should be at least one SendMessageBatchRequestEntry in the request."));
    const std::string both
        = "Action=ReceiveMessage&QueueUrl=q&AttributeName.1=SenderId&MessageSystemAttributeName.1=All";
    CHECK(endpoint::decodeRequest(request(kForm, both)).params
        == json { { "QueueUrl", "q" }, { "AttributeNames", { "SenderId" } } });
    const auto json1 = endpoint::decodeRequest(request("X-Amz-Target: AmazonSQS.ReceiveMessage\r\n",
        R"({"QueueUrl": "q", "AttributeNames": ["SenderId"], "MessageSystemAttributeNames": ["All"]})"));
    CHECK(json1.params.contains("MessageSystemAttributeNames"));
}

TEST_CASE("fidelity: AddPermission writes the Policy as AWS does - RemovePermission takes it back", "[fidelity]")
{
    Fixture f;
    f.create("q");
    const std::string arn = f.arn("q"); // arn:aws:sqs:us-east-1:000000000000:q
    std::string own; // the queue's account: the ARN's fifth field
    std::istringstream fields(arn);
    for (int field = 0; field < 5; ++field)
        std::getline(fields, own, ':');
    const auto policy = [&] {
        const auto attributes = f.engine.getQueueAttributes("q", { "Policy" }).value();
        return attributes.count("Policy") ? json::parse(attributes.at("Policy")) : json();
    };
    REQUIRE(f.engine.addPermission("q", "crossaccountpermission", { "668614515564", own }, { "ReceiveMessage" }).ok());
    const json statement { { "Sid", "crossaccountpermission" }, { "Effect", "Allow" },
        { "Principal", { { "AWS", { "arn:aws:iam::668614515564:root", "arn:aws:iam::" + own + ":root" } } } },
        { "Action", "SQS:ReceiveMessage" }, { "Resource", arn } };
    CHECK(policy()
        == json { { "Version", "2008-10-17" }, { "Id", arn + "/SQSDefaultPolicy" }, { "Statement", { statement } } });
    // AWS's key order, as a client that prints the attribute sees it.
    CHECK(
        f.engine.getQueueAttributes("q", { "Policy" })
            .value()
            .at("Policy")
            .starts_with(R"({"Version":"2008-10-17","Id":")" + arn
                + R"(/SQSDefaultPolicy","Statement":[{"Sid":"crossaccountpermission","Effect":"Allow","Principal":{"AWS":[)"));
    // A label once: the second is refused and changes nothing.
    const json before = policy();
    CHECK(f.engine.addPermission("q", "crossaccountpermission", { own }, { "SendMessage" }).error()
        == makeError(codes::InvalidParameterValue,
            "Value crossaccountpermission for parameter Label is invalid. Reason: Already exists."));
    CHECK(policy() == before);
    REQUIRE(f.engine.addPermission("q", "two", { own }, { "SendMessage", "DeleteMessage" }).ok());
    CHECK(policy()["Statement"][1]["Action"] == json { "SQS:SendMessage", "SQS:DeleteMessage" });
    CHECK(policy()["Statement"][1]["Principal"]["AWS"] == "arn:aws:iam::" + own + ":root");
    // Removed one at a time; the last takes the Policy with it.
    REQUIRE(f.engine.removePermission("q", "crossaccountpermission").ok());
    REQUIRE(policy()["Statement"].size() == 1);
    CHECK(policy()["Statement"][0]["Sid"] == "two");
    REQUIRE(f.engine.removePermission("q", "two").ok());
    CHECK(policy().is_null());
    CHECK(f.engine.removePermission("q", "two").error()
        == makeError(
            codes::InvalidParameterValue, "Value two for parameter Label is invalid. Reason: can't find label."));
    // Every part is required; an unknown queue is SQS's usual refusal.
    CHECK(f.engine.addPermission("q", "", { own }, { "SendMessage" }).error()
        == makeError(codes::MissingParameter, "The request must contain the parameter Label."));
    CHECK(f.engine.addPermission("q", "x", {}, { "SendMessage" }).error()
        == makeError(codes::MissingParameter, "The request must contain the parameter AWSAccountIds."));
    CHECK(f.engine.addPermission("q", "x", { own }, {}).error()
        == makeError(codes::MissingParameter, "The request must contain the parameter Actions."));
    CHECK(f.engine.addPermission("nope", "x", { own }, { "SendMessage" }).error().code
        == "AWS.SimpleQueueService.NonExistentQueue");
    CHECK(policy().is_null());
}

TEST_CASE(
    "fidelity: AddPermission and RemovePermission over the query protocol's numbered lists", "[fidelity][endpoint]")
{
    Engine engine;
    endpoint::SqsService service(engine);
    service.call("CreateQueue", json { { "QueueName", "q" } }, endpoint::CallContext {});
    const auto add = endpoint::decodeRequest(request(kForm,
        "Action=AddPermission&QueueUrl=q&Label=l1&AWSAccountId.1=111122223333&AWSAccountId.2=444455556666"
        "&ActionName.1=SendMessage"));
    CHECK(add.params
        == json { { "QueueUrl", "q" }, { "Label", "l1" }, { "AWSAccountIds", { "111122223333", "444455556666" } },
            { "Actions", { "SendMessage" } } });
    CHECK_FALSE(service.call(add.action, add.params, endpoint::CallContext {}).error);
    const auto policy = json::parse(engine.getQueueAttributes("q", { "Policy" }).value().at("Policy"));
    CHECK(policy["Statement"][0]["Principal"]["AWS"]
        == json { "arn:aws:iam::111122223333:root", "arn:aws:iam::444455556666:root" });
    const auto noLabel = endpoint::decodeRequest(request(kForm, "Action=RemovePermission&QueueUrl=q"));
    CHECK(service.call(noLabel.action, noLabel.params, endpoint::CallContext {}).error
        == makeError(codes::MissingParameter, "The request must contain the parameter Label."));
    const auto remove = endpoint::decodeRequest(request(kForm, "Action=RemovePermission&QueueUrl=q&Label=l1"));
    CHECK_FALSE(service.call(remove.action, remove.params, endpoint::CallContext {}).error);
    CHECK(engine.getQueueAttributes("q", { "Policy" }).value().empty());
}
