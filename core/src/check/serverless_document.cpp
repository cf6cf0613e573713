#include "serverless_document.h"

#include "template_values.h"

namespace lifeline::check {

namespace {

using json = nlohmann::json;

// The framework's name for a function's resources: "send-email" -> "SendDashemail" (its normalizeName).
std::string normalizedName(const std::string& name)
{
    std::string out;
    for (char c : name)
        out += c == '-' ? std::string("Dash") : c == '_' ? std::string("Underscore") : std::string(1, c);
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z')
        out[0] = char(out[0] - 'a' + 'A');
    return out;
}

// Strings holding a Serverless variable become a value the template does not fix; a Fn::Sub's own ${} is left alone.
json markVariables(const json& v)
{
    if (v.is_string() && v.get<std::string>().find("${") != std::string::npos)
        return json { { TemplateValues::kServerlessVariable, v } };
    if (v.is_object() && v.size() == 1 && v.contains("Fn::Sub"))
        return v;
    if (!v.is_object() && !v.is_array())
        return v;
    json out = v;
    for (auto& item : out)
        item = markVariables(item);
    return out;
}

class Translation {
public:
    explicit Translation(const TemplateDocument& service)
        : m_service(service)
    {
    }

    TemplateDocument translate()
    {
        const json& root = m_service.root;
        const json resources = root.contains("resources") ? root["resources"] : json::object();
        if (!resources.is_object())
            throw TemplateError("resources: must be a map (its Resources are CloudFormation's)");
        m_out.root = json::object();
        for (const char* section : { "Parameters", "Mappings", "Conditions", "Resources" })
            if (resources.contains(section)) {
                m_out.root[section] = markVariables(resources[section]);
                carryLines(std::string("resources.") + section, section);
            }
        if (!m_out.root.contains("Resources") || !m_out.root["Resources"].is_object())
            m_out.root["Resources"] = json::object();
        const json& functions = root.contains("functions") ? root["functions"] : json::object();
        if (!functions.is_object())
            throw TemplateError("functions: must be a map of the service's functions");
        for (const auto& [name, function] : functions.items())
            if (function.is_object())
                addFunction(name, function);
        return std::move(m_out);
    }

private:
    // The line of every key under `from` in the file, kept under `to` in the template.
    void carryLines(const std::string& from, const std::string& to)
    {
        for (auto it = m_service.lines.lower_bound(from); it != m_service.lines.end() && it->first.starts_with(from);
             ++it)
            if (it->first.size() == from.size() || it->first[from.size()] == '.')
                m_out.lines[to + it->first.substr(from.size())] = it->second;
        m_out.origins[to] = from;
    }
    // Where `to` in the template is written in the file: its line, and its path for messages.
    void line(const std::string& to, const std::string& from)
    {
        if (const int at = m_service.lineOf(from))
            m_out.lines[to] = at;
        m_out.origins[to] = from;
    }

    void addFunction(const std::string& name, const json& function)
    {
        const json& provider = m_service.root.contains("provider") ? m_service.root["provider"] : json::object();
        const std::string id = normalizedName(name) + "LambdaFunction";
        const std::string at = "functions." + name;
        json properties = json::object();
        if (function.contains("timeout")) {
            properties["Timeout"] = markVariables(function["timeout"]);
            line("Resources." + id + ".Properties.Timeout", at + ".timeout");
        } else if (provider.is_object() && provider.contains("timeout")) {
            properties["Timeout"] = markVariables(provider["timeout"]);
            line("Resources." + id + ".Properties.Timeout", "provider.timeout");
        } else {
            properties["Timeout"] = 6; // the framework's default, not Lambda's 3 s
        }
        if (function.contains("reservedConcurrency")) {
            properties["ReservedConcurrentExecutions"] = markVariables(function["reservedConcurrency"]);
            line("Resources." + id + ".Properties.ReservedConcurrentExecutions", at + ".reservedConcurrency");
        }
        if (function.contains("onError")) { // the framework's name for the function's DeadLetterConfig
            properties["DeadLetterConfig"] = { { "TargetArn", markVariables(function["onError"]) } };
            line("Resources." + id + ".Properties.DeadLetterConfig", at + ".onError");
        }
        m_out.root["Resources"][id] = { { "Type", "AWS::Lambda::Function" }, { "Properties", properties } };
        line("Resources." + id, at);
        m_out.origins["Resources." + id + ".Properties"] = at;
        const json& events = function.contains("events") ? function["events"] : json::array();
        if (!events.is_array())
            return;
        for (size_t i = 0; i < events.size(); ++i)
            if (events[i].is_object() && events[i].contains("sqs"))
                addMapping(id, at + ".events." + std::to_string(i), events[i]["sqs"], i);
    }

    // One `sqs` event: its ARN alone, or {arn, batchSize, maximumBatchingWindow, functionResponseType, enabled,
    // maximumConcurrency, provisionedPollers}.
    void addMapping(const std::string& function, const std::string& at, const json& event, size_t index)
    {
        const std::string id
            = function.substr(0, function.size() - 14) + "EventSourceMappingSQS" + std::to_string(index);
        json p = { { "FunctionName", { { "Ref", function } } } };
        // `sqs: !GetAtt Q.Arn` (a function) or a plain ARN is the ARN alone.
        const bool settings = event.is_object() && !event.contains("Ref")
            && !(event.size() == 1 && event.begin().key().starts_with("Fn::"));
        const json spec = settings ? event : json { { "arn", event } };
        const std::pair<const char*, const char*> keys[] = { { "arn", "EventSourceArn" }, { "batchSize", "BatchSize" },
            { "maximumBatchingWindow", "MaximumBatchingWindowInSeconds" }, { "enabled", "Enabled" } };
        for (const auto& [from, to] : keys)
            if (spec.contains(from)) {
                p[to] = markVariables(spec[from]);
                line("Resources." + id + ".Properties." + to, at + ".sqs." + from);
            }
        if (spec.contains("functionResponseType"))
            p["FunctionResponseTypes"] = json::array({ markVariables(spec["functionResponseType"]) });
        if (spec.contains("maximumConcurrency"))
            p["ScalingConfig"] = { { "MaximumConcurrency", markVariables(spec["maximumConcurrency"]) } };
        // `provisionedPollers: {min, max}` (the Framework's provisioned mode, 4.x).
        if (spec.contains("provisionedPollers") && spec["provisionedPollers"].is_object()) {
            json& config = p["ProvisionedPollerConfig"] = json::object();
            for (const auto& [from, to] :
                { std::pair { "min", "MinimumPollers" }, std::pair { "max", "MaximumPollers" } })
                if (spec["provisionedPollers"].contains(from))
                    config[to] = markVariables(spec["provisionedPollers"][from]);
        }
        m_out.root["Resources"][id] = { { "Type", "AWS::Lambda::EventSourceMapping" }, { "Properties", p } };
        line("Resources." + id, at);
        m_out.origins["Resources." + id + ".Properties"] = at + ".sqs";
    }

    const TemplateDocument& m_service;
    TemplateDocument m_out;
};

} // namespace

bool isServerlessService(const TemplateDocument& document)
{
    const json& root = document.root;
    return root.is_object() && root.contains("service") && !root.contains("Resources")
        && (root.contains("functions") || root.contains("provider"));
}

TemplateDocument serverlessTemplate(const TemplateDocument& service)
{
    return Translation(service).translate();
}

} // namespace lifeline::check
