// `lifeline check` once its options are read (check_report.h): a template's queues reviewed and reported in each
// format, the check's verdict at each --fail-on, which rules it leaves when processing times are missing, and where a
// scenario could not be written; reached without the command line.
#include "lifeline/check/check_report.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::check;
using json = nlohmann::json;

namespace {

// A queue whose 30 s visibility timeout is shorter than its consumers' p99 (high), with a DLQ.
std::vector<TemplateQueue> jobsAndDlq()
{
    auto queues = readTemplate(R"(Resources:
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 30
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt JobsDlq.Arn
        maxReceiveCount: 5
  JobsDlq:
    Type: AWS::SQS::Queue
    Properties:
      MessageRetentionPeriod: 1209600
)",
        "t.yaml");
    REQUIRE(queues);
    return queues.value();
}

CheckRun runWith(const json& given, ReportFormat format = ReportFormat::Text)
{
    CheckRun run;
    run.source = "t.yaml";
    run.given = given;
    run.format = format;
    run.toolVersion = "9.9";
    return run;
}

} // namespace

TEST_CASE("check report: a template's queues in text - the DLQ named as its source's - the verdict at each level",
    "[check][report]")
{
    // Four consumers long-polling, each message 40 s at the median: most turn visible while worked on.
    const json slow
        = { { "processing", { { "p50", "40s" }, { "p99", "60s" } } }, { "consumers", 4 }, { "waitTimeSeconds", 20 } };
    std::ostringstream out;
    const auto checked = checkQueues(jobsAndDlq(), runWith(slow), out);
    REQUIRE(checked);
    CHECK(checked.value()); // a high finding fails the check
    const std::string text = out.str();
    CHECK(text.starts_with("Jobs (t.yaml:2)\nJobs: 1 finding(s)\n\n[high] visibility-shorter-than-processing\n"));
    CHECK(text.ends_with("JobsDlq (t.yaml:9): the dead-letter queue of Jobs\n\n"));
    // One consumer: nobody else takes the message while it works, the finding is low; the check passes at high and
    // fails at low.
    CheckRun one = runWith({ { "processing", { { "p50", "40s" }, { "p99", "60s" } } } });
    std::ostringstream quiet;
    const auto passed = checkQueues(jobsAndDlq(), one, quiet);
    REQUIRE(passed);
    CHECK_FALSE(passed.value());
    CHECK(quiet.str().find("[low] visibility-shorter-than-processing") != std::string::npos);
    one.failOn = Severity::Low;
    const auto strict = checkQueues(jobsAndDlq(), one, quiet);
    REQUIRE(strict);
    CHECK(strict.value());
}

TEST_CASE("check report: JSON and SARIF name the file and line of each queue", "[check][report]")
{
    std::ostringstream out;
    REQUIRE(checkQueues(jobsAndDlq(), runWith({ { "processing", "40s" } }, ReportFormat::Json), out));
    const json report = json::parse(out.str());
    REQUIRE(report.at("queues").size() == 2);
    CHECK(report["queues"][0].at("queue") == "Jobs");
    CHECK(report["queues"][0].at("line") == 2);
    CHECK(report["queues"][1]
        == json({ { "queue", "JobsDlq" }, { "file", "t.yaml" }, { "line", 9 }, { "deadLetterOf", "Jobs" } }));
    std::ostringstream sarif;
    REQUIRE(checkQueues(jobsAndDlq(), runWith({ { "processing", "40s" } }, ReportFormat::Sarif), sarif));
    const json log = json::parse(sarif.str());
    CHECK(log.at("version") == "2.1.0");
    CHECK(log["runs"][0]["tool"]["driver"]["version"] == "9.9");
    // The finding sits on the property at fault: VisibilityTimeout's line, not the queue's.
    CHECK(log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 5);
    const json& rule = log["runs"][0]["tool"]["driver"]["rules"][0];
    CHECK(rule["id"] == "visibility-shorter-than-processing");
    CHECK(rule["shortDescription"]["text"]
        == "The visibility timeout is shorter than processing: messages are processed twice");
    CHECK(rule["helpUri"] == "https://example.org/lifeline/docs/check.md#visibility-shorter-than-processing");
}

TEST_CASE("check report: without processing times - the rules that need them listed, by source - the others run",
    "[check][report]")
{
    const std::string notChecked = "  not checked without processing times: visibility-shorter-than-processing, "
                                   "batch-exceeds-visibility, lambda-processing-over-timeout, backlog-grows, "
                                   "tenants-without-group-id (give --processing";
    std::ostringstream out;
    CheckRun run = runWith(json::object());
    run.kind = CheckRun::Source::Terraform;
    const auto plan = checkQueues(jobsAndDlq(), run, out);
    REQUIRE(plan);
    CHECK_FALSE(plan.value()); // short polling, low, is what the other rules find
    CHECK(out.str().starts_with("Jobs (t.yaml:2)\n" + notChecked
        + ": a plan says nothing of the consumers)\nJobs: 1 finding(s)\n\n[low] short-polling\n"));
    run.kind = CheckRun::Source::Template;
    std::ostringstream text;
    REQUIRE(checkQueues(jobsAndDlq(), run, text));
    CHECK(text.str().find(notChecked + ", or Metadata: {lifeline: {processing: ...}} on the queue or its function)\n")
        != std::string::npos);
    // In JSON each rule with what it needs; in SARIF a notification of the run's configuration.
    run.format = ReportFormat::Json;
    std::ostringstream json_;
    REQUIRE(checkQueues(jobsAndDlq(), run, json_));
    const json report = json::parse(json_.str());
    CHECK(report["queues"][0]["notChecked"][0]
        == json({ { "id", "visibility-shorter-than-processing" }, { "needs", "processing times" } }));
    CHECK(report["queues"][0]["notChecked"].size() == 5);
    run.format = ReportFormat::Sarif;
    std::ostringstream sarif;
    REQUIRE(checkQueues(jobsAndDlq(), run, sarif));
    const json log = json::parse(sarif.str());
    CHECK(log["runs"][0]["invocations"][0]["toolConfigurationNotifications"][0]["message"]["text"]
        == "Jobs: " + notChecked.substr(2)
            + ", or Metadata: {lifeline: {processing: ...}} on the queue or its function)");
    // A malformed one is refused as it is.
    run.given = { { "processing", { { "p50", "2s" } } } };
    const auto malformed = checkQueues(jobsAndDlq(), run, out);
    REQUIRE_FALSE(malformed);
    CHECK(malformed.message() == "t.yaml:2: Jobs: processing: needs both p50 and p99 (or samples)");
}

TEST_CASE("check report: a scenario that cannot be written stops the check, naming the file", "[check][report]")
{
    std::ostringstream out;
    CheckRun run = runWith({ { "processing", "40s" } });
    run.scenarioDir = "/proc/lifeline-cannot-write-here";
    const auto checked = checkQueues(jobsAndDlq(), run, out);
    REQUIRE_FALSE(checked);
    CHECK(checked.message().starts_with("--scenario-out: cannot write /proc/lifeline-cannot-write-here/Jobs-"));
}
