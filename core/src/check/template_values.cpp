#include "template_values.h"

#include <map>
#include <sstream>

namespace lifeline::check {

namespace {

using json = nlohmann::json;

// A chain of functions and names deeper than this is not a template anyone wrote: refused, not followed (and the
// stack stays bounded).
constexpr int kDeepestChain = 64;

bool isFunction(const json& v)
{
    if (!v.is_object() || v.size() != 1)
        return false;
    const std::string& key = v.begin().key();
    return key == "Ref" || key == "Condition" || key.starts_with("Fn::");
}

std::string shortForm(const std::string& function)
{
    return function.starts_with("Fn::") ? "!" + function.substr(4) : "!" + function;
}

} // namespace

TemplateValues::TemplateValues(const json& root)
    : m_root(root)
{
    if (!m_root.is_object() || !m_root.contains("Resources") || !m_root["Resources"].is_object())
        throw TemplateError("has no Resources (not a CloudFormation, SAM or CDK template)");
}

const json& TemplateValues::section(const char* name) const
{
    static const json none = json::object();
    const auto it = m_root.find(name);
    return it != m_root.end() && it->is_object() ? *it : none;
}

std::string TemplateValues::typeOf(const std::string& id) const
{
    const auto it = resources().find(id);
    if (it == resources().end() || !it->is_object())
        return {};
    const auto type = it->find("Type");
    return type != it->end() && type->is_string() ? type->get<std::string>() : "";
}

const json& TemplateValues::properties(const std::string& id) const
{
    static const json none = json::object();
    const auto it = resources().find(id);
    if (it == resources().end() || !it->is_object())
        return none;
    const auto p = it->find("Properties");
    return p != it->end() && p->is_object() ? *p : none;
}

std::optional<json> TemplateValues::evaluate(const json& v, std::string& why) const
{
    return value(v, why, 0);
}

std::optional<std::string> TemplateValues::text(const json& v, std::string& why) const
{
    return textAt(v, why, 0);
}

std::optional<std::string> TemplateValues::textAt(const json& v, std::string& why, int depth) const
{
    const auto got = value(v, why, depth);
    if (!got)
        return std::nullopt;
    if (got->is_string())
        return got->get<std::string>();
    if (got->is_boolean())
        return got->get<bool>() ? "true" : "false";
    if (got->is_number())
        return got->dump();
    why = got->is_array() ? "a list, not one value" : "a map, not one value";
    return std::nullopt;
}

json TemplateValues::evaluateAll(const json& v) const
{
    if (isFunction(v)) {
        std::string why;
        const auto got = evaluate(v, why);
        return got ? *got : v;
    }
    if (!v.is_object() && !v.is_array())
        return v;
    json out = v.is_object() ? json::object() : json::array();
    for (auto it = v.begin(); it != v.end(); ++it) {
        std::string why;
        if (isFunction(*it) && !evaluate(*it, why) && why == kNoValue)
            continue; // AWS::NoValue: as if not written
        if (v.is_object())
            out[it.key()] = evaluateAll(*it);
        else
            out.push_back(evaluateAll(*it));
    }
    return out;
}

std::optional<json> TemplateValues::value(const json& v, std::string& why, int depth) const
{
    if (depth > kDeepestChain)
        throw TemplateError("a value made through more than 64 functions and names: not a template");
    if (v.is_null()) {
        why = "empty";
        return std::nullopt;
    }
    if (v.is_array()) {
        json out = json::array();
        for (const json& item : v) {
            auto got = value(item, why, depth + 1);
            if (!got)
                return std::nullopt;
            out.push_back(std::move(*got));
        }
        return out;
    }
    if (isFunction(v))
        return function(v.begin().key(), v.begin().value(), why, depth + 1);
    if (v.is_object())
        return evaluateAll(v);
    return v;
}

std::optional<json> TemplateValues::function(
    const std::string& name, const json& argument, std::string& why, int depth) const
{
    if (name == "Ref") {
        if (argument.is_string())
            return ref(argument.get<std::string>(), why, depth);
        why = "!Ref of something that is not a name";
        return std::nullopt;
    }
    if (name == "Fn::GetAtt")
        return getAtt(argument, why);
    if (name == "Fn::Sub")
        return sub(argument, why, depth);
    if (name == "Fn::Join")
        return join(argument, why, depth);
    if (name == "Fn::Select")
        return select(argument, why, depth);
    if (name == "Fn::FindInMap")
        return findInMap(argument, why, depth);
    if (name == "Fn::If")
        return ifThen(argument, why, depth);
    if (name == "Fn::Split" && argument.is_array() && argument.size() == 2) {
        const auto delimiter = textAt(argument[0], why, depth);
        const auto whole = delimiter ? textAt(argument[1], why, depth) : std::nullopt;
        if (!whole)
            return std::nullopt;
        json parts = json::array();
        for (size_t at = 0;;) {
            const size_t next = delimiter->empty() ? std::string::npos : whole->find(*delimiter, at);
            parts.push_back(whole->substr(at, next == std::string::npos ? std::string::npos : next - at));
            if (next == std::string::npos)
                return parts;
            at = next + delimiter->size();
        }
    }
    if (name == "Fn::ImportValue")
        why = "an import from another stack (Fn::ImportValue)";
    else if (name == kServerlessVariable && argument.is_string())
        why = argument.get<std::string>() + ", a Serverless Framework variable (resolved only when it deploys)";
    else
        why = shortForm(name) + " is not evaluated";
    return std::nullopt;
}

std::optional<json> TemplateValues::ref(const std::string& name, std::string& why, int depth) const
{
    static const std::map<std::string, std::string> pseudo { { "AWS::Region", kRegion }, { "AWS::AccountId", kAccount },
        { "AWS::Partition", "aws" }, { "AWS::URLSuffix", "amazonaws.com" } };
    if (const auto it = pseudo.find(name); it != pseudo.end())
        return it->second;
    if (name == kNoValue) {
        why = kNoValue;
        return std::nullopt;
    }
    if (name.starts_with("AWS::")) {
        why = "!Ref " + name + ", known only when the stack is deployed";
        return std::nullopt;
    }
    const json& parameters = section("Parameters");
    if (const auto it = parameters.find(name); it != parameters.end()) {
        if (!it->is_object() || !it->contains("Default")) {
            why = "!Ref " + name + ", a parameter without a default";
            return std::nullopt;
        }
        const std::string type = it->value("Type", "");
        const bool list = type == "CommaDelimitedList" || type.starts_with("List<");
        if (list && (*it)["Default"].is_string())
            return function("Fn::Split", json::array({ ",", (*it)["Default"] }), why, depth);
        return value((*it)["Default"], why, depth);
    }
    const std::string type = typeOf(name);
    if (type == "AWS::SQS::Queue")
        return queueUrl(name);
    if (!type.empty())
        return name; // a function's Ref is its name: its logical id stands for the one CloudFormation makes
    why = "!Ref " + name + ", which the template does not define";
    return std::nullopt;
}

std::optional<json> TemplateValues::getAtt(const json& argument, std::string& why) const
{
    std::string id;
    std::string attribute;
    if (argument.is_array() && argument.size() == 2 && argument[0].is_string() && argument[1].is_string()) {
        id = argument[0].get<std::string>();
        attribute = argument[1].get<std::string>();
    } else if (argument.is_string()) {
        const std::string whole = argument;
        const auto dot = whole.find('.');
        id = whole.substr(0, dot);
        attribute = dot == std::string::npos ? "" : whole.substr(dot + 1);
    } else {
        why = "!GetAtt of something that is not a resource and an attribute";
        return std::nullopt;
    }
    const std::string type = typeOf(id);
    if (type.empty()) {
        why = "!GetAtt " + id + "." + attribute + ", which the template does not define";
        return std::nullopt;
    }
    if (type == "AWS::SQS::Queue" && attribute == "Arn")
        return queueArn(id);
    if (type == "AWS::SQS::Queue" && attribute == "QueueName")
        return queueName(id);
    if (type == "AWS::SQS::Queue" && attribute == "QueueUrl")
        return queueUrl(id);
    if (attribute == "Arn")
        return std::string("arn:aws:lambda:") + kRegion + ":" + kAccount + ":function:" + id;
    why = "!GetAtt " + id + "." + attribute + " is not evaluated";
    return std::nullopt;
}

std::optional<json> TemplateValues::sub(const json& argument, std::string& why, int depth) const
{
    const json& pattern = argument.is_array() && !argument.empty() ? argument[0] : argument;
    const json variables
        = argument.is_array() && argument.size() > 1 && argument[1].is_object() ? argument[1] : json::object();
    if (!pattern.is_string()) {
        why = "!Sub of something that is not text";
        return std::nullopt;
    }
    const std::string& s = pattern.get_ref<const std::string&>();
    std::string out;
    for (size_t i = 0; i < s.size();) {
        const size_t open = s.find("${", i);
        if (open == std::string::npos) {
            out += s.substr(i);
            break;
        }
        const size_t close = s.find('}', open);
        if (close == std::string::npos) {
            why = "!Sub with an unclosed ${";
            return std::nullopt;
        }
        out += s.substr(i, open - i);
        const std::string name = s.substr(open + 2, close - open - 2);
        std::optional<std::string> piece;
        if (!name.empty() && name[0] == '!')
            piece = "${" + name.substr(1) + "}"; // ${!Literal}
        else if (variables.contains(name))
            piece = textAt(variables[name], why, depth);
        else if (const auto dot = name.find('.'); dot != std::string::npos && !name.starts_with("AWS::")) {
            const auto got = getAtt(json::array({ name.substr(0, dot), name.substr(dot + 1) }), why);
            piece = got ? textAt(*got, why, depth) : std::nullopt;
        } else {
            const auto got = ref(name, why, depth);
            piece = got ? textAt(*got, why, depth) : std::nullopt;
        }
        if (!piece)
            return std::nullopt;
        out += *piece;
        i = close + 1;
    }
    return out;
}

std::optional<json> TemplateValues::join(const json& argument, std::string& why, int depth) const
{
    if (!argument.is_array() || argument.size() != 2) {
        why = "!Join takes a delimiter and a list";
        return std::nullopt;
    }
    const auto delimiter = textAt(argument[0], why, depth);
    const auto list = delimiter ? value(argument[1], why, depth) : std::nullopt;
    if (!list)
        return std::nullopt;
    if (!list->is_array()) {
        why = "!Join of something that is not a list";
        return std::nullopt;
    }
    std::string out;
    for (size_t i = 0; i < list->size(); ++i) {
        const auto piece = textAt((*list)[i], why, depth);
        if (!piece)
            return std::nullopt;
        out += (i ? *delimiter : "") + *piece;
    }
    return out;
}

std::optional<json> TemplateValues::select(const json& argument, std::string& why, int depth) const
{
    if (!argument.is_array() || argument.size() != 2) {
        why = "!Select takes an index and a list";
        return std::nullopt;
    }
    const auto index = textAt(argument[0], why, depth);
    const auto list = index ? value(argument[1], why, depth) : std::nullopt;
    if (!list)
        return std::nullopt;
    const bool number
        = !index->empty() && index->size() < 9 && index->find_first_not_of("0123456789") == std::string::npos;
    if (!list->is_array() || !number || std::stoul(*index) >= list->size()) {
        why = "!Select " + *index + " of a list of " + (list->is_array() ? std::to_string(list->size()) : "none");
        return std::nullopt;
    }
    return (*list)[std::stoul(*index)];
}

std::optional<json> TemplateValues::findInMap(const json& argument, std::string& why, int depth) const
{
    if (!argument.is_array() || argument.size() < 3) {
        why = "!FindInMap takes a map's name and two keys";
        return std::nullopt;
    }
    std::string keys[3];
    for (int i = 0; i < 3; ++i) {
        const auto key = textAt(argument[size_t(i)], why, depth);
        if (!key) {
            why = "!FindInMap with a key not fixed by the template (" + why + ")";
            return std::nullopt;
        }
        keys[i] = *key;
    }
    const json& mappings = section("Mappings");
    if (mappings.contains(keys[0]) && mappings[keys[0]].is_object() && mappings[keys[0]].contains(keys[1])
        && mappings[keys[0]][keys[1]].is_object() && mappings[keys[0]][keys[1]].contains(keys[2]))
        return value(mappings[keys[0]][keys[1]][keys[2]], why, depth);
    if (argument.size() == 4 && argument[3].is_object() && argument[3].contains("DefaultValue"))
        return value(argument[3]["DefaultValue"], why, depth);
    why = "!FindInMap [" + keys[0] + ", " + keys[1] + ", " + keys[2] + "], which the template's Mappings do not hold";
    return std::nullopt;
}

std::optional<json> TemplateValues::ifThen(const json& argument, std::string& why, int depth) const
{
    if (!argument.is_array() || argument.size() != 3 || !argument[0].is_string()) {
        why = "!If takes a condition's name and two values";
        return std::nullopt;
    }
    const std::string name = argument[0];
    const auto holds = condition(json { { "Condition", name } }, why, depth);
    if (!holds) {
        why = "!If " + name + ", a condition the template does not fix (" + why + ")";
        return std::nullopt;
    }
    return value(argument[*holds ? 1 : 2], why, depth);
}

std::optional<bool> TemplateValues::condition(const json& v, std::string& why, int depth) const
{
    if (depth > kDeepestChain)
        throw TemplateError("a condition made through more than 64 others: not a template");
    if (v.is_boolean())
        return v.get<bool>();
    if (!isFunction(v)) {
        why = "not a condition";
        return std::nullopt;
    }
    const std::string& name = v.begin().key();
    const json& argument = v.begin().value();
    if (name == "Condition" && argument.is_string()) {
        const json& conditions = section("Conditions");
        if (!conditions.contains(argument.get<std::string>())) {
            why = "the condition " + argument.get<std::string>() + ", which the template does not define";
            return std::nullopt;
        }
        return condition(conditions[argument.get<std::string>()], why, depth + 1);
    }
    if (name == "Fn::Equals" && argument.is_array() && argument.size() == 2) {
        const auto a = textAt(argument[0], why, depth + 1);
        const auto b = a ? textAt(argument[1], why, depth + 1) : std::nullopt;
        return b ? std::optional<bool>(*a == *b) : std::nullopt;
    }
    if (name == "Fn::Not" && argument.is_array() && argument.size() == 1) {
        const auto a = condition(argument[0], why, depth + 1);
        return a ? std::optional<bool>(!*a) : std::nullopt;
    }
    if ((name == "Fn::And" || name == "Fn::Or") && argument.is_array()) {
        const bool all = name == "Fn::And";
        for (const json& part : argument) {
            const auto a = condition(part, why, depth + 1);
            if (!a)
                return std::nullopt;
            if (*a != all)
                return !all;
        }
        return all;
    }
    why = shortForm(name) + " is not a condition";
    return std::nullopt;
}

std::string TemplateValues::resourceNamed(const json& v) const
{
    if (!isFunction(v))
        return {};
    const std::string& name = v.begin().key();
    const json& argument = v.begin().value();
    std::string id;
    if (name == "Ref" && argument.is_string())
        id = argument.get<std::string>();
    else if (name == "Fn::GetAtt" && argument.is_array() && !argument.empty() && argument[0].is_string())
        id = argument[0].get<std::string>();
    else if (name == "Fn::GetAtt" && argument.is_string())
        id = argument.get<std::string>().substr(0, argument.get<std::string>().find('.'));
    return typeOf(id).empty() ? "" : id;
}

std::string TemplateValues::queueName(const std::string& id) const
{
    if (const auto it = m_names.find(id); it != m_names.end())
        return it->second;
    if (!m_naming.insert(id).second)
        throw TemplateError("Resources." + id
            + ".Properties.QueueName: leads back to itself (a circular reference, "
              "which CloudFormation refuses)");
    const json& p = properties(id);
    std::string why;
    std::optional<std::string> name;
    if (p.contains("QueueName"))
        name = text(p["QueueName"], why);
    m_naming.erase(id);
    if (!name) {
        const bool fifo = p.contains("FifoQueue") && (p["FifoQueue"] == true || p["FifoQueue"] == "true");
        name = fifo ? id + ".fifo" : id; // CloudFormation would add the stack's name and a suffix
    }
    return m_names.emplace(id, *name).first->second;
}

std::string TemplateValues::queueArn(const std::string& id) const
{
    return std::string("arn:aws:sqs:") + kRegion + ":" + kAccount + ":" + queueName(id);
}

std::string TemplateValues::queueUrl(const std::string& id) const
{
    return std::string("https://sqs.") + kRegion + ".amazonaws.com/" + kAccount + "/" + queueName(id);
}

} // namespace lifeline::check
