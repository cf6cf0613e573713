// A queue's attributes as typed values, and their validation (names, ranges and SQS's exact error texts).
#pragma once

#include "lifeline/support/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lifeline {

using AttributeMap = std::map<std::string, std::string>;

struct RedrivePolicy {
    std::string deadLetterTargetArn;
    int64_t maxReceiveCount = 0;
};

struct RedriveAllowPolicy {
    std::string permission = "allowAll"; // allowAll | denyAll | byQueue
    std::vector<std::string> sourceQueueArns;
};

struct QueueAttributes {
    bool fifo = false;
    int64_t delaySeconds = 0;
    int64_t visibilityTimeout = 30;
    int64_t messageRetentionPeriod = 345600;
    int64_t maximumMessageSize = 1048576;
    int64_t receiveMessageWaitTimeSeconds = 0;
    std::optional<RedrivePolicy> redrivePolicy;
    std::string redrivePolicyText; // as given, returned by GetQueueAttributes
    std::optional<RedriveAllowPolicy> redriveAllowPolicy;
    std::string redriveAllowPolicyText;
    bool contentBasedDeduplication = false;
    std::string deduplicationScope = "queue";
    std::string fifoThroughputLimit = "perQueue";
    bool sqsManagedSseEnabled = true;
    std::string kmsMasterKeyId;
    int64_t kmsDataKeyReusePeriodSeconds = 300;
    std::string policy;
};

// Which limits are "current AWS" (1 MiB messages, 2025) or the 2023 model (256 KiB).
enum class AwsLimits { Current, Aws2023 };

struct AttributeChangeContext {
    bool creating = false;
    bool fifoQueue = false; // the queue (to be) is FIFO
};

// Validates `given` and applies it onto a copy of `base`; on any error nothing is applied.
// RedrivePolicy's target is checked by the engine (it needs to know the other queues).
Result<QueueAttributes> applyAttributes(
    const QueueAttributes& base, const AttributeMap& given, const AttributeChangeContext& context);

// The canonical string of one settable attribute, or nullopt for names that are not settable attributes.
std::optional<std::string> attributeValue(const QueueAttributes& attributes, const std::string& name);

// Every attribute name GetQueueAttributes knows (the settable ones and the read-only ones).
bool isKnownAttributeName(const std::string& name);
// The attributes CreateQueue and SetQueueAttributes take.
const std::vector<std::string>& settableAttributeNames();
// The range of a whole-number attribute (DelaySeconds: 0 to 900), as the current limits have it.
std::optional<std::pair<int64_t, int64_t>> attributeRange(const std::string& name);
// RedrivePolicy's maxReceiveCount: 1 to 1000.
inline constexpr std::pair<int64_t, int64_t> kMaxReceiveCountRange { 1, 1000 };

} // namespace lifeline
