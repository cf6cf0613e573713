#include "sqs_params.h"

#include "lifeline/support/base64.h"

#include <charconv>

namespace lifeline::endpoint::params {

[[noreturn]] void invalid(const std::string& name, const std::string& value, const std::string& reason)
{
    throw ParamError { makeError(
        codes::InvalidParameterValue, "Value " + value + " for parameter " + name + " is invalid. Reason: " + reason) };
}

std::optional<std::string> optString(const json& params, const char* name)
{
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return std::nullopt;
    if (!it->is_string())
        invalid(name, it->dump(), "Must be a string.");
    return it->get<std::string>();
}

void missing(const std::string& name)
{
    throw ParamError { makeError(codes::MissingParameter, "The request must contain the parameter " + name + ".") };
}

std::string required(const json& params, const char* name)
{
    auto value = optString(params, name);
    if (!value)
        missing(name);
    return *value;
}

std::optional<int64_t> optInteger(const json& params, const char* name)
{
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return std::nullopt;
    if (it->is_number_integer())
        return it->get<int64_t>();
    if (it->is_string()) {
        const std::string text = it->get<std::string>();
        int64_t value = 0;
        const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec == std::errc() && ptr == text.data() + text.size() && !text.empty())
            return value;
        invalid(name, text, "Must be an integer.");
    }
    invalid(name, it->dump(), "Must be an integer.");
}

std::vector<std::string> stringList(const json& params, const char* name)
{
    std::vector<std::string> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_array())
        invalid(name, it->dump(), "Must be a list of strings.");
    for (const auto& item : *it) {
        if (!item.is_string())
            invalid(name, item.dump(), "Must be a list of strings.");
        out.push_back(item.get<std::string>());
    }
    return out;
}

std::map<std::string, std::string> stringMap(const json& params, const char* name)
{
    std::map<std::string, std::string> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_object())
        invalid(name, it->dump(), "Must be a map of strings.");
    for (const auto& [key, value] : it->items()) {
        if (value.is_string())
            out[key] = value.get<std::string>();
        else if (value.is_number_integer() || value.is_boolean())
            out[key] = value.dump(); // lenient: a number where SQS keeps strings
        else
            invalid(name + std::string(".") + key, value.dump(), "Must be a string.");
    }
    return out;
}

std::vector<MessageAttribute> messageAttributes(const json& params, const char* name)
{
    std::vector<MessageAttribute> out;
    const auto it = params.find(name);
    if (it == params.end() || it->is_null())
        return out;
    if (!it->is_object())
        invalid(name, it->dump(), "Must be a map of message attribute values.");
    for (const auto& [key, value] : it->items()) {
        MessageAttribute attribute;
        attribute.name = key;
        if (!value.is_object())
            invalid(name, value.dump(), "Must be a message attribute value.");
        attribute.value.dataType = optString(value, "DataType").value_or("");
        attribute.value.stringValue = optString(value, "StringValue").value_or("");
        if (auto binary = optString(value, "BinaryValue")) {
            auto bytes = base64Decode(*binary);
            if (!bytes)
                invalid("BinaryValue", *binary, "Must be base64.");
            attribute.value.binaryValue = std::move(*bytes);
        }
        out.push_back(std::move(attribute));
    }
    return out;
}

std::optional<std::string> traceHeader(const json& params)
{
    const auto it = params.find("MessageSystemAttributes");
    if (it == params.end() || !it->is_object())
        return std::nullopt;
    const auto trace = it->find("AWSTraceHeader");
    if (trace == it->end() || !trace->is_object())
        return std::nullopt;
    return optString(*trace, "StringValue");
}

const json& entriesOf(const json& params)
{
    static const json kEmpty = json::array();
    const auto it = params.find("Entries");
    if (it == params.end() || it->is_null())
        return kEmpty;
    if (!it->is_array())
        invalid("Entries", it->dump(), "Must be a list.");
    for (const auto& entry : *it)
        if (!entry.is_object())
            invalid("Entries", entry.dump(), "Each entry must be an object.");
    return *it;
}

json attributeValueJson(const MessageAttributeValue& value)
{
    json out { { "DataType", value.dataType } };
    if (value.dataType.starts_with("Binary"))
        out["BinaryValue"] = base64Encode(value.binaryValue);
    else
        out["StringValue"] = value.stringValue;
    return out;
}

bool wantsAttribute(const std::vector<std::string>& names, const std::string& name)
{
    for (const auto& n : names) {
        if (n == "All" || n == ".*" || n == "*" || n == name) // "*" too (AWS-snap ..._attribute_names_filters)
            return true;
        // "Hel.*" names the prefix "Hel": Hello and Help.Me both match (AWS-snap prefix_filter).
        if (n.size() > 2 && n.ends_with(".*") && name.compare(0, n.size() - 2, n, 0, n.size() - 2) == 0)
            return true;
    }
    return false;
}

std::string lastSegment(std::string_view url)
{
    while (!url.empty() && url.back() == '/')
        url.remove_suffix(1);
    const size_t slash = url.rfind('/');
    return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

} // namespace lifeline::endpoint::params
