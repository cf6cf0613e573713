// A CloudFormation, SAM or synthesised CDK template read into the queues `lifeline check` reviews. yaml-cpp reads
// YAML and JSON alike; the short forms (!Ref, !GetAtt, !Sub, ...) become their long forms first, so the rest reads
// one shape. Values are resolved only as far as the template itself fixes them (docs/check.md, "Templates").
#include "lifeline/check/template_reader.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <yaml-cpp/yaml.h>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

constexpr const char* kRegion = "us-east-1";
constexpr const char* kAccount = "123456789012";

struct Bad {
    std::string message;
};

// Digits that fit a whole number (a longer run of digits stays text).
bool wholeNumber(const std::string& text)
{
    return !text.empty() && text.size() < 18 && text.find_first_not_of("0123456789") == std::string::npos;
}

// A plain YAML scalar as the type it reads as (5, true); a quoted one stays text.
json scalar(const YAML::Node& node)
{
    const std::string& text = node.Scalar();
    if (node.Tag() != "?")
        return text;
    if (text == "true" || text == "false")
        return text == "true";
    if (wholeNumber(text))
        return std::stoll(text);
    return text;
}

// What a template may hold: deeper nesting, or more nodes (aliases expand), is not a template but an attack.
constexpr int kDeepest = 64;
constexpr size_t kMostNodes = 1000000;

// YAML (or JSON) into JSON; a tagged node (!Ref X) into its long form ({"Ref": "X"}).
json toJson(const YAML::Node& node, int depth, size_t& nodes)
{
    if (depth > kDeepest || ++nodes > kMostNodes)
        throw Bad { "nested deeper than 64 levels or larger than a million values: not a template" };
    json out;
    if (node.IsMap()) {
        out = json::object();
        for (const auto& entry : node)
            out[entry.first.as<std::string>()] = toJson(entry.second, depth + 1, nodes);
    } else if (node.IsSequence()) {
        out = json::array();
        for (const auto& item : node)
            out.push_back(toJson(item, depth + 1, nodes));
    } else if (node.IsScalar()) {
        out = scalar(node);
    }
    const std::string& tag = node.Tag();
    if (tag.size() < 2 || tag[0] != '!' || tag[1] == '!')
        return out; // untagged ("?" or "!") or a standard YAML tag
    const std::string function = tag.substr(1);
    if (function == "GetAtt" && out.is_string()) { // !GetAtt Queue.Arn
        const std::string text = out;
        const auto dot = text.find('.');
        out = json::array({ text.substr(0, dot), dot == std::string::npos ? "" : text.substr(dot + 1) });
    }
    const std::string key = function == "Ref" || function == "Condition" ? function : "Fn::" + function;
    return json { { key, out } };
}

class Template {
public:
    Template(json document, std::map<std::string, int> lines)
        : m_doc(std::move(document))
        , m_lines(std::move(lines))
    {
        if (!m_doc.is_object() || !m_doc.contains("Resources") || !m_doc["Resources"].is_object())
            throw Bad { "has no Resources (not a CloudFormation, SAM or CDK template)" };
    }

    std::vector<TemplateQueue> queues() const
    {
        std::vector<TemplateQueue> out;
        for (const auto& [id, resource] : resources().items())
            if (typeOf(id) == "AWS::SQS::Queue") {
                checkRedriveChain(id);
                out.push_back(queue(id));
            }
        markDeadLetterQueues(out);
        return out;
    }

private:
    const json& resources() const { return m_doc["Resources"]; }
    std::string typeOf(const std::string& id) const
    {
        const json& r = resources().contains(id) ? resources()[id] : json();
        return r.is_object() && r.contains("Type") && r["Type"].is_string() ? r["Type"].get<std::string>() : "";
    }
    const json& properties(const std::string& id) const
    {
        static const json none = json::object();
        const json& r = resources()[id];
        return r.contains("Properties") && r["Properties"].is_object() ? r["Properties"] : none;
    }
    int lineOf(const std::string& id) const
    {
        const auto it = m_lines.find(id);
        return it == m_lines.end() ? 0 : it->second;
    }

