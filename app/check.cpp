#include "check.h"

#include "command_line.h"
#include "http/live_queue.h"
#include "lifeline/check/check_report.h"
#include "lifeline/check/terraform_reader.h"

#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

namespace lifeline::app {

namespace {

using nlohmann::json;

constexpr const char* kCheckHelp
    = "Usage: lifeline check --attributes FILE.json [--dlq-attributes FILE.json] --processing p50=2s,p99=40s\n"
      "       lifeline check --template FILE.yaml|FILE.json [consumer options]\n"
      "       lifeline check --terraform PLAN.json [consumer options]\n"
      "       lifeline check --queue-url URL [--region R] [--profile P] [--lambda-mappings] [consumer options]\n"
      "       [--consumers N] [--max-messages N] [--wait-time S] [--read-timeout D] [--heartbeat] [--groups N]\n"
      "       [--tenants N] [--rate R] [--lambda timeout=30s,batch=10,window=0s,concurrency=5,partial]\n"
      "       [--consumer FILE.json] [--format text|json|sarif] [--scenario-out DIR] [--fail-on high|medium|low]\n"
      "       [--ignore RULE,RULE]\n"
      "Reviews a queue's settings against how its consumers behave. The attributes are what\n"
      "`aws sqs get-queue-attributes --attribute-names All` prints (or a plain name-to-value map).\n"
      "\n"
      "  --attributes FILE      the queue's attributes\n"
      "  --dlq-attributes FILE  its dead-letter queue's attributes\n"
      "  --template FILE        every queue of a CloudFormation, SAM or CDK template (YAML or JSON) or a\n"
      "                         serverless.yml: its DLQ, its Lambda trigger and Metadata: {lifeline: {processing:\n"
      "                         ...}} read from it\n"
      "  --terraform FILE       every aws_sqs_queue of `terraform show -json` (a plan or a state), its DLQ\n"
      "                         and its aws_lambda_event_source_mapping\n"
      "  --queue-url URL        a live queue: its attributes and its DLQ's, read with your AWS credentials (as\n"
      "                         the AWS CLI finds them: --profile, the environment, ~/.aws), signed with SigV4\n"
      "  --region R             its region (default: the URL's host, then the profile's)\n"
      "  --profile P            the credentials' profile in ~/.aws\n"
      "  --lambda-mappings      also read the Lambda trigger that reads the queue (ListEventSourceMappings) and\n"
      "                         its function's timeout\n"
      "  --insecure-upstream    allow plain http to a --queue-url host that is not this machine\n"
      "  --processing P         how long a message takes: p50=2s,p99=40s, samples=1.2,3,40 (seconds), or 5s;\n"
      "                         without it the rules that need it are listed as not checked\n"
      "  --consumers N          consumers (default 1)\n"
      "  --max-messages N       their MaxNumberOfMessages (default 1)\n"
      "  --wait-time S          their WaitTimeSeconds (default: the queue's ReceiveMessageWaitTimeSeconds)\n"
      "  --read-timeout D       the client's HTTP read timeout\n"
      "  --heartbeat            the consumers extend the visibility timeout while they work\n"
      "  --groups N             the MessageGroupIds the producers use (FIFO: groups; standard: tenants)\n"
      "  --tenants N            tenants sharing the queue (a standard queue's tenants without MessageGroupIds\n"
      "                         wait behind each other's bursts)\n"
      "  --rate R               messages per second the producers send\n"
      "  --lambda SPEC          a Lambda trigger instead of consumers: timeout (required), batch, window,\n"
      "                         concurrency, partial (ReportBatchItemFailures)\n"
      "  --consumer FILE        the consumer side as JSON (see docs/check.md); options given override it\n"
      "  --format F             text (default), json: {\"findings\": [{\"id\", \"severity\", \"message\", "
      "\"suggestion\"}]},\n"
      "                         or sarif: SARIF 2.1.0 for code scanning, each finding at its queue's file and line\n"
      "  --scenario-out DIR     write DIR/ID.json per finding: a scenario that shows it, the suggestion as its fix\n"
      "  --fail-on LEVEL        exit 1 on a finding of this severity or above: high (default), medium or low\n"
      "  --ignore RULES         waive these rules (ids, comma-separated) for every queue; a waived finding is\n"
      "                         reported as waived and does not fail the check. A template waives them per queue\n"
      "                         with Metadata: {lifeline: {ignore: [no-dlq]}}\n"
      "  --help                 this text\n"
      "\n"
      "Exit status: 0 no finding at --fail-on's severity or above, 1 some, 2 bad input (the message names the\n"
      "field).\n"
      "\n"
      "Example:\n"
      "  aws sqs get-queue-attributes --queue-url URL --attribute-names All > attrs.json\n"
      "  lifeline check --attributes attrs.json --processing p50=2s,p99=40s --consumers 4 --scenario-out checks\n";

struct Bad {
    std::string message;
};

json readJsonFile(const std::string& path, const std::string& option)
{
    std::ifstream in(path);
    if (!in)
        throw Bad { option + ": cannot read " + path };
    std::stringstream text;
    text << in.rdbuf();
    try {
        return json::parse(text.str());
    } catch (const json::exception&) {
        throw Bad { option + ": " + path + " is not valid JSON" };
    }
}

json number(const std::string& text, const std::string& option, bool whole)
{
    try {
        size_t used = 0;
        const double value = std::stod(text, &used);
        if (used != text.size() || (whole && value != double(int64_t(value))))
            throw std::invalid_argument(text);
        return whole ? json(int64_t(value)) : json(value);
    } catch (const std::exception&) {
        throw Bad { option + ": expected " + (whole ? "a whole number" : "a number") + ", got '" + text + "'" };
    }
}

// "a=1,b=2" as pairs; a bare word is a flag.
std::vector<std::pair<std::string, std::string>> pairs(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const size_t eq = item.find('=');
        out.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq + 1));
    }
    return out;
}

