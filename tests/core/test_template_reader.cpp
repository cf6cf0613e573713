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
            "MessageRetentionPeriod: !If Long, a condition the template does not fix (the condition Long, which the "
            "template does not define)",
            "VisibilityTimeout: an import from another stack (Fn::ImportValue)" });
}

TEST_CASE("templates: what is not a template fails naming the file", "[check][template]")
{
    CHECK(readTemplate("{", "t.json").message() == "t.json: not YAML or JSON: end of map flow not found (line 1)");
    CHECK(readTemplate("- a\n- b\n", "t.yaml").message()
        == "t.yaml: has no Resources (not a CloudFormation, SAM or CDK template)");
    // A template without a queue is not a pass: a gate that checked nothing must not say all is well.
    CHECK(
        readTemplate("Resources: {}\n", "t.yaml").message() == "t.yaml: declares no AWS::SQS::Queue: nothing to check");
    CHECK(readTemplate("Resources:\n  T: {Type: AWS::SNS::Topic}\n", "t.yaml").message()
        == "t.yaml: declares no AWS::SQS::Queue: nothing to check");
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

TEST_CASE("templates: parameters of any type, FindInMap, If on a fixed condition, Join, Select, Split and Sub's "
          "variables are evaluated",
    "[check][template]")
{
    const auto queues = read(R"(Parameters:
  Visibility: {Type: Number, Default: 120}
  Stage: {Type: String, Default: prod}
  Sizes: {Type: CommaDelimitedList, Default: "1024,2048,4096"}
Mappings:
  Retries: {prod: {count: 7}, dev: {count: 2}}
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
  NotProd: !Not [!Condition IsProd]
Resources:
  Q:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Join ["-", [orders, !Ref Stage, !Select [1, !Split [",", "a,b,c"]]]]
      VisibilityTimeout: !Ref Visibility
      MaximumMessageSize: !Select [2, !Ref Sizes]
      DelaySeconds: !If [NotProd, 5, !Ref AWS::NoValue]
      ReceiveMessageWaitTimeSeconds: !Sub ["${Wait}", {Wait: 20}]
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt QDlq.Arn
        maxReceiveCount: !FindInMap [Retries, !Ref Stage, count]
  QDlq: {Type: AWS::SQS::Queue, Properties: {QueueName: !Sub "${Q.QueueName}-dlq"}}
)");
    REQUIRE(queues.size() == 2);
    CHECK(queues[0].attributes
        == json { { "VisibilityTimeout", "120" }, { "MaximumMessageSize", "4096" },
            { "ReceiveMessageWaitTimeSeconds", "20" },
            { "RedrivePolicy",
                R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:orders-prod-b-dlq","maxReceiveCount":7})" },
            { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:orders-prod-b" } });
    CHECK(queues[0].unknown.empty());
    CHECK(queues[1].deadLetterOf == "Q");
    // Where each property is written, for a finding to sit on.
    CHECK(queues[0].line == 11);
    CHECK(queues[0].lines.at("VisibilityTimeout") == 15);
    CHECK(queues[0].lines.at("RedrivePolicy") == 19);
}

TEST_CASE("templates: a redrive policy the template does not fix is named, never a failure - no-dlq waived for it",
    "[check][template]")
{
    for (const std::string& target : { std::string("!ImportValue shared-dlq-arn"), std::string("!Ref DlqArn") }) {
        INFO(target);
        const auto queues = read("Parameters:\n  DlqArn: {Type: String}\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n"
                                 "    Properties:\n      RedrivePolicy:\n        deadLetterTargetArn: "
            + target + "\n        maxReceiveCount: 5\n");
        REQUIRE(queues.size() == 1);
        CHECK(queues[0].attributes == json { { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:Q" } });
        REQUIRE(queues[0].unknown.size() == 1);
        CHECK(queues[0].unknown[0]
            == "RedrivePolicy.deadLetterTargetArn: "
                + std::string(target[1] == 'I' ? "an import from another stack (Fn::ImportValue)"
                                               : "!Ref DlqArn, a parameter without a default"));
        // The rules of its receive count cannot be checked: listed as the rules without processing times are.
        REQUIRE(queues[0].notChecked.size() == 3);
        CHECK(queues[0].notChecked[0].id == "max-receive-count-1");
        CHECK(queues[0].notChecked[0].needs == "a redrive policy the template fixes");
        REQUIRE(queues[0].waivers.size() == 1);
        CHECK(queues[0].waivers[0].id == "no-dlq");
        CHECK(queues[0].waivers[0].by == "the template (Resources.Q.Properties.RedrivePolicy, not fixed by it)");
    }
    // A count from a map the template does not hold: the target is known, the DLQ still found.
    const auto queues = read(R"(Resources:
  Q:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy: {deadLetterTargetArn: !GetAtt QDlq.Arn, maxReceiveCount: !FindInMap [Retries, prod, count]}
  QDlq: {Type: AWS::SQS::Queue}
)");
    CHECK(queues[0].unknown[0]
        == "RedrivePolicy.maxReceiveCount: !FindInMap [Retries, prod, count], which the template's Mappings do not "
           "hold");
    REQUIRE(queues.size() == 2);
    CHECK(queues[0].deadLetterAttributes == json { { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:QDlq" } });
    CHECK(queues[1].deadLetterOf == "Q");
}

TEST_CASE("templates: a trigger's function - its timeout through a condition, outside the template, switched off",
    "[check][template]")
{
    const std::string head = R"(Parameters:
  Stage: {Type: String, Default: prod}
  Mode: {Type: String}
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
  Fast: !Equals [!Ref Mode, fast]
Resources:
  Q: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 900}}
)";
    SECTION("a timeout through a condition the template fixes, and reserved concurrency")
    {
        const auto queues = read(head + R"(  F:
    Type: AWS::Serverless::Function
    Properties:
      Timeout: !If [IsProd, 60, 10]
      ReservedConcurrentExecutions: 4
      Events:
        Work: {Type: SQS, Properties: {Queue: !Ref Q, BatchSize: 5}}
)");
        // SAM's Queue takes the queue's URL (!Ref) as well as its ARN.
        CHECK(queues[0].consumer
            == json { { "lambda", { { "timeout", "60s" }, { "reservedConcurrency", 4 }, { "batchSize", 5 } } } });
        CHECK(queues[0].lines.at("Timeout") == 12);
        CHECK(queues[0].lines.at("trigger") == 15);
    }
    SECTION("a timeout through a condition on a parameter without a default: named, no timeout assumed")
    {
        const auto queues = read(head + R"(  F:
    Type: AWS::Lambda::Function
    Properties: {Timeout: !If [Fast, 10, 60]}
  M:
    Type: AWS::Lambda::EventSourceMapping
    Properties: {EventSourceArn: !GetAtt Q.Arn, FunctionName: !Ref F}
)");
        CHECK(queues[0].consumer == json { { "lambda", json::object() } });
        CHECK(queues[0].unknown
            == std::vector<std::string> { "Resources.F.Properties.Timeout: !If Fast, a condition the template does not "
                                          "fix (!Ref Mode, a parameter without a default)" });
    }
    SECTION("a function outside the template")
    {
        const auto queues = read(head + R"(  M:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !GetAtt Q.Arn
      FunctionName: arn:aws:lambda:us-east-1:123456789012:function:elsewhere
)");
        CHECK(queues[0].consumer == json { { "lambda", json::object() } });
        CHECK(queues[0].unknown
            == std::vector<std::string> { "Resources.M.Properties.FunctionName: "
                                          "arn:aws:lambda:us-east-1:123456789012:function:elsewhere, a function "
                                          "outside the template, so its Timeout is not known" });
    }
    SECTION("Enabled: false reads nothing")
    {
        const auto queues = read(head + R"(  F:
    Type: AWS::Serverless::Function
    Properties:
      Events:
        Work: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn, Enabled: false}}
)");
        CHECK(queues[0].consumer.is_object());
        CHECK_FALSE(queues[0].consumer.contains("lambda"));
        CHECK(queues[0].unknown
            == std::vector<std::string> { "Resources.F.Properties.Events.Work: Enabled: false, so it reads nothing "
                                          "and is not counted as a consumer" });
    }
}

TEST_CASE("templates: refused with where - a duplicate key, a name that leads back to itself, aliases past 32 MB",
    "[check][template]")
{
    CHECK(readTemplate("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 30\n"
                       "      VisibilityTimeout: 60\n",
              "t.yaml")
              .message()
        == "t.yaml: Resources.Q.Properties.VisibilityTimeout: given twice (line 6, first at line 5); CloudFormation "
           "refuses a duplicate key");
    CHECK(
        readTemplate(R"({"Resources": {"Q": {"Type": "AWS::SQS::Queue"}, "Q": {"Type": "AWS::SQS::Queue"}}})", "t.json")
            .message()
        == "t.json: Resources.Q: given twice (line 1, first at line 1); CloudFormation refuses a duplicate key");
    CHECK(
        readTemplate(
            "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties: {QueueName: !GetAtt Q.QueueName}\n", "t.yaml")
            .message()
        == "t.yaml: Resources.Q.Properties.QueueName: leads back to itself (a circular reference, which "
           "CloudFormation refuses)");
    CHECK(readTemplate(
              "Resources:\n  A:\n    Type: AWS::SQS::Queue\n    Properties: {QueueName: !Sub '${B.QueueName}-a'}\n"
              "  B:\n    Type: AWS::SQS::Queue\n    Properties: {QueueName: !Sub '${A.QueueName}-b'}\n",
              "t.yaml")
              .message()
        == "t.yaml: Resources.A.Properties.QueueName: leads back to itself (a circular reference, which "
           "CloudFormation refuses)");
    // One 1 MB scalar named 2,000 times: refused by the bytes it expands to, not followed.
    std::string aliases = "Big: &big " + std::string(1 << 20, 'x')
        + "\nResources:\n  Q: {Type: AWS::SQS::Queue}\n"
          "Copies: [";
    for (int i = 0; i < 2000; ++i)
        aliases += i ? ", *big" : "*big";
    aliases += "]\n";
    CHECK(readTemplate(aliases, "t.yaml").message()
        == "t.yaml: more than 32 MB once its aliases are expanded: not a template (CloudFormation takes at most 1 MB)");
}

namespace {

// A plan of `terraform show -json`'s shape: queue/DLQ pairs made with for_each (or count), created together, so each
// redrive policy is known only after apply and the configuration says which DLQ it names.
std::string pairsPlan(const std::vector<std::string>& keys, bool count)
{
    json resources = json::array();
    json changes = json::array();
    for (size_t i = 0; i < keys.size(); ++i) {
        const std::string key = count ? "[" + std::to_string(i) + "]" : "[\"" + keys[i] + "\"]";
        const json index = count ? json(i) : json(keys[i]);
        resources.push_back({ { "address", "aws_sqs_queue.dlq" + key }, { "mode", "managed" },
            { "type", "aws_sqs_queue" }, { "index", index },
            { "values", { { "name", keys[i] + "-dlq" }, { "message_retention_seconds", 1209600 } } } });
        resources.push_back({ { "address", "aws_sqs_queue.main" + key }, { "mode", "managed" },
            { "type", "aws_sqs_queue" }, { "index", index },
            { "values", { { "name", keys[i] }, { "visibility_timeout_seconds", 60 }, { "policy", nullptr } } } });
        changes.push_back({ { "address", "aws_sqs_queue.main" + key },
            { "change", { { "after_unknown", { { "arn", true }, { "redrive_policy", true } } } } } });
    }
    const json reference = json::array({ "aws_sqs_queue.dlq", count ? "count.index" : "each.key" });
    const json configuration = { { "root_module",
        { { "resources",
            json::array({ { { "address", "aws_sqs_queue.dlq" }, { "expressions", json::object() } },
                { { "address", "aws_sqs_queue.main" },
                    { "expressions", { { "redrive_policy", { { "references", reference } } } } } } }) } } } };
    return json {
        { "planned_values", { { "root_module", { { "resources", resources } } } } }, { "resource_changes", changes },
        { "configuration", configuration }
    }.dump();
}

} // namespace

TEST_CASE(
    "terraform: pairs made with for_each or count linked by key - nulls absent - an errored or empty plan refused",
    "[check][template][terraform]")
{
    for (const bool count : { false, true }) {
        INFO((count ? "count" : "for_each"));
        const auto queues = readTerraformPlan(pairsPlan({ "invoices", "orders", "refunds" }, count), "plan.json");
        if (!queues)
            FAIL(queues.message());
        REQUIRE(queues.value().size() == 6);
        for (size_t i = 0; i < 3; ++i) {
            const std::string key = count
                ? "[" + std::to_string(i) + "]"
                : "[\"" + std::vector<std::string> { "invoices", "orders", "refunds" }[i] + "\"]";
            const auto main = std::find_if(queues.value().begin(), queues.value().end(),
                [&](const TemplateQueue& q) { return q.logicalId == "aws_sqs_queue.main" + key; });
            const auto dlq = std::find_if(queues.value().begin(), queues.value().end(),
                [&](const TemplateQueue& q) { return q.logicalId == "aws_sqs_queue.dlq" + key; });
            REQUIRE(main != queues.value().end());
            REQUIRE(dlq != queues.value().end());
            CHECK(main->deadLetterAttributes == dlq->attributes);
            CHECK(dlq->deadLetterOf == main->logicalId);
            REQUIRE(main->waivers.size() == 1);
            CHECK(main->waivers[0].by
                == "the plan (its RedrivePolicy, known only after apply, names aws_sqs_queue.dlq" + key + ")");
        }
    }
    // Values written null are absent: a queue whose every argument is null reads as SQS's defaults.
    const auto nulls = readTerraformPlan(R"({"planned_values": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": null, "visibility_timeout_seconds": null, "redrive_policy": null}},
  {"address": "aws_lambda_event_source_mapping.m", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"event_source_arn": "arn:aws:sqs:us-east-1:123456789012:aws_sqs_queue.q", "function_name": null,
              "scaling_config": [null], "function_response_types": null}},
  {"address": "aws_lambda_function.f", "mode": "managed", "type": "aws_lambda_function", "values": null}]}}})",
        "plan.json");
    if (!nulls)
        FAIL(nulls.message());
    CHECK(nulls.value()[0].attributes == json { { "QueueArn", "arn:aws:sqs:us-east-1:123456789012:aws_sqs_queue.q" } });
    // Its trigger's function is not in the plan: named, no timeout assumed.
    CHECK(nulls.value()[0].consumer == json { { "lambda", json::object() } });
    CHECK(nulls.value()[0].unknown
        == std::vector<std::string> { "aws_lambda_event_source_mapping.m.function_name: not known before apply, a "
                                      "function outside the plan, so its timeout is not known" });
    CHECK(readTerraformPlan(R"({"errored": true, "planned_values": {"root_module": {}}})", "plan.json").message()
        == "plan.json: the plan errored (`terraform plan` failed): it says nothing reliable of what would be applied; "
           "fix the plan first");
    CHECK(readTerraformPlan(R"({"planned_values": {"root_module": {"resources": []}}})", "plan.json").message()
        == "plan.json: declares no aws_sqs_queue: nothing to check");
}

