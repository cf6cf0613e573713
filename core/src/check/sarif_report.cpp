#include "lifeline/check/sarif_report.h"

#include "check_rule.h"

#include <filesystem>
#include <set>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

const char* levelOf(Severity severity)
{
    switch (severity) {
    case Severity::High:
        return "error";
    case Severity::Medium:
        return "warning";
    case Severity::Low:
        return "note";
    }
    return "note";
}

// The property a rule's finding is about, where a template says it (TemplateQueue::lines); the queue's own line
// otherwise. A rule about the queue as a whole (no-dlq, a policy) sits on the queue.
const char* propertyAtFault(const std::string& id)
{
    static const std::map<std::string, const char*, std::less<>> property {
        { "visibility-shorter-than-processing", "VisibilityTimeout" },
        { "batch-exceeds-visibility", "VisibilityTimeout" },
        { "lambda-visibility-under-6x", "VisibilityTimeout" },
        { "lambda-visibility-under-timeout", "VisibilityTimeout" },
        { "visibility-over-retention", "VisibilityTimeout" },
        { "lambda-processing-over-timeout", "Timeout" },
        { "lambda-batch-without-partial-failures", "trigger" },
        { "lambda-batch-over-10-without-window", "trigger" },
        { "lambda-reserved-concurrency-under-max", "ReservedConcurrentExecutions" },
        { "lambda-provisioned-with-maximum-concurrency", "trigger" },
        { "delay-with-lambda-batching-window", "DelaySeconds" },
        { "max-receive-count-1", "RedrivePolicy" },
        { "max-receive-count-high", "RedrivePolicy" },
        { "lambda-max-receive-count-under-5", "RedrivePolicy" },
        { "short-polling", "ReceiveMessageWaitTimeSeconds" },
        { "message-size-old-default", "MaximumMessageSize" },
        { "fifo-dlq-breaks-order", "RedrivePolicy" },
    };
    const auto it = property.find(id);
    return it == property.end() ? "" : it->second;
}

// A path as code scanning maps it to the repository: relative to where the check ran when inside it, else a file URI.
std::string artifactUri(const std::string& file)
{
    const std::filesystem::path path(file);
    if (!path.is_absolute() || file.find("://") != std::string::npos)
        return file;
    std::error_code ec;
    const auto here = std::filesystem::current_path(ec);
    const auto relative = path.lexically_normal().lexically_relative(here);
    if (!ec && !relative.empty() && *relative.begin() != "..")
        return relative.generic_string();
    return "file://" + path.lexically_normal().generic_string();
}

json locationOf(const CheckedQueue& q, const Finding& f)
{
    json physical = { { "artifactLocation", { { "uri", artifactUri(q.file) } } } };
    int line = q.line;
    if (const auto it = q.lines.find(propertyAtFault(f.id)); it != q.lines.end() && it->second > 0)
        line = it->second;
    if (line > 0)
        physical["region"] = { { "startLine", line } };
    return { { "physicalLocation", physical },
        { "logicalLocations", json::array({ { { "name", q.queue }, { "kind", "resource" } } }) } };
}

json ruleOf(const Finding& f, const std::string& helpBase)
{
    json rule { { "id", f.id }, { "defaultConfiguration", { { "level", levelOf(f.severity) } } } };
    if (const rules::CheckRule* known = rules::findRule(f.id)) {
        rule["name"] = f.id;
        rule["shortDescription"] = { { "text", std::string(known->summary) } };
        rule["help"] = { { "text",
            std::string(known->summary) + ". The rule, its condition and its source: " + helpBase + "#" + f.id } };
        rule["helpUri"] = helpBase + "#" + f.id;
    }
    return rule;
}

} // namespace

json findingsSarif(const std::vector<CheckedQueue>& queues, const SarifTool& tool)
{
    json rules = json::array();
    json results = json::array();
    json notifications = json::array();
    std::set<std::string> ruleIds;
    const std::string helpBase = tool.homepage + "/docs/check.md";
    for (const CheckedQueue& q : queues) {
        for (const Finding& f : q.findings) {
            if (ruleIds.insert(f.id).second)
                rules.push_back(ruleOf(f, helpBase));
            json result { { "ruleId", f.id }, { "level", levelOf(f.severity) },
                { "message", { { "text", q.queue + ": " + f.message + " Suggestion: " + f.suggestion } } },
                { "locations", json::array({ locationOf(q, f) }) } };
            // A waiver is a suppression: code scanning lists the result as dismissed, with where it was waived.
            if (!f.waivedBy.empty())
                result["suppressions"] = json::array({ { { "kind", f.waivedBy == "--ignore" ? "external" : "inSource" },
                    { "justification", "waived by " + f.waivedBy } } });
            results.push_back(std::move(result));
        }
        // Rules not run for want of an input: said where a code-scanning user reads the run's configuration.
        for (const std::string& line : q.notChecked)
            notifications.push_back({ { "level", "warning" }, { "message", { { "text", q.queue + ": " + line } } } });
    }
    json driver = { { "name", "lifeline check" }, { "version", tool.version }, { "informationUri", helpBase },
        { "rules", rules } };
    json run = { { "tool", { { "driver", driver } } }, { "results", results } };
    if (!notifications.empty())
        run["invocations"]
            = json::array({ { { "executionSuccessful", true }, { "toolConfigurationNotifications", notifications } } });
    return { { "$schema", "https://json.schemastore.org/sarif-2.1.0.json" }, { "version", "2.1.0" },
        { "runs", json::array({ run }) } };
}

} // namespace lifeline::check
