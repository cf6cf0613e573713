#include "lifeline/check/sarif_report.h"

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

json locationOf(const CheckedQueue& q)
{
    json physical = { { "artifactLocation", { { "uri", q.file } } } };
    if (q.line > 0)
        physical["region"] = { { "startLine", q.line } };
    return { { "physicalLocation", physical },
        { "logicalLocations", json::array({ { { "name", q.queue }, { "kind", "resource" } } }) } };
}

} // namespace

json findingsSarif(const std::vector<CheckedQueue>& queues, const std::string& toolVersion)
{
    json rules = json::array();
    json results = json::array();
    std::set<std::string> ruleIds;
    for (const CheckedQueue& q : queues) {
        for (const Finding& f : q.findings) {
            if (ruleIds.insert(f.id).second)
                rules.push_back({ { "id", f.id }, { "defaultConfiguration", { { "level", levelOf(f.severity) } } } });
            json result { { "ruleId", f.id }, { "level", levelOf(f.severity) },
                { "message", { { "text", q.queue + ": " + f.message + " Suggestion: " + f.suggestion } } },
                { "locations", json::array({ locationOf(q) }) } };
            // A waiver is a suppression: code scanning lists the result as dismissed, with where it was waived.
            if (!f.waivedBy.empty())
                result["suppressions"] = json::array({ { { "kind", f.waivedBy == "--ignore" ? "external" : "inSource" },
                    { "justification", "waived by " + f.waivedBy } } });
            results.push_back(std::move(result));
        }
    }
    json driver = { { "name", "lifeline check" }, { "version", toolVersion }, { "rules", rules } };
    return { { "$schema", "https://json.schemastore.org/sarif-2.1.0.json" }, { "version", "2.1.0" },
        { "runs", json::array({ { { "tool", { { "driver", driver } } }, { "results", results } } }) } };
}

} // namespace lifeline::check