json processing(const std::string& text)
{
    if (text.rfind("samples=", 0) == 0) {
        json samples = json::array();
        for (const auto& [value, unused] : pairs(text.substr(8)))
            samples.push_back(number(value, "--processing samples", false));
        return { { "samples", samples } };
    }
    if (text.find('=') == std::string::npos)
        return text;
    json p = json::object();
    for (const auto& [key, value] : pairs(text)) {
        if (key != "p50" && key != "p99")
            throw Bad { "--processing: unknown part '" + key + "' (p50=, p99= or samples=)" };
        p[key] = value;
    }
    return p;
}

json lambda(const std::string& text)
{
    json l = json::object();
    for (const auto& [key, value] : pairs(text)) {
        if (key == "timeout")
            l["timeout"] = value;
        else if (key == "batch")
            l["batchSize"] = number(value, "--lambda batch", true);
        else if (key == "window")
            l["batchingWindow"] = value;
        else if (key == "concurrency")
            l["maxConcurrency"] = number(value, "--lambda concurrency", true);
        else if (key == "partial")
            l["reportBatchItemFailures"] = value.empty() || value == "true";
        else if (key == "min-pollers") // provisioned mode
            l["minimumPollers"] = number(value, "--lambda min-pollers", true);
        else if (key == "max-pollers")
            l["maximumPollers"] = number(value, "--lambda max-pollers", true);
        else
            throw Bad { "--lambda: unknown part '" + key
                + "' (timeout, batch, window, concurrency, partial, min-pollers, max-pollers)" };
    }
    if (!l.contains("timeout"))
        throw Bad { "--lambda: timeout= is needed (the function's timeout, 1s to 15m)" };
    return l;
}

struct CheckOptions {
    json attributes;
    std::string attributesFile; // where a SARIF result points
    std::string templateFile; // --template: every queue of a CloudFormation, SAM or CDK template
    bool terraform = false; // --terraform: templateFile is what `terraform show -json` printed
    json consumer = json::object();
    json given = json::object(); // the consumer side's options given on the command line
    std::optional<json> dlq;
    std::string format = "text";
    std::string scenarioDir;
    check::Severity failOn = check::Severity::High;
    std::vector<check::Waiver> waivers; // --ignore
    ui::LiveQueueRequest live; // --queue-url
};

