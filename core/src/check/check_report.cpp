#include "lifeline/check/check_report.h"

#include "lifeline/check/sarif_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>

namespace lifeline::check {

namespace {

using nlohmann::json;

// DIR/PREFIXID.json per finding that has a scenario; what could not be written, if anything.
std::optional<std::string> writeScenarios(
    const std::vector<Finding>& findings, const std::string& dir, const std::string& prefix)
{
    if (dir.empty())
        return std::nullopt;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    for (const auto& f : findings) {
        if (f.scenario.is_null() || !f.waivedBy.empty())
            continue;
        std::ofstream file(std::filesystem::path(dir) / (prefix + f.id + ".json"));
        file << f.scenario.dump(2) << '\n';
        if (!file)
            return "--scenario-out: cannot write " + dir + "/" + prefix + f.id + ".json";
    }
    return std::nullopt;
}

// Where the processing times a queue's source cannot give are given.
std::string processingHint(CheckRun::Source kind)
{
    switch (kind) {
    case CheckRun::Source::Terraform:
        return "give --processing: a plan says nothing of the consumers";
    case CheckRun::Source::Live:
        return "give --processing: SQS does not know how long your consumers take";
    case CheckRun::Source::Attributes:
        return "give --processing";
    default:
        return "give --processing, or Metadata: {lifeline: {processing: ...}} on the queue or its function";
    }
}

// The rules not run for want of an input, by what they need: "not checked without processing times:
// visibility-shorter-than-processing, backlog-grows (give --processing)".
std::vector<std::string> notCheckedLines(const std::vector<NotChecked>& rules, CheckRun::Source kind)
{
    std::vector<std::pair<std::string, std::string>> byNeed;
    for (const NotChecked& rule : rules) {
        auto it = std::find_if(byNeed.begin(), byNeed.end(), [&](const auto& n) { return n.first == rule.needs; });
        if (it == byNeed.end())
            byNeed.emplace_back(rule.needs, rule.id);
        else
            it->second += ", " + rule.id;
    }
    std::vector<std::string> out;
    out.reserve(byNeed.size());
    for (const auto& [needs, ids] : byNeed)
        out.push_back("not checked without " + needs + ": " + ids
            + (needs == "processing times" ? " (" + processingHint(kind) + ")" : std::string()));
    return out;
}

json notCheckedJson(const std::vector<NotChecked>& rules)
{
    std::vector<json> out;
    out.reserve(rules.size());
    for (const NotChecked& rule : rules)
        out.push_back({ { "id", rule.id }, { "needs", rule.needs } });
    return out;
}

} // namespace

bool failsAt(const std::vector<Finding>& findings, Severity failOn)
{
    return std::any_of(findings.begin(), findings.end(),
        [&](const Finding& f) { return f.waivedBy.empty() && int(f.severity) <= int(failOn); });
}

Outcome<bool> checkQueues(const std::vector<TemplateQueue>& queues, const CheckRun& run, std::ostream& out)
{
    json report = json::array();
    std::vector<CheckedQueue> checked;
    bool failed = false;
    for (const TemplateQueue& q : queues) {
        const std::string where = run.source + (q.line > 0 ? ":" + std::to_string(q.line) : "");
        if (!q.deadLetterOf.empty()) { // reviewed as part of its source
            if (run.format == ReportFormat::Json)
                report.push_back({ { "queue", q.logicalId }, { "file", run.source }, { "line", q.line },
                    { "deadLetterOf", q.deadLetterOf } });
            else if (run.format == ReportFormat::Text)
                out << q.logicalId << " (" << where << "): the dead-letter queue of " << q.deadLetterOf << "\n\n";
            continue;
        }
        json consumer = q.consumer;
        consumer.update(run.consumer);
        consumer.update(run.given);
        const json* dlq = q.deadLetterAttributes.is_null() ? nullptr : &q.deadLetterAttributes;
        const auto input = readCheckInput(q.attributes, dlq, consumer);
        if (!input)
            return Failure { where + ": " + q.logicalId + ": " + input.message() };
        std::vector<NotChecked> notChecked = notCheckedRules(input.value());
        notChecked.insert(notChecked.end(), q.notChecked.begin(), q.notChecked.end());
        std::vector<Waiver> waivers = q.waivers;
        waivers.insert(waivers.end(), run.waivers.begin(), run.waivers.end());
        const auto findings = applyWaivers(checkQueue(input.value()), waivers);
        if (!findings)
            return Failure { where + ": " + q.logicalId + ": " + findings.message() };
        if (auto unwritten = writeScenarios(findings.value(), run.scenarioDir, q.logicalId + "-"))
            return Failure { *unwritten };
        failed = failed || failsAt(findings.value(), run.failOn);
        checked.push_back(
            { run.source, q.line, q.logicalId, findings.value(), q.lines, notCheckedLines(notChecked, run.kind) });
        if (run.format == ReportFormat::Json) {
            json entry = findingsJson(findings.value());
            entry["queue"] = q.logicalId;
            entry["file"] = run.source;
            entry["line"] = q.line;
            entry["unknown"] = q.unknown;
            entry["notChecked"] = notCheckedJson(notChecked);
            report.push_back(entry);
        } else if (run.format == ReportFormat::Text) {
            out << q.logicalId << " (" << where << ")\n";
            for (const auto& u : q.unknown)
                out << "  not fixed by the " << (run.kind == CheckRun::Source::Terraform ? "plan" : "template") << ": "
                    << u << '\n';
            for (const auto& line : notCheckedLines(notChecked, run.kind))
                out << "  " << line << '\n';
            out << findingsText(input.value(), findings.value()) << '\n';
        }
    }
    if (run.format == ReportFormat::Json)
        out << json { { "queues", report } }.dump(2) << '\n';
    else if (run.format == ReportFormat::Sarif)
        out << findingsSarif(checked, { run.toolVersion, run.homepage }).dump(2) << '\n';
    return failed;
}

Outcome<bool> checkAttributes(const json& attributes, const json* deadLetter, const CheckRun& run, std::ostream& out)
{
    json consumer = run.consumer;
    consumer.update(run.given);
    const auto input = readCheckInput(attributes, deadLetter, consumer);
    if (!input)
        return Failure { input.message() };
    const auto findings = applyWaivers(checkQueue(input.value()), run.waivers);
    if (!findings)
        return Failure { findings.message() };
    if (auto unwritten = writeScenarios(findings.value(), run.scenarioDir, ""))
        return Failure { *unwritten };
    const std::vector<NotChecked> notChecked = notCheckedRules(input.value());
    if (run.format == ReportFormat::Json) {
        json report = findingsJson(findings.value());
        if (!notChecked.empty())
            report["notChecked"] = notCheckedJson(notChecked);
        out << report.dump(2) << '\n';
    } else if (run.format == ReportFormat::Sarif) {
        out << findingsSarif(
            { { run.source, 0, input.value().queueName, findings.value(), {}, notCheckedLines(notChecked, run.kind) } },
            { run.toolVersion, run.homepage })
                   .dump(2)
            << '\n';
    } else {
        out << findingsText(input.value(), findings.value());
        for (const auto& line : notCheckedLines(notChecked, run.kind))
            out << line << '\n';
    }
    return failsAt(findings.value(), run.failOn);
}

} // namespace lifeline::check
