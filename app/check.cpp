#include "check.h"

#include "lifeline/check/queue_check.h"
#include "lifeline/support/duration.h"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace lifeline::app {

namespace {

using nlohmann::json;

constexpr const char* kCheckHelp
    = "Usage: lifeline check --attributes FILE.json [--dlq-attributes FILE.json] --processing p50=2s,p99=40s\n"
      "       [--consumers N] [--max-messages N] [--wait-time S] [--read-timeout D] [--heartbeat] [--groups N]\n"
      "       [--tenants N] [--rate R] [--lambda timeout=30s,batch=10,window=0s,concurrency=5,partial]\n"
      "       [--consumer FILE.json] [--format text|json] [--scenario-out DIR] [--fail-on high|medium|low]\n"
      "Reviews a queue's settings against how its consumers behave. The attributes are what\n"
      "`aws sqs get-queue-attributes --attribute-names All` prints (or a plain name-to-value map).\n"
      "\n"
      "  --attributes FILE      the queue's attributes\n"
      "  --dlq-attributes FILE  its dead-letter queue's attributes\n"
      "  --processing P         how long a message takes: p50=2s,p99=40s, samples=1.2,3,40 (seconds), or 5s\n"
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
      "  --format F             text (default) or json: {\"findings\": [{\"id\", \"severity\", \"message\", "
      "\"suggestion\"}]}\n"
      "  --scenario-out DIR     write DIR/ID.json per finding: a scenario that shows it, the suggestion as its fix\n"
      "  --fail-on LEVEL        exit 1 on a finding of this severity or above: high (default), medium or low\n"
      "  --help                 this text\n"
      "\n"
      "Exit status: 0 no finding at --fail-on's severity or above, 1 some, 2 bad input (the message names the\n"
      "field).\n"
      "\n"
      "Example:\n"
      "  aws sqs get-queue-attributes --queue-url URL --attribute-names All > attrs.json\n"
      "  lifeline check --attributes attrs.json --processing p50=2s,p99=40s --consumers 4 --scenario-out checks\n";

int fail(std::ostream& err, const std::string& why)
{
    err << "lifeline check: " << why << '\n';
    return 2;
}

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
        else
            throw Bad { "--lambda: unknown part '" + key + "' (timeout, batch, window, concurrency, partial)" };
    }
    return l;
}

struct CheckOptions {
    json attributes;
    json consumer = json::object();
    json given = json::object(); // the consumer side's options given on the command line
    std::optional<json> dlq;
    std::string format = "text";
    std::string scenarioDir;
    sim::Severity failOn = sim::Severity::High;
};

// One option and its value into `o`; a Bad names what is wrong.
void readOption(const std::string& a, const std::string& v, CheckOptions& o)
{
    if (a == "--attributes")
        o.attributes = readJsonFile(v, a);
    else if (a == "--dlq-attributes")
        o.dlq = readJsonFile(v, a);
    else if (a == "--consumer")
        o.consumer = readJsonFile(v, a);
    else if (a == "--processing")
        o.given["processing"] = processing(v);
    else if (a == "--consumers")
        o.given["consumers"] = number(v, a, true);
    else if (a == "--max-messages")
        o.given["maxMessages"] = number(v, a, true);
    else if (a == "--wait-time")
        o.given["waitTimeSeconds"] = number(v, a, true);
    else if (a == "--read-timeout")
        o.given["readTimeout"] = v;
    else if (a == "--groups")
        o.given["groups"] = number(v, a, true);
    else if (a == "--tenants")
        o.given["tenants"] = number(v, a, true);
    else if (a == "--rate")
        o.given["rate"] = number(v, a, false);
    else if (a == "--lambda")
        o.given["lambda"] = lambda(v);
    else if (a == "--format" && (v == "text" || v == "json"))
        o.format = v;
    else if (a == "--scenario-out")
        o.scenarioDir = v;
    else if (a == "--fail-on" && (v == "high" || v == "medium" || v == "low"))
        o.failOn = v == "high" ? sim::Severity::High : v == "medium" ? sim::Severity::Medium : sim::Severity::Low;
    else if (a == "--fail-on")
        throw Bad { "--fail-on takes high, medium or low, got '" + v + "'" };
    else
        throw Bad { "unknown option '" + a + "' or value '" + v + "' (see `lifeline check --help`)" };
}

CheckOptions readOptions(const std::vector<std::string>& args)
{
    CheckOptions o;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--heartbeat") {
            o.given["heartbeat"] = true;
            continue;
        }
        if (i + 1 >= args.size())
            throw Bad { "unknown option or missing value: '" + a + "' (see `lifeline check --help`)" };
        readOption(a, args[++i], o);
    }
    return o;
}

} // namespace

int runCheck(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            out << kCheckHelp;
            return 0;
        }
    CheckOptions options;
    try {
        options = readOptions(args);
    } catch (const Bad& bad) {
        return fail(err, bad.message);
    }
    auto& [attributes, consumer, given, dlq, format, scenarioDir, failOn] = options;
    if (attributes.is_null())
        return fail(err, "--attributes FILE.json is needed (what `aws sqs get-queue-attributes` prints)");
    if (!consumer.is_object())
        return fail(err, "--consumer: must be a JSON object");
    consumer.update(given);
    const auto input = sim::readCheckInput(attributes, dlq ? &*dlq : nullptr, consumer);
    if (!input)
        return fail(err, input.message());
    const auto findings = sim::checkQueue(input.value());
    if (!scenarioDir.empty()) {
        std::error_code ec;
        std::filesystem::create_directories(scenarioDir, ec);
        for (const auto& f : findings) {
            if (f.scenario.is_null())
                continue;
            std::ofstream file(std::filesystem::path(scenarioDir) / (f.id + ".json"));
            file << f.scenario.dump(2) << '\n';
            if (!file)
                return fail(err, "--scenario-out: cannot write " + scenarioDir + "/" + f.id + ".json");
        }
    }
    if (format == "json")
        out << sim::findingsJson(findings).dump(2) << '\n';
    else
        out << sim::findingsText(input.value(), findings);
    // Severity counts down from High: a finding at failOn or above fails the check.
    for (const auto& f : findings)
        if (int(f.severity) <= int(failOn))
            return 1;
    return 0;
}

} // namespace lifeline::app