TEST_CASE("terraform: a switched-off mapping reads nothing - a function's reserved concurrency",
    "[check][template][terraform]")
{
    const auto queues = readTerraformPlan(R"({"values": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "q", "arn": "arn:aws:sqs:eu-west-1:111122223333:q"}},
  {"address": "aws_lambda_event_source_mapping.off", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"event_source_arn": "arn:aws:sqs:eu-west-1:111122223333:q", "function_name": "work", "enabled": false}},
  {"address": "aws_lambda_event_source_mapping.on", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"event_source_arn": "arn:aws:sqs:eu-west-1:111122223333:q", "function_name": "work", "batch_size": 5}},
  {"address": "aws_lambda_function.work", "mode": "managed", "type": "aws_lambda_function",
   "values": {"function_name": "work", "timeout": 20, "reserved_concurrent_executions": 2}}]}}})",
        "state.json");
    if (!queues)
        FAIL(queues.message());
    CHECK(queues.value()[0].consumer
        == json { { "lambda", { { "timeout", "20s" }, { "reservedConcurrency", 2 }, { "batchSize", 5 } } } });
    CHECK(queues.value()[0].unknown
        == std::vector<std::string> { "aws_lambda_event_source_mapping.off: enabled = false, so it reads nothing and "
                                      "is not counted as a consumer" });
}