// A setter from a function that throws Bad for a refused value.
OptionTable<CheckOptions>::Setter reading(void (*read)(CheckOptions&, const std::string&))
{
    return [read](CheckOptions& o, const std::string& v) -> std::optional<std::string> {
        try {
            read(o, v);
            return std::nullopt;
        } catch (const Bad& bad) {
            return bad.message;
        }
    };
}

// The consumer side's option `key` from a whole number, or any number.
OptionTable<CheckOptions>::Setter given(const char* option, const char* key, bool whole)
{
    return [option, key, whole](CheckOptions& o, const std::string& v) -> std::optional<std::string> {
        try {
            o.given[key] = number(v, option, whole);
            return std::nullopt;
        } catch (const Bad& bad) {
            return bad.message;
        }
    };
}

// Where the queue is read from: an attributes file, a template, a plan, a live queue.
void addInputOptions(OptionTable<CheckOptions>& t)
{
    using Said = std::optional<std::string>;
    t.values.insert({ "--attributes", reading([](CheckOptions& o, const std::string& v) {
                         o.attributes = readJsonFile(v, "--attributes");
                         o.attributesFile = v;
                     }) });
    t.values.insert({ "--template", [](CheckOptions& o, const std::string& v) -> Said {
                         o.templateFile = v;
                         o.terraform = false;
                         return std::nullopt;
                     } });
    t.values.insert({ "--terraform", [](CheckOptions& o, const std::string& v) -> Said {
                         o.templateFile = v;
                         o.terraform = true;
                         return std::nullopt;
                     } });
    t.values.insert({ "--queue-url", [](CheckOptions& o, const std::string& v) -> Said {
                         o.live.queueUrl = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--region", [](CheckOptions& o, const std::string& v) -> Said {
                         o.live.region = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--profile", [](CheckOptions& o, const std::string& v) -> Said {
                         o.live.profile = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--dlq-attributes",
        reading([](CheckOptions& o, const std::string& v) { o.dlq = readJsonFile(v, "--dlq-attributes"); }) });
    t.values.insert({ "--consumer",
        reading([](CheckOptions& o, const std::string& v) { o.consumer = readJsonFile(v, "--consumer"); }) });
}

// The consumer side: how long a message takes, the consumers and their receives, or a Lambda trigger.
void addConsumerOptions(OptionTable<CheckOptions>& t)
{
    using Said = std::optional<std::string>;
    t.values.insert({ "--processing",
        reading([](CheckOptions& o, const std::string& v) { o.given["processing"] = processing(v); }) });
    t.values.insert({ "--consumers", given("--consumers", "consumers", true) });
    t.values.insert({ "--max-messages", given("--max-messages", "maxMessages", true) });
    t.values.insert({ "--wait-time", given("--wait-time", "waitTimeSeconds", true) });
    t.values.insert({ "--read-timeout", [](CheckOptions& o, const std::string& v) -> Said {
                         o.given["readTimeout"] = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--groups", given("--groups", "groups", true) });
    t.values.insert({ "--tenants", given("--tenants", "tenants", true) });
    t.values.insert({ "--rate", given("--rate", "rate", false) });
    t.values.insert(
        { "--lambda", reading([](CheckOptions& o, const std::string& v) { o.given["lambda"] = lambda(v); }) });
}

// What the report is and when it fails.
void addReportOptions(OptionTable<CheckOptions>& t)
{
    using Said = std::optional<std::string>;
    t.values.insert({ "--format", [](CheckOptions& o, const std::string& v) -> Said {
                         if (v != "text" && v != "json" && v != "sarif")
                             return "--format takes text, json or sarif, got '" + v + "'";
                         o.format = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--scenario-out", [](CheckOptions& o, const std::string& v) -> Said {
                         o.scenarioDir = v;
                         return std::nullopt;
                     } });
    t.values.insert({ "--fail-on", [](CheckOptions& o, const std::string& v) -> Said {
                         if (v != "high" && v != "medium" && v != "low")
                             return "--fail-on takes high, medium or low, got '" + v + "'";
                         o.failOn = v == "high" ? check::Severity::High
                             : v == "medium"    ? check::Severity::Medium
                                                : check::Severity::Low;
                         return std::nullopt;
                     } });
    t.values.insert({ "--ignore", [](CheckOptions& o, const std::string& v) -> Said {
                         for (const auto& [id, unused] : pairs(v))
                             o.waivers.push_back({ id, "--ignore" });
                         return std::nullopt;
                     } });
}

const OptionTable<CheckOptions>& checkOptionTable()
{
    static const OptionTable<CheckOptions> table = [] {
        OptionTable<CheckOptions> t;
        t.command = "check";
        t.emptyIsMissing = false;
        addInputOptions(t);
        addConsumerOptions(t);
        addReportOptions(t);
        t.flags = { { "--heartbeat", [](CheckOptions& o) { o.given["heartbeat"] = true; } },
            { "--lambda-mappings", [](CheckOptions& o) { o.live.lambdaMappings = true; } },
            { "--insecure-upstream", [](CheckOptions& o) { o.live.insecure = true; } } };
        return t;
    }();
    return table;
}

// The report's settings from the command line; `source` and `kind` say where the queues were read.
check::CheckRun checkRun(const CheckOptions& options, std::string source, check::CheckRun::Source kind)
{
    check::CheckRun run;
    run.source = std::move(source);
    run.kind = kind;
    run.consumer = options.consumer;
    run.given = options.given;
    run.waivers = options.waivers;
    run.format = options.format == "json" ? check::ReportFormat::Json
        : options.format == "sarif"       ? check::ReportFormat::Sarif
                                          : check::ReportFormat::Text;
    run.scenarioDir = options.scenarioDir;
    run.failOn = options.failOn;
    run.toolVersion = LIFELINE_VERSION;
    run.homepage = LIFELINE_HOMEPAGE;
    return run;
}

// The check's exit status: 1 a finding fails it, 0 none; 2 (with the reason) it could not be made.
int exitOf(const Outcome<bool>& checked, std::ostream& err)
{
    if (!checked)
        return refuseArguments(err, "check", checked.message());
    return checked.value() ? 1 : 0;
}

int checkTemplate(const CheckOptions& options, std::ostream& out, std::ostream& err)
{
    const std::string option = options.terraform ? "--terraform" : "--template";
    std::ifstream file(options.templateFile, std::ios::binary);
    if (!file)
        return refuseArguments(err, "check", option + ": cannot read " + options.templateFile);
    std::ostringstream text;
    text << file.rdbuf();
    const auto queues = options.terraform ? check::readTerraformPlan(text.str(), options.templateFile)
                                          : check::readTemplate(text.str(), options.templateFile);
    if (!queues)
        return refuseArguments(err, "check", option + ": " + queues.message());
    return exitOf(check::checkQueues(queues.value(),
                      checkRun(options, options.templateFile,
                          options.terraform ? check::CheckRun::Source::Terraform : check::CheckRun::Source::Template),
                      out),
        err);
}

// --queue-url: the queue as SQS (and Lambda) answer for it, checked as a template's queue; its URL is where a
// finding points.
int checkLiveQueue(const CheckOptions& options, std::ostream& out, std::ostream& err)
{
    const auto queue = ui::readLiveQueue(options.live);
    if (!queue)
        return refuseArguments(err, "check", queue.message());
    return exitOf(check::checkQueues(
                      { queue.value() }, checkRun(options, options.live.queueUrl, check::CheckRun::Source::Live), out),
        err);
}

} // namespace

int runCheck(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            out << kCheckHelp;
            return 0;
        }
    auto parsed = parseOptions(checkOptionTable(), args, 1);
    if (!parsed) {
        err << parsed.message() << '\n';
        return 2;
    }
    const CheckOptions& options = parsed.value();
    if (!options.consumer.is_object())
        return refuseArguments(err, "check", "--consumer: must be a JSON object");
    if (!options.templateFile.empty())
        return checkTemplate(options, out, err);
    if (!options.live.queueUrl.empty())
        return checkLiveQueue(options, out, err);
    if (options.attributes.is_null())
        return refuseArguments(err, "check",
            "--attributes FILE.json (what `aws sqs get-queue-attributes` prints) or --template FILE is needed");
    return exitOf(check::checkAttributes(options.attributes, options.dlq ? &*options.dlq : nullptr,
                      checkRun(options, options.attributesFile, check::CheckRun::Source::Attributes), out),
        err);
}

} // namespace lifeline::app
