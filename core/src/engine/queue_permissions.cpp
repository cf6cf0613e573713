#include "queue_permissions.h"

#include <nlohmann/json.hpp>

namespace lifeline {

namespace {
using Policy = nlohmann::ordered_json; // AWS's key order: Version, Id, Statement; Sid, Effect, Principal, ...

SqsError missing(const char* parameter)
{
    return makeError(codes::MissingParameter, std::string("The request must contain the parameter ") + parameter + ".");
}

SqsError badLabel(const std::string& label, const char* reason)
{
    return makeError(
        codes::InvalidParameterValue, "Value " + label + " for parameter Label is invalid. Reason: " + reason);
}

// The queue's policy as a document with a Statement list; a new one when it has none (or one that is not JSON).
Policy policyOf(const std::string& text, const std::string& queueArn)
{
    Policy policy = Policy::parse(text, nullptr, false);
    if (!policy.is_object())
        policy = Policy { { "Version", "2008-10-17" }, { "Id", queueArn + "/SQSDefaultPolicy" } };
    if (!policy.contains("Statement"))
        policy["Statement"] = Policy::array();
    else if (!policy["Statement"].is_array())
        policy["Statement"] = Policy::array({ policy["Statement"] });
    return policy;
}

bool hasLabel(const Policy& policy, const std::string& label)
{
    for (const auto& statement : policy["Statement"])
        if (statement.is_object() && statement.value("Sid", "") == label)
            return true;
    return false;
}

// One name, or the list of them when there are more (AWS's "Principal": {"AWS": ...} and "Action").
Policy oneOrList(const std::vector<std::string>& values)
{
    return values.size() == 1 ? Policy(values.front()) : Policy(values);
}
} // namespace

Result<std::string> policyWithPermission(const std::string& text, const std::string& queueArn, const std::string& label,
    const std::vector<std::string>& accounts, const std::vector<std::string>& actions)
{
    if (label.empty())
        return missing("Label");
    if (accounts.empty())
        return missing("AWSAccountIds");
    if (actions.empty())
        return missing("Actions");
    Policy policy = policyOf(text, queueArn);
    if (hasLabel(policy, label))
        return badLabel(label, "Already exists.");
    // The queue's partition ("arn:aws:sqs:..." -> "aws") names the accounts' root principals.
    const std::string partition = queueArn.substr(4, queueArn.find(':', 4) - 4);
    std::vector<std::string> principals, allowed;
    for (const auto& account : accounts)
        principals.push_back("arn:" + partition + ":iam::" + account + ":root");
    for (const auto& action : actions)
        allowed.push_back("SQS:" + action);
    policy["Statement"].push_back(
        Policy { { "Sid", label }, { "Effect", "Allow" }, { "Principal", { { "AWS", oneOrList(principals) } } },
            { "Action", oneOrList(allowed) }, { "Resource", queueArn } });
    return policy.dump();
}

Result<std::string> policyWithoutPermission(
    const std::string& text, const std::string& queueArn, const std::string& label)
{
    if (label.empty())
        return missing("Label");
    Policy policy = policyOf(text, queueArn);
    if (!hasLabel(policy, label))
        return badLabel(label, "can't find label.");
    Policy& statements = policy["Statement"];
    Policy kept = Policy::array();
    for (auto& statement : statements)
        if (!statement.is_object() || statement.value("Sid", "") != label)
            kept.push_back(std::move(statement));
    // The last statement gone, so is the policy: GetQueueAttributes then has no Policy to give.
    statements = std::move(kept);
    return statements.empty() ? std::string() : policy.dump();
}

} // namespace lifeline
