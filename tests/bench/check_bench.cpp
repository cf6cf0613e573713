// `lifeline check` at scale: a template and a Terraform plan of 1,000 to 10,000 queues, each with its dead-letter
// queue and a Lambda trigger, read and reviewed (without processing times, so no rule simulates a run: the figure is
// the readers' and the rules', not the simulation's); and the 1 MB scalar aliased 2,000 times, refused. Issue 67's
// floor: 10,000 queues under 5 s.
#include "bench_util.h"
#include "lifeline/check/check_report.h"
#include "lifeline/check/terraform_reader.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace lifeline::bench {

namespace {

using json = nlohmann::json;

std::string samTemplate(int queues)
{
    std::string text = "Transform: AWS::Serverless-2016-10-31\nGlobals:\n  Function: {Timeout: 20}\nResources:\n";
    for (int i = 0; i < queues; ++i) {
        const std::string n = std::to_string(i);
        text += "  Q" + n + ":\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Sub \"q" + n
            + "-${AWS::Region}\"\n      VisibilityTimeout: 120\n      RedrivePolicy:\n        deadLetterTargetArn: "
              "!GetAtt D"
            + n + ".Arn\n        maxReceiveCount: 5\n  D" + n + ":\n    Type: AWS::SQS::Queue\n  F" + n
            + ":\n    Type: AWS::Serverless::Function\n    Properties:\n      Events:\n        Work: {Type: SQS, "
              "Properties: {Queue: !GetAtt Q"
            + n + ".Arn, BatchSize: 5}}\n";
    }
    return text;
}

std::string terraformPlan(int queues)
{
    json resources = json::array();
    json changes = json::array();
    for (int i = 0; i < queues; ++i) {
        const std::string key = "[\"q" + std::to_string(i) + "\"]";
        resources.push_back({ { "address", "aws_sqs_queue.dlq" + key }, { "mode", "managed" },
            { "type", "aws_sqs_queue" }, { "values", { { "name", "q" + std::to_string(i) + "-dlq" } } } });
        resources.push_back(
            { { "address", "aws_sqs_queue.main" + key }, { "mode", "managed" }, { "type", "aws_sqs_queue" },
                { "values", { { "name", "q" + std::to_string(i) }, { "visibility_timeout_seconds", 120 } } } });
        resources.push_back({ { "address", "aws_lambda_event_source_mapping.work" + key }, { "mode", "managed" },
            { "type", "aws_lambda_event_source_mapping" }, { "values", { { "batch_size", 5 } } } });
        changes.push_back({ { "address", "aws_sqs_queue.main" + key },
            { "change", { { "after_unknown", { { "arn", true }, { "redrive_policy", true } } } } } });
    }
    resources.push_back({ { "address", "aws_lambda_function.work" }, { "mode", "managed" },
        { "type", "aws_lambda_function" }, { "values", { { "function_name", "work" }, { "timeout", 20 } } } });
    const json configuration = { { "root_module",
        { { "resources",
            json::array({ { { "address", "aws_sqs_queue.main" },
                              { "expressions",
                                  { { "redrive_policy",
                                      { { "references", json::array({ "aws_sqs_queue.dlq", "each.key" }) } } } } } },
                { { "address", "aws_lambda_event_source_mapping.work" },
                    { "expressions",
                        { { "event_source_arn",
                              { { "references", json::array({ "aws_sqs_queue.main", "each.key" }) } } },
                            { "function_name",
                                { { "references", json::array({ "aws_lambda_function.work" }) } } } } } } }) } } } };
    return json {
        { "planned_values", { { "root_module", { { "resources", resources } } } } }, { "resource_changes", changes },
        { "configuration", configuration }
    }.dump();
}

// Seconds to read `text` and review every queue in it, as `lifeline check --format json` does.
double checkSeconds(const std::string& text, bool terraform)
{
    const auto start = std::chrono::steady_clock::now();
    const auto queues = terraform ? check::readTerraformPlan(text, "plan.json") : check::readTemplate(text, "t.yaml");
    if (!queues) {
        std::fprintf(stderr, "check bench: %s\n", queues.message().c_str());
        return -1;
    }
    check::CheckRun run;
    run.source = terraform ? "plan.json" : "t.yaml";
    run.kind = terraform ? check::CheckRun::Source::Terraform : check::CheckRun::Source::Template;
    run.format = check::ReportFormat::Json;
    std::ostringstream out;
    if (!check::checkQueues(queues.value(), run, out))
        std::fprintf(stderr, "check bench: the check failed\n");
    return secondsSince(start);
}

} // namespace

void runCheckBenchmark()
{
    for (const int queues : { 1000, 2000, 10000 }) {
        report(("check.template_" + std::to_string(queues) + "_queues_s").c_str(),
            checkSeconds(samTemplate(queues), false), "s");
        report(("check.terraform_" + std::to_string(queues) + "_queues_s").c_str(),
            checkSeconds(terraformPlan(queues), true), "s");
    }
    std::string aliases = "Big: &big " + std::string(1 << 20, 'x')
        + "\nResources:\n  Q: {Type: AWS::SQS::Queue}\n"
          "Copies: [";
    for (int i = 0; i < 2000; ++i)
        aliases += i ? ", *big" : "*big";
    aliases += "]\n";
    const auto start = std::chrono::steady_clock::now();
    const size_t heapBefore = heapInUse();
    const auto refused = check::readTemplate(aliases, "t.yaml");
    report("check.alias_bomb_refused_s", secondsSince(start), "s");
    report("check.alias_bomb_heap_mb", double(heapInUse() - heapBefore) / 1e6, "MB");
    if (refused)
        std::fprintf(stderr, "check bench: the alias bomb was read\n");
}

} // namespace lifeline::bench