    std::string queueName(const std::string& id) const
    {
        const json& p = properties(id);
        std::string why;
        if (p.contains("QueueName"))
            if (auto name = resolve(p["QueueName"], why))
                return *name;
        const bool fifo = p.contains("FifoQueue") && (p["FifoQueue"] == true || p["FifoQueue"] == "true");
        return fifo ? id + ".fifo" : id; // CloudFormation would add the stack's name and a suffix
    }
    std::string arnOf(const std::string& id) const
    {
        if (typeOf(id) == "AWS::SQS::Queue")
            return std::string("arn:aws:sqs:") + kRegion + ":" + kAccount + ":" + queueName(id);
        return std::string("arn:aws:lambda:") + kRegion + ":" + kAccount + ":function:" + id;
    }
    // The queue whose ARN `arn` is, or "".
    std::string queueWithArn(const std::string& arn) const
    {
        for (const auto& [id, resource] : resources().items())
            if (typeOf(id) == "AWS::SQS::Queue" && arnOf(id) == arn)
                return id;
        return {};
    }

    // The resource a RedrivePolicy's deadLetterTargetArn names (!GetAtt X.Arn, !Ref X), or "".
    std::string deadLetterTargetOf(const std::string& id) const
    {
        const json& p = properties(id);
        if (!p.contains("RedrivePolicy") || !p["RedrivePolicy"].is_object()
            || !p["RedrivePolicy"].contains("deadLetterTargetArn"))
            return {};
        const json& target = p["RedrivePolicy"]["deadLetterTargetArn"];
        if (target.is_object() && target.contains("Fn::GetAtt") && target["Fn::GetAtt"].is_array()
            && !target["Fn::GetAtt"].empty() && target["Fn::GetAtt"][0].is_string())
            return target["Fn::GetAtt"][0];
        if (target.is_object() && target.contains("Ref") && target["Ref"].is_string())
            return target["Ref"];
        std::string why;
        const auto arn = resolve(target, why);
        return arn ? queueWithArn(*arn) : std::string();
    }
    // A dead-letter queue that is not a queue, or a chain of them that comes back to where it started, is a broken
    // template: SQS refuses the first, CloudFormation the second (a circular dependency between the resources).
    void checkRedriveChain(const std::string& id) const
    {
        std::vector<std::string> chain { id };
        for (std::string at = id;;) {
            const std::string next = deadLetterTargetOf(at);
            if (next.empty() || typeOf(next).empty())
                return;
            if (typeOf(next) != "AWS::SQS::Queue")
                throw Bad { "Resources." + at + ".Properties.RedrivePolicy.deadLetterTargetArn: names " + next + ", an "
                    + typeOf(next) + ", not an AWS::SQS::Queue" };
            const bool seen = std::find(chain.begin(), chain.end(), next) != chain.end();
            chain.push_back(next);
            if (seen) {
                std::string path;
                for (const auto& q : chain)
                    path += (path.empty() ? "" : " -> ") + q;
                throw Bad { "Resources." + id + ".Properties.RedrivePolicy: a circular RedrivePolicy: " + path
                    + " (a dead-letter queue's own RedrivePolicy must not lead back)" };
            }
            at = next;
        }
    }

