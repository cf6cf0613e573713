// Templates read for `lifeline check --template`: short and long forms resolved as far as the template fixes them,
// a DLQ found through its RedrivePolicy, a Lambda trigger's settings with its function's timeout.
#include "lifeline/check/template_reader.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::sim;
using json = nlohmann::json;

namespace {
std::vector<TemplateQueue> read(const std::string& text)
{
    auto queues = readTemplate(text, "t.yaml");
    if (!queues)
        FAIL(queues.message());
    return queues.value();
}
} // namespace

TEST_CASE("templates: !Sub, !Ref with a default, !GetAtt and a parameter left open", "[check][template]")
{
    const auto queues = read(R"(Parameters:
  Stage: {Type: String, Default: prod}
  Visibility: {Type: Number}
Resources:
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub "jobs-${Stage}-${AWS::Region}"
      VisibilityTimeout: !Ref Visibility
      DelaySeconds: 5
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt JobsDlq.Arn
        maxReceiveCount: "4"
  JobsDlq:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: jobs-dlq
      MessageRetentionPeriod: 1209600
)");
    REQUIRE(queues.size() == 2);
    const TemplateQueue& jobs = queues[0];
    CHECK(jobs.logicalId == "Jobs");
    CHECK(jobs.line == 5);
    CHECK(jobs.attributes
        == json { { "DelaySeconds", "5" },
            { "RedrivePolicy",
                R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:jobs-dlq","maxReceiveCount":4})" },
            { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:jobs-prod-us-east-1" } });
    CHECK(jobs.unknown
        == std::vector<std::string> { "VisibilityTimeout: !Ref Visibility, a parameter without a default" });
    CHECK(jobs.deadLetterAttributes
        == json {
            { "MessageRetentionPeriod", "1209600" }, { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:jobs-dlq" } });
    CHECK(queues[1].logicalId == "JobsDlq");
    CHECK(queues[1].deadLetterOf == "Jobs");
}

TEST_CASE(
    "templates: a Lambda trigger, long forms (CDK) and short (SAM), with its function's settings", "[check][template]")
{
    SECTION("an EventSourceMapping naming an AWS::Lambda::Function")
    {
        const auto queues = read(R"({"Resources": {
  "Q": {"Type": "AWS::SQS::Queue", "Properties": {"VisibilityTimeout": 900}},
  "F": {"Type": "AWS::Lambda::Function", "Properties": {"Timeout": 120},
        "Metadata": {"lifeline": {"processing": "20s"}}},
  "M": {"Type": "AWS::Lambda::EventSourceMapping", "Properties": {
        "FunctionName": {"Fn::GetAtt": ["F", "Arn"]}, "EventSourceArn": {"Fn::GetAtt": ["Q", "Arn"]},
        "BatchSize": 50, "MaximumBatchingWindowInSeconds": 10, "ScalingConfig": {"MaximumConcurrency": 20},
        "FunctionResponseTypes": ["ReportBatchItemFailures"]}}}})");
        REQUIRE(queues.size() == 1);
        CHECK(queues[0].consumer
            == json { { "lambda",
                          { { "timeout", "120s" }, { "batchSize", 50 }, { "batchingWindow", "10s" },
                              { "maxConcurrency", 20 }, { "reportBatchItemFailures", true } } },
                { "processing", "20s" } });
    }
    SECTION("a SAM function's SQS event, its timeout from Globals")
    {
        const auto queues = read(R"(Globals:
  Function: {Timeout: 45}
Resources:
  Q:
    Type: AWS::SQS::Queue
    Metadata: {lifeline: {processing: {p50: 1s, p99: 9s}}}
  F:
    Type: AWS::Serverless::Function
    Properties:
      Events:
        Work: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn, BatchSize: 5}}
)");
        REQUIRE(queues.size() == 1);
        CHECK(queues[0].consumer
            == json { { "lambda", { { "timeout", "45s" }, { "batchSize", 5 } } },
                { "processing", { { "p50", "1s" }, { "p99", "9s" } } } });
    }
}

TEST_CASE("templates: an import, an unknown !Ref and Fn::If are named, not guessed", "[check][template]")
{
    const auto queues = read(R"(Resources:
  Q:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: !ImportValue shared-visibility
      DelaySeconds: !Ref Nowhere
      MessageRetentionPeriod: !If [Long, 1209600, 345600]
)");
    REQUIRE(queues.size() == 1);
    CHECK(queues[0].attributes == json { { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:Q" } });
    CHECK(queues[0].unknown
        == std::vector<std::string> { "DelaySeconds: !Ref Nowhere, which the template does not define",
            "MessageRetentionPeriod: Fn::If is not evaluated",
            "VisibilityTimeout: an import from another stack (Fn::ImportValue)" });
}

TEST_CASE("templates: what is not a template fails naming the file", "[check][template]")
{
    CHECK(readTemplate("{", "t.json").message() == "t.json: not YAML or JSON: end of map flow not found (line 1)");
    CHECK(readTemplate("- a\n- b\n", "t.yaml").message()
        == "t.yaml: has no Resources (not a CloudFormation, SAM or CDK template)");
    CHECK(readTemplate("Resources: {}\n", "t.yaml").value().empty());
}
