// `lifeline check`: the rules in their order, each run over the input, and the findings written out; the words every
// rule uses. The rules themselves are in check_rules_processing.cpp and check_rules_delivery.cpp (check_rule.h).
// Sources: docs/sqs-semantics.md, section 6.
#include "check_rule.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace lifeline::check {

using nlohmann::json;

namespace rules {

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
    // Within a severity, findings come in this order: what AWS refuses, processing against the timeouts, Lambda,
    // dead letters, polling, then FIFO groups, tenants and retention, and what lies around the queue.
    static const std::vector<const CheckRule*> rules { &kLambdaVisibilityUnderTimeout, &kLambdaBatchOver10WithoutWindow,
        &kVisibilityShorterThanProcessing, &kBatchExceedsVisibility, &kLambdaVisibilityUnder6x,
        &kLambdaProcessingOverTimeout, &kBacklogGrows, &kLambdaBatchWithoutPartialFailures,
        &kDelayWithLambdaBatchingWindow, &kLambdaProvisionedWithMaximumConcurrency, &kLambdaReservedUnderMax, &kNoDlq,
        &kMaxReceiveCount1, &kLambdaMaxReceiveCountUnder5, &kMaxReceiveCountHigh, &kDlqRetentionNotLonger,
        &kShortPolling, &kClientTimeoutUnderWait, &kFifoSingleGroup, &kTenantsWithoutGroupId, &kVisibilityOverRetention,
        &kQueuePolicyPublic, &kDlqWithoutAlarm, &kFifoDlqBreaksOrder, &kMessageSizeOldDefault };
    return rules;
}

std::string unmet(const CheckRule& rule, const CheckInput& in)
{
    if (rule.needs.processing && !in.processingKnown)
        return "processing times";
    if (rule.needs.lambdaTimeout && in.lambda && !in.lambda->timeoutKnown)
        return "the function's timeout";
    return {};
}

const CheckRule* findRule(std::string_view id)
{
    for (const CheckRule* rule : checkRules())
        if (rule->id == id)
            return rule;
    return nullptr;
}

} // namespace rules

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

namespace {

// What a scenario is written from that the input lacks ("" when it has it all).
std::string scenarioInputs(const CheckInput& input)
{
    if (!input.processingKnown)
        return "how long a message takes (processing times)";
    if (input.lambda && !input.lambda->timeoutKnown)
        return "the function's timeout";
    return {};
}

} // namespace

std::vector<Finding> checkQueue(const CheckInput& input)
{
    std::vector<std::pair<const rules::CheckRule*, rules::RuleFinding>> fired;
    const rules::CheckRule* refused = nullptr; // a rule saying AWS refuses the setup: no run of it can start
    for (const rules::CheckRule* rule : rules::checkRules()) {
        if (!rules::unmet(*rule, input).empty())
            continue; // listed by notCheckedRules
        if (auto finding = rule->fires(input)) {
            fired.emplace_back(rule, std::move(*finding));
            if (rule->refusedByAws && !refused)
                refused = rule;
        }
    }
    std::vector<Finding> found;
    for (auto& [rule, fields] : fired) {
        Finding f { std::string(rule->id), fields.severity, std::move(fields.message), std::move(fields.suggestion),
            nullptr, {}, {} };
        if (refused)
            f.noScenario = rule == refused
                ? std::string(rule->noScenario)
                : "AWS refuses this setup (" + std::string(refused->id) + "): there is no run until it is fixed";
        else if (!scenarioInputs(input).empty())
            f.noScenario = "a scenario needs " + scenarioInputs(input) + ", which the input does not say";
        else if (!rule->shape)
            f.noScenario = rule->noScenario.empty() ? "the simulation has no such setting to show it with"
                                                    : std::string(rule->noScenario);
        else
            f.scenario = findingScenario(input, f, fields.fix);
        if (f.scenario.is_null() && f.noScenario.empty())
            f.noScenario = "the simulation has no such setting to show it with";
        found.push_back(std::move(f));
    }
    std::stable_sort(found.begin(), found.end(),
        [](const Finding& a, const Finding& b) { return int(a.severity) < int(b.severity); });
    return found;
}

std::vector<NotChecked> notCheckedRules(const CheckInput& input)
{
    std::vector<NotChecked> out;
    for (const rules::CheckRule* rule : rules::checkRules())
        if (const std::string needs = rules::unmet(*rule, input); !needs.empty())
            out.push_back({ std::string(rule->id), needs });
    return out;
}

Outcome<std::vector<Finding>> applyWaivers(std::vector<Finding> findings, const std::vector<Waiver>& waivers)
{
    for (const Waiver& w : waivers) {
        if (!rules::findRule(w.id)) {
            std::string known;
            for (const rules::CheckRule* rule : rules::checkRules())
                known += (known.empty() ? "" : ", ") + std::string(rule->id);
            return Failure { w.by + ": no rule \"" + w.id + "\" to waive (the rules: " + known + ")" };
        }
        for (Finding& f : findings)
            if (f.id == w.id && f.waivedBy.empty())
                f.waivedBy = w.by;
    }
    return findings;
}

json findingsJson(const std::vector<Finding>& findings)
{
    json list = json::array();
    json waived = json::array();
    for (const auto& f : findings) {
        json entry { { "id", f.id }, { "severity", severityName(f.severity) }, { "message", f.message },
            { "suggestion", f.suggestion } };
        if (f.waivedBy.empty()) {
            list.push_back(std::move(entry));
            continue;
        }
        entry["waivedBy"] = f.waivedBy;
        waived.push_back(std::move(entry));
    }
    json out { { "findings", list } };
    if (!waived.empty())
        out["waived"] = waived;
    return out;
}

std::string findingsText(const CheckInput& input, const std::vector<Finding>& findings)
{
    const auto waived
        = size_t(std::count_if(findings.begin(), findings.end(), [](const Finding& f) { return !f.waivedBy.empty(); }));
    const size_t active = findings.size() - waived;
    std::string out = input.queueName + ": ";
    out += active == 0 ? "no findings" : std::to_string(active) + " finding(s)";
    out += waived == 0 ? (active == 0 ? ".\n" : "\n") : ", " + std::to_string(waived) + " waived\n";
    for (const auto& f : findings)
        if (f.waivedBy.empty())
            out += "\n[" + std::string(severityName(f.severity)) + "] " + f.id + "\n  " + f.message
                + "\n  Suggestion: " + f.suggestion + "\n";
    for (const auto& f : findings)
        if (!f.waivedBy.empty())
            out += "\n[waived: " + std::string(severityName(f.severity)) + "] " + f.id + " (by " + f.waivedBy + ")\n  "
                + f.message + "\n";
    return out;
}

} // namespace lifeline::check
