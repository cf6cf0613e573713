// The values of a CloudFormation template as far as the template itself fixes them: its functions (Ref, GetAtt,
// Sub, Join, Select, Split, FindInMap, If with its conditions) evaluated against its Parameters' defaults, its
// Mappings and its resources' names; what depends on the deployment (a parameter without a default, an import from
// another stack, the stack's name) left open with the reason said, never guessed. A name that leads back to itself
// is refused, as CloudFormation refuses a circular dependency.
#pragma once

#include "template_document.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

namespace lifeline::check {

class TemplateValues {
public:
    // The placeholders of the ARNs and URLs it builds (a template does not say where it is deployed).
    static constexpr const char* kRegion = "us-east-1";
    static constexpr const char* kAccount = "123456789012";

    // Throws TemplateError for a document without Resources.
    explicit TemplateValues(const nlohmann::json& root);

    const nlohmann::json& root() const { return m_root; }
    const nlohmann::json& resources() const { return m_root["Resources"]; }
    std::string typeOf(const std::string& id) const;
    const nlohmann::json& properties(const std::string& id) const;

    // The value `v` stands for, as the template fixes it (text, a number, true or false, a list); nothing, with
    // `why` saying what it depends on, where it does not. `why` is kNoValue for AWS::NoValue: the property is absent.
    std::optional<nlohmann::json> evaluate(const nlohmann::json& v, std::string& why) const;
    // The same as one piece of text ("120" for 120); a list or a map is not fixed as one value.
    std::optional<std::string> text(const nlohmann::json& v, std::string& why) const;
    // A structure with every function in it that the template fixes evaluated, the others left as written.
    nlohmann::json evaluateAll(const nlohmann::json& v) const;
    static constexpr const char* kNoValue = "AWS::NoValue";
    // A Serverless Framework variable (serverless_document.cpp): {kServerlessVariable: "${self:custom.arn}"}.
    static constexpr const char* kServerlessVariable = "Fn::ServerlessVariable";

    // The resource a Ref or a GetAtt names directly (!GetAtt Q.Arn, !Ref F), or "".
    std::string resourceNamed(const nlohmann::json& v) const;
    // A queue's name (its QueueName, or its logical id as a stand-in for the name CloudFormation would make), ARN
    // and URL.
    std::string queueName(const std::string& id) const;
    std::string queueArn(const std::string& id) const;
    std::string queueUrl(const std::string& id) const;

private:
    const nlohmann::json& section(const char* name) const; // Parameters, Mappings, Conditions; {} when absent
    std::optional<nlohmann::json> function(
        const std::string& name, const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<nlohmann::json> value(const nlohmann::json& v, std::string& why, int depth) const;
    std::optional<nlohmann::json> ref(const std::string& name, std::string& why, int depth) const;
    std::optional<nlohmann::json> getAtt(const nlohmann::json& argument, std::string& why) const;
    std::optional<nlohmann::json> sub(const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<nlohmann::json> join(const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<nlohmann::json> select(const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<nlohmann::json> findInMap(const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<nlohmann::json> ifThen(const nlohmann::json& argument, std::string& why, int depth) const;
    std::optional<bool> condition(const nlohmann::json& v, std::string& why, int depth) const;
    std::optional<std::string> textAt(const nlohmann::json& v, std::string& why, int depth) const;

    const nlohmann::json& m_root;
    mutable std::unordered_map<std::string, std::string> m_names; // queue id -> name, once worked out
    mutable std::set<std::string> m_naming; // queues whose names are being worked out: a cycle if met again
};

} // namespace lifeline::check