TEST_CASE("templates: bytes that are not UTF-8 refused with their line - UTF-8 names read", "[check][template]")
{
    CHECK(
        readTemplate("Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties: {QueueName: \"q\x97\"}\n", "t.yaml")
            .message()
        == "t.yaml: not UTF-8 text: byte 72 (line 4)");
    CHECK(readTemplate("Resources:\n  Q: {Type: AWS::SQS::Queue}\n# \xC0\xAF overlong\n", "t.yaml").message()
        == "t.yaml: not UTF-8 text: byte 42 (line 3)");
    const auto queues
        = readTemplate("Resources:\n  Q: {Type: AWS::SQS::Queue, Properties: {QueueName: \"zürich-q\"}}\n", "t.yaml");
    REQUIRE(queues);
    CHECK(queues.value()[0].attributes["QueueArn"] == "arn:aws:sqs:us-east-1:123456789012:zürich-q");
}

TEST_CASE("serverless: a service's functions and sqs events as the template it deploys - variables named, lines kept",
    "[check][template]")
{
    const auto queues = read(R"(service: mail
provider:
  name: aws
  timeout: 20
custom: {batch: 10}
functions:
  send-mail:
    handler: send.handler
    reservedConcurrency: 3
    events:
      - http: {path: /mail, method: post}
      - sqs:
          arn: !GetAtt Outbox.Arn
          batchSize: ${self:custom.batch}
          maximumBatchingWindow: 5
          functionResponseType: ReportBatchItemFailures
          maximumConcurrency: 4
  audit:
    handler: audit.handler
    events:
      - sqs: !GetAtt AuditLog.Arn
resources:
  Resources:
    Outbox:
      Type: AWS::SQS::Queue
      Properties: {VisibilityTimeout: 150}
    AuditLog:
      Type: AWS::SQS::Queue
)");
    REQUIRE(queues.size() == 2);
    CHECK(queues[0].logicalId == "AuditLog");
    // The provider's timeout, the framework's default batch of 10 (Lambda's).
    CHECK(queues[0].consumer == json { { "lambda", { { "timeout", "20s" } } } });
    CHECK(queues[0].line == 27);
    CHECK(queues[1].logicalId == "Outbox");
    CHECK(queues[1].consumer
        == json { { "lambda",
            { { "timeout", "20s" }, { "reservedConcurrency", 3 }, { "batchingWindow", "5s" }, { "maxConcurrency", 4 },
                { "reportBatchItemFailures", true } } } });
    CHECK(queues[1].unknown
        == std::vector<std::string> { "functions.send-mail.events.1.sqs.batchSize: ${self:custom.batch}, a Serverless "
                                      "Framework variable (resolved only when it deploys)" });
    CHECK(queues[1].line == 24);
    CHECK(queues[1].lines.at("VisibilityTimeout") == 26);
    CHECK(queues[1].lines.at("Timeout") == 4); // provider.timeout
    CHECK(queues[1].lines.at("ReservedConcurrentExecutions") == 9);
    CHECK(queues[1].lines.at("trigger") == 12);
    // A function of its own timeout, and none: the framework's 6 s, not Lambda's 3 s.
    const auto own = read("service: s\nfunctions:\n  f:\n    handler: h\n    events:\n      - sqs: !GetAtt Q.Arn\n"
                          "resources:\n  Resources:\n    Q: {Type: AWS::SQS::Queue}\n");
    CHECK(own[0].consumer == json { { "lambda", { { "timeout", "6s" } } } });
    CHECK(readTemplate("service: s\nfunctions: [a, b]\n", "serverless.yml").message()
        == "serverless.yml: functions: must be a map of the service's functions");
    CHECK(readTemplate("service: s\nprovider: {name: aws}\nfunctions: {}\n", "serverless.yml").message()
        == "serverless.yml: declares no AWS::SQS::Queue: nothing to check");
}

