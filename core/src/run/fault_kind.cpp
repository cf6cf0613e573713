#include "lifeline/run/fault_kind.h"

#include <array>

namespace lifeline {

namespace {
// The texts: the API reference's Common Errors (InternalFailure, ServiceUnavailable, ThrottlingException), a real
// OverLimit answer (as the in-flight quota words it, docs/sqs-semantics.md), and the SQS API's KMS errors as the
// query protocol codes them (their JSON types: KmsThrottled, KmsDisabled). Sources: docs/faults.md.
constexpr std::array<FaultWords, size_t(FaultKind::Count)> kFaultWords { {
    { "duplicate", "duplicate delivery", "", "", 200, false },
    { "shortPoll", "short poll sampled", "", "", 200, false },
    { "throttling", "throttled", "ThrottlingException", "The request was denied due to request throttling.", 400,
        false },
    { "internalError", "internal error", "InternalFailure",
        "The request processing has failed because of an unknown error, exception or failure.", 500, false },
    { "serviceUnavailable", "service unavailable", "ServiceUnavailable",
        "The request has failed due to a temporary failure of the server.", 503, false },
    { "overLimit", "over limit", "OverLimit",
        "Too many messages have been received without being deleted.\nPlease delete your received messages or let "
        "them timeout before receiving more.",
        403, false },
    { "kmsThrottled", "KMS throttled", "KMS.ThrottlingException", "The request was denied due to request throttling.",
        400, true },
    { "kmsDisabled", "KMS key disabled", "KMS.DisabledException",
        "The request was rejected because the specified KMS key is not enabled.", 400, true },
    { "latency", "answered late", "", "", 200, false },
} };

} // namespace

const FaultWords& faultWords(FaultKind kind)
{
    return kFaultWords.at(size_t(kind));
}

std::optional<FaultKind> faultKindNamed(std::string_view id)
{
    for (size_t k = 0; k < kFaultWords.size(); ++k)
        if (id == kFaultWords[k].id)
            return FaultKind(k);
    return std::nullopt;
}

SqsError faultError(FaultKind kind)
{
    const FaultWords& w = faultWords(kind);
    return SqsError { w.code, w.message, w.httpStatus, w.httpStatus < 500 };
}

} // namespace lifeline