    // A value as the template fixes it, or nothing with `why` saying what it depends on.
    std::optional<std::string> resolve(const json& v, std::string& why) const
    {
        if (v.is_string())
            return v.get<std::string>();
        if (v.is_boolean())
            return v.get<bool>() ? "true" : "false";
        if (v.is_number())
            return v.dump();
        if (!v.is_object() || v.size() != 1) {
            why = "not a single value";
            return std::nullopt;
        }
        const std::string& function = v.begin().key();
        const json& argument = v.begin().value();
        if (function == "Ref" && argument.is_string())
            return ref(argument.get<std::string>(), why);
        if (function == "Fn::GetAtt" && argument.is_array() && argument.size() == 2 && argument[0].is_string())
            return getAtt(
                argument[0].get<std::string>(), argument[1].is_string() ? argument[1].get<std::string>() : "", why);
        if (function == "Fn::Sub")
            return sub(argument.is_array() && !argument.empty() ? argument[0] : argument, why);
        if (function == "Fn::ImportValue")
            why = "an import from another stack (Fn::ImportValue)";
        else
            why = function + " is not evaluated";
        return std::nullopt;
    }
    std::optional<std::string> ref(const std::string& name, std::string& why) const
    {
        static const std::map<std::string, std::string> pseudo { { "AWS::Region", kRegion },
            { "AWS::AccountId", kAccount }, { "AWS::Partition", "aws" }, { "AWS::URLSuffix", "amazonaws.com" } };
        if (const auto it = pseudo.find(name); it != pseudo.end())
            return it->second;
        if (m_doc.contains("Parameters") && m_doc["Parameters"].contains(name)) {
            const json& parameter = m_doc["Parameters"][name];
            if (parameter.contains("Default") && parameter["Default"].is_string())
                return parameter["Default"].get<std::string>();
            why = "!Ref " + name + ", a parameter without a default";
            return std::nullopt;
        }
        if (typeOf(name) == "AWS::SQS::Queue")
            return std::string("https://sqs.") + kRegion + ".amazonaws.com/" + kAccount + "/" + queueName(name);
        if (!typeOf(name).empty())
            return name; // a function's Ref is its name
        why = "!Ref " + name + ", which the template does not define";
        return std::nullopt;
    }
    std::optional<std::string> getAtt(const std::string& id, const std::string& attribute, std::string& why) const
    {
        if (typeOf(id).empty()) {
            why = "!GetAtt " + id + "." + attribute + ", which the template does not define";
            return std::nullopt;
        }
        if (attribute == "Arn")
            return arnOf(id);
        if (attribute == "QueueName" && typeOf(id) == "AWS::SQS::Queue")
            return queueName(id);
        why = "!GetAtt " + id + "." + attribute + " is not evaluated";
        return std::nullopt;
    }
    std::optional<std::string> sub(const json& text, std::string& why) const
    {
        if (!text.is_string()) {
            why = "Fn::Sub of something that is not text";
            return std::nullopt;
        }
        const std::string s = text;
        std::string out;
        for (size_t i = 0; i < s.size();) {
            const size_t open = s.find("${", i);
            if (open == std::string::npos) {
                out += s.substr(i);
                break;
            }
            const size_t close = s.find('}', open);
            if (close == std::string::npos) {
                why = "Fn::Sub with an unclosed ${";
                return std::nullopt;
            }
            out += s.substr(i, open - i);
            const std::string name = s.substr(open + 2, close - open - 2);
            if (!name.empty() && name[0] == '!') {
                out += "${" + name.substr(1) + "}"; // ${!Literal}
            } else {
                const auto dot = name.find('.');
                auto value = dot == std::string::npos ? ref(name, why)
                                                      : getAtt(name.substr(0, dot), name.substr(dot + 1), why);
                if (!value)
                    return std::nullopt;
                out += *value;
            }
            i = close + 1;
        }
        return out;
    }

    // The queue's attributes as get-queue-attributes prints them; what the template leaves open into `unknown`.
    json attributesOf(const std::string& id, std::vector<std::string>& unknown) const
    {
        json out = json::object();
        for (const auto& [name, value] : properties(id).items()) {
            if (name == "QueueName" || name == "Tags")
                continue;
            std::string why;
            if ((name == "RedrivePolicy" || name == "RedriveAllowPolicy") && value.is_object() && !value.contains("Ref")
                && !value.contains("Fn::Sub")) {
                json policy = json::object();
                for (const auto& [key, part] : value.items()) {
                    const auto resolved = resolve(part, why);
                    if (!resolved) {
                        unknown.push_back(name + "." + key + ": " + why);
                        continue;
                    }
                    const bool number = key == "maxReceiveCount" && wholeNumber(*resolved);
                    policy[key] = number ? json(std::stoll(*resolved)) : json(*resolved);
                }
                out[name] = policy.dump();
                continue;
            }
            if (auto resolved = resolve(value, why))
                out[name] = *resolved;
            else
                unknown.push_back(name + ": " + why);
        }
        out["QueueArn"] = arnOf(id);
        return out;
    }

    TemplateQueue queue(const std::string& id) const
    {
        TemplateQueue q;
        q.logicalId = id;
        q.line = lineOf(id);
        q.attributes = attributesOf(id, q.unknown);
        if (q.attributes.contains("RedrivePolicy")) {
            const json policy = json::parse(q.attributes["RedrivePolicy"].get<std::string>(), nullptr, false);
            if (policy.is_object() && policy.contains("deadLetterTargetArn")
                && policy["deadLetterTargetArn"].is_string()) {
                const std::string target = policy["deadLetterTargetArn"];
                const std::string dlq = queueWithArn(target);
                if (!dlq.empty()) {
                    std::vector<std::string> ignored; // the DLQ's own unknowns are its own entry's
                    q.deadLetterAttributes = attributesOf(dlq, ignored);
                    addAlarm(dlq, q);
                }
            }
        }
        addPolicy(id, q);
        addTrigger(id, q);
        addMetadata(id, q);
        return q;
    }

