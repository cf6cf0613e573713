// Reading an SQS request's parameters (the JSON protocol's input shape; query requests are converted to it first)
// and writing the pieces of answers that several actions share. A parameter of the wrong type or shape is thrown as
// a ParamError carrying SQS's InvalidParameterValue or MissingParameter, which SqsService::call answers: the
// handlers read their parameters in a straight line instead of checking each one.
#pragma once

#include "lifeline/engine/engine.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline::endpoint::params {

using json = nlohmann::json;

struct ParamError {
    SqsError error;
};

[[noreturn]] void invalid(const std::string& name, const std::string& value, const std::string& reason);
[[noreturn]] void missing(const std::string& name);
std::optional<std::string> optString(const json& params, const char* name);
std::string required(const json& params, const char* name);
// Query sends numbers as text, JSON as numbers: both are taken, anything else is refused.
std::optional<int64_t> optInteger(const json& params, const char* name);
std::vector<std::string> stringList(const json& params, const char* name);
std::map<std::string, std::string> stringMap(const json& params, const char* name);
std::vector<MessageAttribute> messageAttributes(const json& params, const char* name);
// MessageSystemAttributes.AWSTraceHeader.StringValue, if sent.
std::optional<std::string> traceHeader(const json& params);
// A batch's Entries: a list of objects (or none).
const json& entriesOf(const json& params);
json attributeValueJson(const MessageAttributeValue& value);
// Whether a MessageAttributeNames list asks for this attribute: All, .*, its name, or a prefix such as "Name.*".
bool wantsAttribute(const std::vector<std::string>& names, const std::string& name);
// The last path segment of a URL: a queue URL's queue name.
std::string lastSegment(std::string_view url);

// A batch answer's Failed list.
// Failed[] of a batch answer; the caller leaves the member out when it is empty, as AWS does (AWS-snap
// test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size: only Successful).
template <class T> json batchFailures(const BatchResult<T>& result)
{
    json failed = json::array();
    for (const auto& f : result.failed)
        failed.push_back(
            { { "Id", f.id }, { "SenderFault", f.senderFault }, { "Code", f.code }, { "Message", f.message } });
    return failed;
}

} // namespace lifeline::endpoint::params
