// Templates read for `lifeline check --template`: short and long forms resolved as far as the template fixes them,
// a DLQ found through its RedrivePolicy, a Lambda trigger's settings with its function's timeout.
#include "lifeline/check/template_reader.h"
#include "lifeline/check/terraform_reader.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::check;
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
    // Aliases that expand to ten million values, and nesting a hundred deep: refused, not followed.
    std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i <= 7; ++i)
        bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + std::string("*a") + std::to_string(i - 1)
            + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a"
            + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a"
            + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + ", *a" + std::to_string(i - 1) + "]\n";
    CHECK(readTemplate(bomb, "t.yaml").message()
        == "t.yaml: nested deeper than 64 levels or larger than a million values: not a template");
    CHECK(readTemplate("Resources: " + std::string(100, '[') + std::string(100, ']'), "t.yaml").message()
        == "t.yaml: nested deeper than 64 levels or larger than a million values: not a template");
    // A function of a shape CloudFormation would refuse: named, never a crash.
    CHECK(readTemplate("Resources:\n  Q: {Type: AWS::SQS::Queue}\n  M:\n    Type: AWS::Lambda::EventSourceMapping\n"
                       "    Properties: {EventSourceArn: !GetAtt Q.Arn, FunctionName: {Fn::GetAtt: []}}\n",
              "t.yaml")
              .value()
              .size()
        == 1);
}

TEST_CASE("terraform: a plan's queue, its DLQ known only after apply, its trigger through references",
    "[check][template][terraform]")
{
    const auto queues = readTerraformPlan(R"({"planned_values": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.jobs", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "jobs", "visibility_timeout_seconds": 60, "max_message_size": 262144, "fifo_queue": false,
              "kms_master_key_id": null, "delay_seconds": 0}},
  {"address": "aws_sqs_queue.jobs_dlq", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "jobs-dlq", "message_retention_seconds": 1209600}},
  {"address": "aws_lambda_function.work", "mode": "managed", "type": "aws_lambda_function",
   "values": {"function_name": "work", "timeout": 10}},
  {"address": "aws_lambda_event_source_mapping.jobs", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"batch_size": 5, "scaling_config": [{"maximum_concurrency": 3}],
              "function_response_types": ["ReportBatchItemFailures"]}}]}},
 "resource_changes": [{"address": "aws_sqs_queue.jobs", "change": {"after_unknown": {"arn": true, "redrive_policy": true}}}],
 "configuration": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.jobs", "expressions": {"redrive_policy": {"references": ["aws_sqs_queue.jobs_dlq.arn", "aws_sqs_queue.jobs_dlq"]}}},
  {"address": "aws_lambda_event_source_mapping.jobs", "expressions": {
     "event_source_arn": {"references": ["aws_sqs_queue.jobs.arn", "aws_sqs_queue.jobs"]},
     "function_name": {"references": ["aws_lambda_function.work.function_name", "aws_lambda_function.work"]}}}]}}})",
        "plan.json");
    if (!queues)
        FAIL(queues.message());
    REQUIRE(queues.value().size() == 2);
    const TemplateQueue& jobs = queues.value()[0];
    CHECK(jobs.logicalId == "aws_sqs_queue.jobs");
    CHECK(jobs.line == 0);
    CHECK(jobs.attributes
        == json { { "VisibilityTimeout", "60" }, { "MaximumMessageSize", "262144" }, { "DelaySeconds", "0" },
            { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:jobs" } });
    CHECK(jobs.unknown
        == std::vector<std::string> { "RedrivePolicy: known only after apply (it names aws_sqs_queue.jobs_dlq): "
                                      "findings about a dead-letter queue assume none; check the state after apply "
                                      "(`terraform show -json`) for them" });
    CHECK(jobs.consumer
        == json { { "lambda",
            { { "timeout", "10s" }, { "batchSize", 5 }, { "maxConcurrency", 3 },
                { "reportBatchItemFailures", true } } } });
    CHECK(queues.value()[1].deadLetterOf == "aws_sqs_queue.jobs");
}

TEST_CASE("terraform: a state's module, its redrive policy known - not a plan fails naming the file",
    "[check][template][terraform]")
{
    const auto queues = readTerraformPlan(R"({"values": {"root_module": {"child_modules": [{"resources": [
  {"address": "module.q.aws_sqs_queue.main", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "main", "arn": "arn:aws:sqs:eu-west-1:111122223333:main",
              "redrive_policy": "{\"deadLetterTargetArn\":\"arn:aws:sqs:eu-west-1:111122223333:main-dlq\",\"maxReceiveCount\":3}"}},
  {"address": "module.q.aws_sqs_queue.dlq", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "main-dlq", "arn": "arn:aws:sqs:eu-west-1:111122223333:main-dlq", "message_retention_seconds": 1209600}}
]}]}}})",
        "state.json");
    REQUIRE(queues.value().size() == 2);
    CHECK(queues.value()[0].logicalId == "module.q.aws_sqs_queue.main");
    CHECK(queues.value()[0].deadLetterAttributes
        == json {
            { "MessageRetentionPeriod", "1209600" }, { "QueueArn", "arn:aws:sqs:eu-west-1:111122223333:main-dlq" } });
    CHECK(queues.value()[1].deadLetterOf == "module.q.aws_sqs_queue.main");
    CHECK(readTerraformPlan("{\"resources\": []}", "x.json").message()
        == "x.json: has no planned_values or values (not what `terraform show -json` prints)");
    CHECK(readTerraformPlan("terraform {", "x.json").message()
        == "x.json: not JSON (give what `terraform show -json PLAN` prints)");
}