    // What Metadata: {lifeline: {...}} on resource `id` says of the consumer side (the queue's, or its function's),
    // and the rules it waives (ignore: [rule, ...]).
    void addMetadata(const std::string& id, TemplateQueue& q) const
    {
        const json& r = resources()[id];
        if (!r.contains("Metadata") || !r["Metadata"].contains("lifeline"))
            return;
        const json& said = r["Metadata"]["lifeline"];
        const std::string where = "Resources." + id + ".Metadata.lifeline";
        if (!said.is_object())
            throw Bad { where + ": must be a map (processing, consumers, ...)" };
        for (const auto& [key, value] : said.items()) {
            if (key != "ignore") {
                q.consumer[key] = value;
                continue;
            }
            if (!value.is_array()
                || !std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_string(); }))
                throw Bad { where + ".ignore: must be a list of rule ids, such as [no-dlq]" };
            for (const auto& rule : value)
                q.waivers.push_back({ rule.get<std::string>(), where + ".ignore" });
        }
    }

    // A value with every intrinsic function the template fixes resolved; what it leaves open stays as written.
    json resolveAll(const json& v) const
    {
        std::string why;
        if (v.is_object() && v.size() == 1 && (v.contains("Ref") || v.begin().key().starts_with("Fn::"))) {
            const auto resolved = resolve(v, why);
            return resolved ? json(*resolved) : v;
        }
        json out = v;
        if (out.is_object() || out.is_array())
            for (auto it = out.begin(); it != out.end(); ++it)
                it.value() = resolveAll(it.value());
        return out;
    }

    // The queue policy naming queue `id` (AWS::SQS::QueuePolicy's Queues, AWS::SQS::QueueInlinePolicy's Queue), as
    // its Policy attribute.
    void addPolicy(const std::string& id, TemplateQueue& q) const
    {
        std::string why;
        const auto url = ref(id, why);
        for (const auto& [rid, resource] : resources().items()) {
            const json& p = properties(rid);
            json named = json::array();
            if (typeOf(rid) == "AWS::SQS::QueuePolicy" && p.contains("Queues") && p["Queues"].is_array())
                named = p["Queues"];
            else if (typeOf(rid) == "AWS::SQS::QueueInlinePolicy" && p.contains("Queue"))
                named.push_back(p["Queue"]);
            if (!p.contains("PolicyDocument"))
                continue;
            for (const auto& queue : named)
                if (resolve(queue, why) == url) {
                    q.attributes["Policy"] = resolveAll(p["PolicyDocument"]).dump();
                    return;
                }
        }
    }

    // Whether an AWS::CloudWatch::Alarm has a QueueName dimension naming queue `dlq` (in its Dimensions, or a metric
    // of its Metrics); not said when the template has no alarm at all (its alarms may be kept elsewhere).
    void addAlarm(const std::string& dlq, TemplateQueue& q) const
    {
        const std::function<bool(const json&)> names = [&](const json& v) {
            if (v.is_object() && v.value("Name", json()) == "QueueName" && v.value("Value", json()) == queueName(dlq))
                return true;
            return (v.is_object() || v.is_array()) && std::any_of(v.begin(), v.end(), names);
        };
        bool alarms = false;
        for (const auto& [rid, resource] : resources().items()) {
            if (typeOf(rid) != "AWS::CloudWatch::Alarm")
                continue;
            alarms = true;
            if (names(resolveAll(properties(rid)))) {
                q.consumer["deadLetterAlarm"] = true;
                return;
            }
        }
        if (alarms)
            q.consumer["deadLetterAlarm"] = false;
    }

    // The first Lambda trigger that reads queue `id`, as the check's "lambda" consumer side.
    void addTrigger(const std::string& id, TemplateQueue& q) const
    {
        const std::string arn = arnOf(id);
        for (const auto& [rid, resource] : resources().items()) {
            const std::string type = typeOf(rid);
            std::string why;
            if (type == "AWS::Lambda::EventSourceMapping") {
                const json& p = properties(rid);
                if (!p.contains("EventSourceArn") || resolve(p["EventSourceArn"], why) != arn)
                    continue;
                std::string function;
                if (p.contains("FunctionName"))
                    function = functionId(p["FunctionName"]);
                q.consumer["lambda"] = trigger(p, function);
                if (!typeOf(function).empty())
                    addMetadata(function, q);
                return;
            }
            if (type != "AWS::Serverless::Function" || !properties(rid).contains("Events"))
                continue;
            for (const auto& [name, event] : properties(rid)["Events"].items()) {
                if (!event.contains("Type") || event["Type"] != "SQS" || !event.contains("Properties"))
                    continue;
                const json& p = event["Properties"];
                if (p.contains("Queue") && resolve(p["Queue"], why) == arn) {
                    q.consumer["lambda"] = trigger(p, rid);
                    addMetadata(rid, q);
                    return;
                }
            }
        }
    }
    // The function resource a FunctionName names (!Ref F, !GetAtt F.Arn), or "".
    std::string functionId(const json& name) const
    {
        if (name.is_object() && name.contains("Ref") && name["Ref"].is_string())
            return name["Ref"];
        if (name.is_object() && name.contains("Fn::GetAtt") && name["Fn::GetAtt"].is_array()
            && !name["Fn::GetAtt"].empty() && name["Fn::GetAtt"][0].is_string())
            return name["Fn::GetAtt"][0];
        return {};
    }
    std::string timeoutOf(const std::string& function) const
    {
        std::string why;
        if (!function.empty() && properties(function).contains("Timeout"))
            if (auto t = resolve(properties(function)["Timeout"], why))
                return *t;
        if (typeOf(function) == "AWS::Serverless::Function" && m_doc.contains("Globals")
            && m_doc["Globals"].contains("Function") && m_doc["Globals"]["Function"].contains("Timeout"))
            if (auto t = resolve(m_doc["Globals"]["Function"]["Timeout"], why))
                return *t;
        return "3"; // Lambda's default
    }
    json trigger(const json& p, const std::string& function) const
    {
        std::string why;
        json l = json::object();
        l["timeout"] = timeoutOf(function) + "s";
        const auto whole = [&](const json& v) -> json {
            const auto s = resolve(v, why);
            return s && wholeNumber(*s) ? json(std::stoll(*s)) : json(s.value_or(why));
        };
        if (p.contains("BatchSize"))
            l["batchSize"] = whole(p["BatchSize"]);
        if (p.contains("MaximumBatchingWindowInSeconds"))
            if (auto w = resolve(p["MaximumBatchingWindowInSeconds"], why))
                l["batchingWindow"] = *w + "s";
        if (p.contains("ScalingConfig") && p["ScalingConfig"].contains("MaximumConcurrency"))
            l["maxConcurrency"] = whole(p["ScalingConfig"]["MaximumConcurrency"]);
        if (p.contains("FunctionResponseTypes") && p["FunctionResponseTypes"].is_array())
            for (const auto& t : p["FunctionResponseTypes"])
                if (t == "ReportBatchItemFailures")
                    l["reportBatchItemFailures"] = true;
        return l;
    }

    json m_doc;
    std::map<std::string, int> m_lines;
};

} // namespace

