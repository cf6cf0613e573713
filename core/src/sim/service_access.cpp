// A queue policy read as IAM evaluates a resource policy for one request: an explicit Deny wins, then any Allow;
// nothing allows by default. Only what a service's SendMessage needs is read: Principal (a "Service" or "*"),
// Action, Resource, and the condition operators ArnEquals, ArnLike, StringEquals and StringLike on aws:SourceArn and
// aws:SourceAccount. A statement with any other condition does not apply (docs/decisions.md, "Services that send").
#include "service_access.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace lifeline::sim {

namespace {

using nlohmann::json;

// A string or a list of strings, as IAM writes one value or several.
std::vector<std::string> values(const json& v)
{
    if (v.is_string())
        return { v.get<std::string>() };
    std::vector<std::string> out;
    if (v.is_array())
        for (const json& item : v)
            if (item.is_string())
                out.push_back(item.get<std::string>());
    return out;
}

bool anyMatches(const json& patterns, const std::string& text, bool ignoreCase)
{
    const auto list = values(patterns);
    return std::any_of(
        list.begin(), list.end(), [&](const std::string& p) { return iamPatternMatches(p, text, ignoreCase); });
}

bool principalMatches(const json& principal, const ServiceSender& sender)
{
    if (principal.is_string())
        return principal.get<std::string>() == "*";
    if (!principal.is_object())
        return false;
    if (principal.contains("AWS")) {
        const auto named = values(principal["AWS"]);
        const auto caller = [&](const std::string& p) {
            return p == "*" || p == sender.callerAccount || p == "arn:aws:iam::" + sender.callerAccount + ":root";
        };
        if (named == std::vector<std::string> { "*" }
            || (!sender.callerAccount.empty() && std::any_of(named.begin(), named.end(), caller)))
            return true;
    }
    return sender.callerAccount.empty() && principal.contains("Service")
        && anyMatches(principal["Service"], sender.principal, false);
}

bool conditionHolds(const json& condition, const ServiceSender& sender)
{
    if (!condition.is_object())
        return false;
    for (const auto& [op, tests] : condition.items()) {
        const bool like = op == "ArnLike" || op == "StringLike";
        if (!like && op != "ArnEquals" && op != "StringEquals")
            return false;
        if (!tests.is_object())
            return false;
        for (const auto& [key, expected] : tests.items()) {
            std::string lowered = key;
            std::transform(
                lowered.begin(), lowered.end(), lowered.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            const std::string* actual = lowered == "aws:sourcearn" ? &sender.sourceArn
                : lowered == "aws:sourceaccount"                   ? &sender.sourceAccount
                                                                   : nullptr;
            if (!actual)
                return false;
            const auto list = values(expected);
            const bool any = std::any_of(list.begin(), list.end(),
                [&](const std::string& v) { return like ? iamPatternMatches(v, *actual) : v == *actual; });
            if (!any)
                return false;
        }
    }
    return true;
}

bool statementApplies(const json& statement, const std::string& queueArn, const ServiceSender& sender)
{
    if (!statement.is_object() || !principalMatches(statement.value("Principal", json()), sender))
        return false;
    if (!anyMatches(statement.value("Action", json()), "sqs:SendMessage", true))
        return false;
    if (statement.contains("Resource") && !anyMatches(statement["Resource"], queueArn, false))
        return false;
    return !statement.contains("Condition") || conditionHolds(statement["Condition"], sender);
}

// Allowed, denied by a statement, or allowed by none.
enum class Verdict { Allowed, Denied, NotAllowed };

Verdict evaluate(const std::string& policy, const std::string& queueArn, const ServiceSender& sender)
{
    const json parsed = json::parse(policy, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
        return Verdict::NotAllowed;
    json statements = parsed.value("Statement", json::array());
    if (statements.is_object())
        statements = json::array({ statements });
    bool allowed = false;
    for (const json& statement : statements) {
        if (!statementApplies(statement, queueArn, sender))
            continue;
        if (statement.value("Effect", "") == "Deny")
            return Verdict::Denied;
        allowed = allowed || statement.value("Effect", "") == "Allow";
    }
    return allowed ? Verdict::Allowed : Verdict::NotAllowed;
}

// arn:aws:sqs:REGION:ACCOUNT:NAME, in its six parts.
std::vector<std::string> arnParts(const std::string& arn)
{
    std::vector<std::string> parts;
    for (size_t from = 0, colon = 0; colon != std::string::npos; from = colon + 1)
        parts.push_back(arn.substr(from, (colon = arn.find(':', from)) - from));
    parts.resize(6);
    return parts;
}

// SQS's refusal of a caller the queue's policy does not let in, as AWS words it: the queue's URL, no reason.
SqsError callerRefusal(const std::vector<std::string>& queueArn)
{
    const std::string url = "https://sqs." + queueArn[3] + ".amazonaws.com/" + queueArn[4] + "/" + queueArn[5];
    return SqsError { "AccessDenied", "Access to the resource " + url + " is denied.", 403, true };
}

} // namespace

ServiceSender callerOf(const std::string& account)
{
    return ServiceSender { "arn:aws:iam::" + account + ":root", {}, {}, account };
}

bool iamPatternMatches(const std::string& pattern, const std::string& text, bool ignoreCase)
{
    const auto same = [&](char a, char b) {
        return ignoreCase ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
                          : a == b;
    };
    // The classic two-pointer match, backtracking to the last `*`.
    size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && (pattern[p] == '?' || same(pattern[p], text[t]))) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::optional<SqsError> serviceSendRefusal(const Engine& engine, const std::string& queue, const ServiceSender& sender,
    const std::vector<scenario::KmsKeySpec>& keys)
{
    const AttributeMap attributes
        = engine.getQueueAttributes(queue, { "Policy", "KmsMasterKeyId", "QueueArn" }).value();
    const auto policy = attributes.find("Policy");
    const std::string queueArn = attributes.at("QueueArn");
    const Verdict verdict
        = policy == attributes.end() ? Verdict::NotAllowed : evaluate(policy->second, queueArn, sender);
    if (!sender.callerAccount.empty()) { // the queue's own account is let in by its identity policies, not here
        const auto parts = arnParts(queueArn);
        if (verdict == Verdict::Allowed || parts[4] == sender.callerAccount)
            return std::nullopt;
        return callerRefusal(parts);
    }
    if (verdict != Verdict::Allowed)
        return SqsError { "AccessDenied",
            verdict == Verdict::Denied ? "a Deny statement of " + queue + "'s policy refuses " + sender.principal
                    + " sqs:SendMessage; the event is dropped"
                                       : "no statement of " + queue + "'s policy allows " + sender.principal
                    + " sqs:SendMessage for " + sender.sourceArn + "; the event is dropped",
            403, true };
    const auto key = attributes.find("KmsMasterKeyId");
    if (key == attributes.end() || key->second.empty())
        return std::nullopt;
    const auto spec
        = std::find_if(keys.begin(), keys.end(), [&](const scenario::KmsKeySpec& k) { return k.alias == key->second; });
    if (spec != keys.end()
        && std::find(spec->allowServices.begin(), spec->allowServices.end(), sender.principal)
            != spec->allowServices.end())
        return std::nullopt;
    std::string why = spec != keys.end() ? "the key policy of " + key->second + " does not let " + sender.principal
            + " use it (kms:GenerateDataKey, kms:Decrypt)"
        : key->second == "alias/aws/sqs"
        ? "alias/aws/sqs is the AWS managed key: its key policy cannot be changed to let " + sender.principal
            + " use it"
        : "no key " + key->second + " in the scenario's kmsKeys";
    return SqsError { "KMS.AccessDeniedException", why + "; the event is dropped", 400, true };
}

} // namespace lifeline::sim
