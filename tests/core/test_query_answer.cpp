// The recording proxy's reading of an upstream's query-protocol (XML) answers into the JSON protocol's shape.
#include "lifeline/aws/query_answer.h"

#include <catch2/catch.hpp>

namespace aws = lifeline::aws;
using aws::queryAnswerAsJson;
using nlohmann::json;

TEST_CASE("query answer: a receive's messages, their attributes, and no message attributes", "[proxy][xml]")
{
    const json answer = aws::queryAnswerAsJson(
        R"(<?xml version="1.0"?><ReceiveMessageResponse xmlns="http://queue.amazonaws.com/doc/2012-11-05/">)"
        "<ReceiveMessageResult><Message><MessageId>5fea7756-0ea4-451a-a703-a558b933e274</MessageId>"
        "<ReceiptHandle>MbZj6wDWli</ReceiptHandle><MD5OfBody>fafb00f5732ab283681e124bf8747ed1</MD5OfBody>"
        "<Body>a &lt;b&gt; &amp; c</Body><Attribute><Name>SenderId</Name><Value>195004372649</Value></Attribute>"
        "<Attribute><Name>ApproximateReceiveCount</Name><Value>2</Value></Attribute><MessageAttribute><Name>k</Name>"
        "<Value><StringValue>v</StringValue><DataType>String</DataType></Value></MessageAttribute></Message>"
        "<Message><MessageId>m2</MessageId><Body></Body></Message></ReceiveMessageResult>"
        "<ResponseMetadata><RequestId>b6633655</RequestId></ResponseMetadata></ReceiveMessageResponse>");
    const json expected = json::parse(R"({"Messages": [
        {"MessageId": "5fea7756-0ea4-451a-a703-a558b933e274", "ReceiptHandle": "MbZj6wDWli",
         "MD5OfBody": "fafb00f5732ab283681e124bf8747ed1", "Body": "a <b> & c",
         "Attributes": {"SenderId": "195004372649", "ApproximateReceiveCount": "2"}},
        {"MessageId": "m2", "Body": ""}]})");
    CHECK(answer == expected);
    // An empty receive is an empty result.
    CHECK(queryAnswerAsJson("<ReceiveMessageResponse><ReceiveMessageResult/></ReceiveMessageResponse>")
        == json::object());
}

TEST_CASE("query answer: a batch's entries are Successful and Failed, an error the JSON error shape", "[proxy][xml]")
{
    CHECK(aws::queryAnswerAsJson(
              "<SendMessageBatchResponse><SendMessageBatchResult><SendMessageBatchResultEntry><Id>a</Id>"
              "<MessageId>m1</MessageId></SendMessageBatchResultEntry><BatchResultErrorEntry><Id>b</Id>"
              "<Code>InvalidParameterValue</Code><SenderFault>true</SenderFault>"
              "</BatchResultErrorEntry></SendMessageBatchResult></SendMessageBatchResponse>")
        == json::parse(R"({"Successful": [{"Id": "a", "MessageId": "m1"}],
                           "Failed": [{"Id": "b", "Code": "InvalidParameterValue", "SenderFault": "true"}]})"));
    CHECK(queryAnswerAsJson(R"(<?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type>)"
                            "<Code>AWS.SimpleQueueService.NonExistentQueue</Code>"
                            "<Message>The specified queue does not exist.</Message><Detail/></Error>"
                            "<RequestId>x</RequestId></ErrorResponse>")
        == json { { "__type", "AWS.SimpleQueueService.NonExistentQueue" },
            { "message", "The specified queue does not exist." } });
    // An error without its parts still has the shape.
    CHECK(queryAnswerAsJson("<ErrorResponse><Error>text</Error></ErrorResponse>")
        == json { { "__type", "" }, { "message", "" } });
}

TEST_CASE("query answer: what is not SQS's XML reads as nothing, and never throws", "[proxy][xml]")
{
    for (const char* bytes : { "", "not xml", "<ReceiveMessageResponse><ReceiveMessageResult><Message>", "<a><b></a>",
             "<a>text</a>", "<?xml version=\"1.0\"?>" }) {
        INFO(bytes);
        CHECK(aws::queryAnswerAsJson(bytes) == json::object());
    }
    // What follows the root's end is not read.
    CHECK(aws::queryAnswerAsJson("<XResponse><XResult><QueueUrl>u</QueueUrl></XResult></XResponse><<garbage")
        == json { { "QueueUrl", "u" } });
    // An attribute whose name is not text keeps its value under an empty name; an "Attributes" element of text gives
    // way to the attributes that follow it.
    CHECK(queryAnswerAsJson("<R><GetQueueAttributesResult><Attributes>t</Attributes><Attribute><Name><x/></Name>"
                            "<Value>v</Value></Attribute></GetQueueAttributesResult></R>")
        == json { { "Attributes", { { "", "v" } } } });
    // Entities that expand a billion times are refused by expat, not expanded.
    const std::string laughs
        = R"(<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">)"
          R"(<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">)"
          R"(<!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">)"
          R"(<!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">)"
          R"(<!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;"><!ENTITY i "&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;">)"
          R"(]><XResponse><XResult><Body>&i;</Body></XResult></XResponse>)";
    CHECK(queryAnswerAsJson(laughs) == json::object());
}

TEST_CASE("query answer: elements below sixteen levels read as null, their insides skipped", "[proxy][xml]")
{
    // The root is level 0 and its result level 1; n elements from level 2 down to 40.
    std::string xml = "<XResponse><XResult>";
    for (int level = 2; level <= 40; ++level)
        xml += "<n>";
    xml += "deep";
    for (int level = 2; level <= 40; ++level)
        xml += "</n>";
    xml += "<QueueUrl>u</QueueUrl></XResult></XResponse>";
    const json answer = aws::queryAnswerAsJson(xml);
    CHECK(answer.at("QueueUrl") == "u");
    const json* at = &answer;
    for (int level = 2; level <= 16; ++level) {
        INFO("level " << level);
        REQUIRE(at->at("n").is_object());
        at = &at->at("n");
    }
    CHECK(at->at("n").is_null()); // level 17
    CHECK(at->size() == 1);
}

TEST_CASE("upstream answer: 200,000 levels of JSON or XML read as nothing, without recursing into them", "[proxy][xml]")
{
    aws::HttpAnswer json;
    json.status = 200;
    json.headers.emplace_back("content-type", "application/x-amz-json-1.0");
    json.body = std::string(200000, '[') + std::string(200000, ']');
    CHECK(aws::answerAsJson(json) == nlohmann::json::object());
    json.body = "{\"Messages\": " + std::string(200000, '[') + "1" + std::string(200000, ']') + "}";
    CHECK(aws::answerAsJson(json) == nlohmann::json::object());
    // As deep as SQS's own answers: read.
    json.body = R"({"Messages": [{"MessageId": "m", "Attributes": {"ApproximateReceiveCount": "1"}}]})";
    CHECK(aws::answerAsJson(json)["Messages"][0]["Attributes"]["ApproximateReceiveCount"] == "1");
    aws::HttpAnswer xml;
    xml.status = 200;
    xml.headers.emplace_back("content-type", "text/xml");
    std::string deep;
    for (int i = 0; i < 200000; ++i)
        deep += "<a>";
    for (int i = 0; i < 200000; ++i)
        deep += "</a>";
    xml.body
        = "<ReceiveMessageResponse><ReceiveMessageResult>" + deep + "</ReceiveMessageResult></ReceiveMessageResponse>";
    CHECK_NOTHROW(aws::answerAsJson(xml));
}