void markDeadLetterQueues(std::vector<TemplateQueue>& queues)
{
    for (const TemplateQueue& source : queues) {
        if (source.deadLetterAttributes.is_null())
            continue;
        for (TemplateQueue& q : queues)
            if (q.attributes["QueueArn"] == source.deadLetterAttributes["QueueArn"] && q.consumer.empty())
                q.deadLetterOf = source.logicalId;
    }
}

Outcome<std::vector<TemplateQueue>> readTemplate(const std::string& text, const std::string& fileName)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        return Failure { fileName + ": not YAML or JSON: " + e.msg + " (line " + std::to_string(e.mark.line + 1)
            + ")" };
    }
    try {
        std::map<std::string, int> lines;
        if (root.IsMap() && root["Resources"] && root["Resources"].IsMap())
            for (const auto& entry : root["Resources"])
                lines[entry.first.as<std::string>()] = entry.first.Mark().line + 1;
        size_t nodes = 0;
        return Template(toJson(root, 0, nodes), std::move(lines)).queues();
    } catch (const Bad& bad) {
        return Failure { fileName + ": " + bad.message };
    } catch (const YAML::Exception& e) {
        return Failure { fileName + ": " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")" };
    } catch (const json::exception& e) { // a value of a shape the reader did not expect: named, never a crash
        return Failure { fileName + ": cannot be read as a template: " + e.what() };
    }
}

} // namespace lifeline::check
