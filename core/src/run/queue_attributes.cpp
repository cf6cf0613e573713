#include "lifeline/run/queue_attributes.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <nlohmann/json.hpp>

namespace lifeline {

namespace {

struct IntRange {
    const char* name;
    int64_t min;
    int64_t max;
    int64_t QueueAttributes::*field;
};

constexpr IntRange kIntAttributes[] = {
    { "DelaySeconds", 0, 900, &QueueAttributes::delaySeconds },
    { "VisibilityTimeout", 0, 43200, &QueueAttributes::visibilityTimeout },
    { "MessageRetentionPeriod", 60, 1209600, &QueueAttributes::messageRetentionPeriod },
    { "MaximumMessageSize", 1024, 1048576, &QueueAttributes::maximumMessageSize },
    { "ReceiveMessageWaitTimeSeconds", 0, 20, &QueueAttributes::receiveMessageWaitTimeSeconds },
    { "KmsDataKeyReusePeriodSeconds", 60, 86400, &QueueAttributes::kmsDataKeyReusePeriodSeconds },
};

constexpr const char* kReadOnly[] = { "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesDelayed",
    "ApproximateNumberOfMessagesNotVisible", "CreatedTimestamp", "LastModifiedTimestamp", "QueueArn" };

std::optional<int64_t> parseInt(const std::string& text)
{
    int64_t value = 0;
    if (text.empty())
        return std::nullopt;
    const char* begin = text.data();
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

std::optional<bool> parseBool(const std::string& text)
{
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (lower == "true")
        return true;
    if (lower == "false")
        return false;
    return std::nullopt;
}

SqsError invalidValue(const std::string& name)
{
    return makeError(codes::InvalidAttributeValue, "Invalid value for the parameter " + name + ".");
}

SqsError unknownAttribute(const std::string& name)
{
    return makeError(codes::InvalidAttributeName, "Unknown Attribute " + name + ".");
}

SqsError badRedrive(const std::string& policy, const std::string& reason)
{
    return makeError(
        codes::InvalidParameterValue, "Value " + policy + " for parameter RedrivePolicy is invalid. Reason: " + reason);
}

std::optional<SqsError> parseRedrivePolicy(const std::string& text, QueueAttributes& out)
{
    if (text.empty()) { // RedrivePolicy="" removes the attribute
        out.redrivePolicy.reset();
        out.redrivePolicyText.clear();
        return std::nullopt;
    }
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return badRedrive(text, "Redrive policy is not a valid JSON map.");
    RedrivePolicy policy;
    if (!json.contains("deadLetterTargetArn"))
        return badRedrive(text, "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.");
    if (!json.contains("maxReceiveCount"))
        return badRedrive(text, "Redrive policy does not contain mandatory attribute: maxReceiveCount.");
    const auto& arn = json["deadLetterTargetArn"];
    if (!arn.is_string())
        return badRedrive(text, "Invalid value for deadLetterTargetArn.");
    policy.deadLetterTargetArn = arn.get<std::string>();
    const auto& count = json["maxReceiveCount"];
    std::string countText;
    std::optional<int64_t> parsed;
    if (count.is_number_integer()) {
        parsed = count.get<int64_t>();
        countText = std::to_string(*parsed);
    } else if (count.is_string()) {
        countText = count.get<std::string>();
        parsed = parseInt(countText);
    } else {
        countText = count.dump();
    }
    const auto [fewest, most] = kMaxReceiveCountRange;
    if (!parsed || *parsed < fewest || *parsed > most)
        return badRedrive(text,
            "Invalid value for maxReceiveCount: " + countText + ", valid values are from " + std::to_string(fewest)
                + " to " + std::to_string(most) + " both inclusive.");
    policy.maxReceiveCount = *parsed;
    out.redrivePolicy = policy;
    out.redrivePolicyText = nlohmann::json {
        { "deadLetterTargetArn", policy.deadLetterTargetArn }, { "maxReceiveCount", policy.maxReceiveCount }
    }.dump();
    return std::nullopt;
}

std::optional<SqsError> parseRedriveAllowPolicy(const std::string& text, QueueAttributes& out)
{
    if (text.empty()) {
        out.redriveAllowPolicy.reset();
        out.redriveAllowPolicyText.clear();
        return std::nullopt;
    }
    const auto bad = [&](const std::string& reason) {
        return makeError(codes::InvalidParameterValue,
            "Value " + text + " for parameter RedriveAllowPolicy is invalid. Reason: " + reason);
    };
    const auto json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object())
        return bad("Redrive allow policy is not a valid JSON map.");
    if (!json.contains("redrivePermission") || !json["redrivePermission"].is_string())
        return bad("Redrive allow policy does not contain mandatory attribute: redrivePermission.");
    RedriveAllowPolicy policy;
    policy.permission = json["redrivePermission"].get<std::string>();
    if (policy.permission != "allowAll" && policy.permission != "denyAll" && policy.permission != "byQueue")
        return bad("Invalid value for redrivePermission.");
    if (json.contains("sourceQueueArns")) {
        const auto& arns = json["sourceQueueArns"];
        if (!arns.is_array())
            return bad("sourceQueueArns must be a list.");
        if (policy.permission != "byQueue")
            return bad("Only specify sourceQueueArns when redrivePermission is byQueue.");
        for (const auto& arn : arns) {
            if (!arn.is_string())
                return bad("sourceQueueArns must be a list of ARNs.");
            policy.sourceQueueArns.push_back(arn.get<std::string>());
        }
        if (policy.sourceQueueArns.size() > 10)
            return bad("Maximum of 10 sourceQueueArns.");
    } else if (policy.permission == "byQueue") {
        return bad("Specify sourceQueueArns when redrivePermission is byQueue.");
    }
    out.redriveAllowPolicy = policy;
    out.redriveAllowPolicyText = text;
    return std::nullopt;
}

bool isFifoAttribute(const std::string& name)
{
    return name == "FifoQueue" || name == "ContentBasedDeduplication" || name == "DeduplicationScope"
        || name == "FifoThroughputLimit";
}

// The attributes only a FIFO queue has: refused on a standard queue with AWS's texts.
std::optional<SqsError> applyFifoAttribute(
    const std::string& name, const std::string& value, const AttributeChangeContext& context, QueueAttributes& out)
{
    if (name == "FifoQueue") {
        if (!context.fifoQueue)
            return unknownAttribute(name);
        const auto parsed = parseBool(value);
        // A FIFO queue takes FifoQueue=true again, as AWS does (recorded: test_set_unsupported_attribute_fifo).
        if (!context.creating && parsed != std::optional<bool>(true))
            return makeError(codes::InvalidAttributeValue,
                "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported.");
        if (!parsed)
            return invalidValue(name);
        out.fifo = *parsed;
    } else if (name == "ContentBasedDeduplication") {
        if (!context.fifoQueue)
            return unknownAttribute(name);
        const auto parsed = parseBool(value);
        if (!parsed)
            return invalidValue(name);
        out.contentBasedDeduplication = *parsed;
    } else if (name == "DeduplicationScope") {
        if (!context.fifoQueue)
            return makeError(codes::InvalidAttributeName,
                "You can specify the DeduplicationScope only when FifoQueue is set to true.");
        if (value != "queue" && value != "messageGroup")
            return invalidValue(name);
        out.deduplicationScope = value;
    } else { // FifoThroughputLimit
        if (!context.fifoQueue)
            return makeError(codes::InvalidAttributeName,
                "You can specify the FifoThroughputLimit only when FifoQueue is set to true.");
        if (value != "perQueue" && value != "perMessageGroupId")
            return invalidValue(name);
        out.fifoThroughputLimit = value;
    }
    return std::nullopt;
}

} // namespace

const std::vector<std::string>& settableAttributeNames()
{
    static const std::vector<std::string> names { "DelaySeconds", "VisibilityTimeout", "MessageRetentionPeriod",
        "MaximumMessageSize", "ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "RedriveAllowPolicy", "FifoQueue",
        "ContentBasedDeduplication", "DeduplicationScope", "FifoThroughputLimit", "SqsManagedSseEnabled",
        "KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds", "Policy" };
    return names;
}

std::optional<std::pair<int64_t, int64_t>> attributeRange(const std::string& name)
{
    for (const IntRange& range : kIntAttributes)
        if (name == range.name)
            return std::pair { range.min, range.max };
    return std::nullopt;
}

bool isKnownAttributeName(const std::string& name)
{
    for (const std::string& n : settableAttributeNames())
        if (name == n)
            return true;
    for (const char* n : kReadOnly)
        if (name == n)
            return true;
    return false;
}

Result<QueueAttributes> applyAttributes(
    const QueueAttributes& base, const AttributeMap& given, const AttributeChangeContext& context)
{
    QueueAttributes out = base;
    // One kind of server-side encryption at a time (AWS-snap test_sse_kms_and_sqs_are_mutually_exclusive).
    const auto kmsKey = given.find("KmsMasterKeyId");
    const auto managed = given.find("SqsManagedSseEnabled");
    if (kmsKey != given.end() && !kmsKey->second.empty() && managed != given.end() && managed->second == "true")
        return makeError(codes::InvalidAttributeName,
            "You can use one type of server-side encryption (SSE) at one time. You can either enable KMS SSE or SQS "
            "SSE.");
    for (const auto& [name, value] : given) {
        bool handled = false;
        for (const auto& range : kIntAttributes) {
            if (name != range.name)
                continue;
            handled = true;
            const auto parsed = parseInt(value);
            if (!parsed || *parsed < range.min || *parsed > range.max)
                return invalidValue(name);
            out.*range.field = *parsed;
        }
        if (handled)
            continue;
        if (isFifoAttribute(name)) {
            if (auto error = applyFifoAttribute(name, value, context, out))
                return *error;
        } else if (name == "SqsManagedSseEnabled") {
            const auto parsed = parseBool(value);
            if (!parsed)
                return invalidValue(name);
            out.sqsManagedSseEnabled = *parsed;
            if (*parsed && given.find("KmsMasterKeyId") == given.end()) // switching to SSE-SQS drops the key
                out.kmsMasterKeyId.clear();
        } else if (name == "KmsMasterKeyId") {
            out.kmsMasterKeyId = value;
            if (!value.empty()) // SSE-KMS replaces SSE-SQS; it stays off when the key is removed (AWS-snap)
                out.sqsManagedSseEnabled = false;
        } else if (name == "Policy") {
            out.policy = value;
        } else if (name == "RedrivePolicy") {
            if (auto error = parseRedrivePolicy(value, out))
                return *error;
        } else if (name == "RedriveAllowPolicy") {
            if (auto error = parseRedriveAllowPolicy(value, out))
                return *error;
        } else {
            return unknownAttribute(name);
        }
    }
    // perMessageGroupId throughput needs message-group deduplication (AWS-doc CreateQueue).
    if (out.fifo && out.fifoThroughputLimit == "perMessageGroupId" && out.deduplicationScope != "messageGroup")
        return invalidValue("FifoThroughputLimit");
    return out;
}

std::optional<std::string> attributeValue(const QueueAttributes& a, const std::string& name)
{
    if (name == "KmsDataKeyReusePeriodSeconds") // shown only with a customer key, as AWS does
        return a.kmsMasterKeyId.empty() ? std::nullopt
                                        : std::optional<std::string>(std::to_string(a.kmsDataKeyReusePeriodSeconds));
    for (const auto& range : kIntAttributes)
        if (name == range.name)
            return std::to_string(a.*range.field);
    if (name == "FifoQueue")
        return a.fifo ? std::optional<std::string>("true") : std::nullopt;
    if (name == "ContentBasedDeduplication")
        return a.fifo ? std::optional<std::string>(a.contentBasedDeduplication ? "true" : "false") : std::nullopt;
    if (name == "DeduplicationScope")
        return a.fifo ? std::optional<std::string>(a.deduplicationScope) : std::nullopt;
    if (name == "FifoThroughputLimit")
        return a.fifo ? std::optional<std::string>(a.fifoThroughputLimit) : std::nullopt;
    if (name == "SqsManagedSseEnabled")
        return std::string(a.sqsManagedSseEnabled ? "true" : "false");
    if (name == "KmsMasterKeyId")
        return a.kmsMasterKeyId.empty() ? std::nullopt : std::optional<std::string>(a.kmsMasterKeyId);
    if (name == "Policy")
        return a.policy.empty() ? std::nullopt : std::optional<std::string>(a.policy);
    if (name == "RedrivePolicy")
        return a.redrivePolicy ? std::optional<std::string>(a.redrivePolicyText) : std::nullopt;
    if (name == "RedriveAllowPolicy")
        return a.redriveAllowPolicy ? std::optional<std::string>(a.redriveAllowPolicyText) : std::nullopt;
    return std::nullopt;
}

} // namespace lifeline