TEST_CASE("terraform: a plan nested past any plan's shape is refused before it is read", "[check][template][terraform]")
{
    // 300,000 levels inside an alarm's values crashed the reader's walk (a stack overflow): refused on the text now.
    const std::string deep = R"({"values": {"root_module": {"resources": [{"mode": "managed", "type": )"
                             R"("aws_cloudwatch_metric_alarm", "address": "a", "values": {"x": )"
        + std::string(300000, '[') + std::string(300000, ']') + "}}]}}}";
    CHECK(readTerraformPlan(deep, "plan.json").message() == "plan.json: nested deeper than 256 levels: not a plan");
}

TEST_CASE("a function's own dead-letter queue - read from CloudFormation, SAM, Terraform and the Serverless Framework",
    "[check][template]")
{
    const auto cloudFormation = read(R"(Resources:
  Q: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
  Failed: {Type: AWS::SQS::Queue}
  F:
    Type: AWS::Lambda::Function
    Properties:
      Timeout: 10
      DeadLetterConfig: {TargetArn: !GetAtt Failed.Arn}
  M:
    Type: AWS::Lambda::EventSourceMapping
    Properties: {EventSourceArn: !GetAtt Q.Arn, FunctionName: !Ref F}
)");
    REQUIRE(cloudFormation.size() == 2);
    CHECK(cloudFormation[1].logicalId == "Q");
    CHECK(
        cloudFormation[1].consumer == json { { "lambda", { { "timeout", "10s" }, { "functionDeadLetter", true } } } });
    CHECK(cloudFormation[1].lines.at("DeadLetterConfig") == 8);
    const auto sam = read(R"(Transform: AWS::Serverless-2016-10-31
Resources:
  Q: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
  F:
    Type: AWS::Serverless::Function
    Properties:
      Timeout: 10
      DeadLetterQueue: {Type: SQS, TargetArn: arn:aws:sqs:us-east-1:123456789012:failed}
      Events:
        Work: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn}}
)");
    REQUIRE(sam.size() == 1);
    CHECK(sam[0].consumer == json { { "lambda", { { "timeout", "10s" }, { "functionDeadLetter", true } } } });
    const auto serverless = read(R"(service: orders
provider: {name: aws}
functions:
  ship:
    handler: ship.handler
    onError: arn:aws:sns:us-east-1:123456789012:failed
    events:
      - sqs: !GetAtt Orders.Arn
resources:
  Resources:
    Orders: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
)");
    REQUIRE(serverless.size() == 1);
    CHECK(serverless[0].consumer == json { { "lambda", { { "timeout", "6s" }, { "functionDeadLetter", true } } } });
    const auto plan = readTerraformPlan(R"({"values": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "q", "arn": "arn:aws:sqs:eu-west-1:111122223333:q"}},
  {"address": "aws_lambda_event_source_mapping.on", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"event_source_arn": "arn:aws:sqs:eu-west-1:111122223333:q", "function_name": "work"}},
  {"address": "aws_lambda_function.work", "mode": "managed", "type": "aws_lambda_function",
   "values": {"function_name": "work", "timeout": 20,
              "dead_letter_config": [{"target_arn": "arn:aws:sqs:eu-west-1:111122223333:failed"}]}}]}}})",
        "plan.json");
    if (!plan)
        FAIL(plan.message());
    CHECK(plan.value()[0].consumer == json { { "lambda", { { "timeout", "20s" }, { "functionDeadLetter", true } } } });
}

