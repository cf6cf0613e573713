// The faults SQS really has that Lifeline injects on purpose, and their words (docs/faults.md). The plan that decides
// when they strike: lifeline/engine/faults.h.
#pragma once

#include "lifeline/support/result.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace lifeline {

// A FaultInjected event's detail; InjectedCopy events are the duplicates.
enum class FaultKind : uint8_t {
    Duplicate,
    ShortPollSample,
    Throttling,
    InternalError,
    ServiceUnavailable,
    OverLimit,
    KmsThrottled,
    KmsDisabled,
    Latency, // the call answered late (FaultRule::delay): it took effect when it came
    Count
};

struct FaultWords {
    const char* id; // in plans, the control API and the summary ("duplicate")
    const char* name; // in the hover and the summary ("duplicate delivery")
    const char* code; // the SQS error it answers with (query protocol's code); empty for those that answer OK
    const char* message; // SQS's text for it
    int httpStatus;
    bool encryptedOnly; // KMS's: only a queue with a KMS key (KmsMasterKeyId) can have them
};
const FaultWords& faultWords(FaultKind kind);
std::optional<FaultKind> faultKindNamed(std::string_view id);
// The error a refusing fault answers with (SqsError's senderFault false for 500 and 503: the server's).
SqsError faultError(FaultKind kind);

} // namespace lifeline
