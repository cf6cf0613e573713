// `lifeline check`: the rules in their order, each run over the input, and the findings written out; the words every
// rule uses. The rules themselves are in check_rules_processing.cpp and check_rules_delivery.cpp (check_rule.h).
// Sources: docs/sqs-semantics.md, section 6.
#include "check_rule.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::sim {

using nlohmann::json;

namespace check {

std::string seconds(int64_t s)
{
    return formatDuration(s * 1000);
}

// Never "0.0 %" for a share that is not nothing.
std::string percent(double share)
{
    if (share > 0 && share < 0.001)
        return "under 0.1 %";
    char text[32];
    std::snprintf(text, sizeof text, share >= 0.1 ? "%.0f %%" : "%.1f %%", share * 100.0);
    return text;
}

int64_t visibilityFor(TimeMs ms)
{
    const auto [shortest, longest] = attributeRange("VisibilityTimeout").value();
    return std::clamp<int64_t>((ms + 999) / 1000, std::max<int64_t>(shortest, 1), longest);
}

json replaceAttribute(const std::string& name, int64_t value)
{
    return json::array({ { { "op", "replace" }, { "path", "/queues/0/attributes/" + name }, { "value", value } } });
}

const std::vector<const CheckRule*>& checkRules()
{
    // Within a severity, findings come in this order: processing against the timeouts, Lambda, dead letters,
    // polling, then FIFO groups, tenants and retention.
    static const std::vector<const CheckRule*> rules { &kVisibilityShorterThanProcessing, &kBatchExceedsVisibility,
        &kLambdaVisibilityUnder6x, &kLambdaProcessingOverTimeout, &kBacklogGrows, &kLambdaBatchWithoutPartialFailures,
        &kDelayWithLambdaBatchingWindow, &kNoDlq, &kMaxReceiveCount1, &kMaxReceiveCountHigh, &kDlqRetentionNotLonger,
        &kShortPolling, &kClientTimeoutUnderWait, &kFifoSingleGroup, &kTenantsWithoutGroupId,
        &kVisibilityOverRetention };
    return rules;
}

const CheckRule* findRule(std::string_view id)
{
    for (const CheckRule* rule : checkRules())
        if (rule->id == id)
            return rule;
    return nullptr;
}

} // namespace check

const char* severityName(Severity severity)
{
    switch (severity) {
    case Severity::High:
        return "high";
    case Severity::Medium:
        return "medium";
    case Severity::Low:
        return "low";
    }
    return "low";
}

std::vector<Finding> checkQueue(const CheckInput& input)
{
    std::vector<Finding> found;
    for (const check::CheckRule* rule : check::checkRules()) {
        auto fired = rule->fires(input);
        if (!fired)
            continue;
        Finding f { std::string(rule->id), fired->severity, std::move(fired->message), std::move(fired->suggestion),
            nullptr, {} };
        f.scenario = findingScenario(input, f, fired->fix);
        if (f.scenario.is_null())
            f.noScenario = "the simulation has no such setting to show it with";
        found.push_back(std::move(f));
    }
    std::stable_sort(found.begin(), found.end(),
        [](const Finding& a, const Finding& b) { return int(a.severity) < int(b.severity); });
    return found;
}

json findingsJson(const std::vector<Finding>& findings)
{
    json list = json::array();
    for (const auto& f : findings)
        list.push_back({ { "id", f.id }, { "severity", severityName(f.severity) }, { "message", f.message },
            { "suggestion", f.suggestion } });
    return { { "findings", list } };
}

std::string findingsText(const CheckInput& input, const std::vector<Finding>& findings)
{
    std::string out = input.queueName + ": ";
    out += findings.empty() ? "no findings.\n" : std::to_string(findings.size()) + " finding(s)\n";
    for (const auto& f : findings)
        out += "\n[" + std::string(severityName(f.severity)) + "] " + f.id + "\n  " + f.message
            + "\n  Suggestion: " + f.suggestion + "\n";
    return out;
}

} // namespace lifeline::sim