TEST_CASE("a trigger's provisioned mode - read from CloudFormation, SAM, Terraform and the Serverless Framework",
    "[check][template]")
{
    // MaximumPollers as AWS's docs show it (update-event-source-mapping --provisioned-poller-config).
    const auto cloudFormation = read(R"(Resources:
  Q: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
  F: {Type: AWS::Lambda::Function, Properties: {Timeout: 10}}
  M:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !GetAtt Q.Arn
      FunctionName: !Ref F
      ProvisionedPollerConfig: {MinimumPollers: 5, MaximumPollers: 100}
)");
    REQUIRE(cloudFormation.size() == 1);
    CHECK(cloudFormation[0].consumer
        == json { { "lambda", { { "timeout", "10s" }, { "minimumPollers", 5 }, { "maximumPollers", 100 } } } });
    // An empty ProvisionedPollerConfig is provisioned mode at its defaults (2 and 200).
    const auto sam = read(R"(Transform: AWS::Serverless-2016-10-31
Resources:
  Q: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
  F:
    Type: AWS::Serverless::Function
    Properties:
      Timeout: 10
      Events:
        Work: {Type: SQS, Properties: {Queue: !GetAtt Q.Arn, ProvisionedPollerConfig: {}}}
)");
    REQUIRE(sam.size() == 1);
    CHECK(sam[0].consumer == json { { "lambda", { { "timeout", "10s" }, { "minimumPollers", 2 } } } });
    const auto serverless = read(R"(service: orders
provider: {name: aws}
functions:
  ship:
    handler: ship.handler
    events:
      - sqs: {arn: !GetAtt Orders.Arn, provisionedPollers: {min: 3, max: 40}}
resources:
  Resources:
    Orders: {Type: AWS::SQS::Queue, Properties: {VisibilityTimeout: 60}}
)");
    REQUIRE(serverless.size() == 1);
    CHECK(serverless[0].consumer
        == json { { "lambda", { { "timeout", "6s" }, { "minimumPollers", 3 }, { "maximumPollers", 40 } } } });
    const auto plan = readTerraformPlan(R"({"values": {"root_module": {"resources": [
  {"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue",
   "values": {"name": "q", "arn": "arn:aws:sqs:eu-west-1:111122223333:q"}},
  {"address": "aws_lambda_event_source_mapping.on", "mode": "managed", "type": "aws_lambda_event_source_mapping",
   "values": {"event_source_arn": "arn:aws:sqs:eu-west-1:111122223333:q", "function_name": "work",
              "provisioned_poller_config": [{"maximum_pollers": 10, "minimum_pollers": 2}]}},
  {"address": "aws_lambda_function.work", "mode": "managed", "type": "aws_lambda_function",
   "values": {"function_name": "work", "timeout": 20}}]}}})",
        "plan.json");
    if (!plan)
        FAIL(plan.message());
    CHECK(plan.value()[0].consumer
        == json { { "lambda", { { "timeout", "20s" }, { "minimumPollers", 2 }, { "maximumPollers", 10 } } } });
}
