// SQS errors and the Result type every engine call returns: bad input never throws past the API.
#pragma once

#include "lifeline/support/value_or_error.h"

#include <string>
#include <utility>
#include <variant>

namespace lifeline {

// One SQS error as the wire protocols need it: the query <Code>, the message text and the HTTP status.
struct SqsError {
    std::string code;
    std::string message;
    int httpStatus = 400;
    bool senderFault = true;

    bool operator==(const SqsError&) const = default;
};

// The error codes the engine emits, spelled as the query protocol's <Code> (see sqs-semantics.md 1.13).
namespace codes {
inline constexpr const char* NonExistentQueue = "AWS.SimpleQueueService.NonExistentQueue";
inline constexpr const char* QueueAlreadyExists = "QueueAlreadyExists";
inline constexpr const char* QueueDeletedRecently = "AWS.SimpleQueueService.QueueDeletedRecently";
inline constexpr const char* InvalidParameterValue = "InvalidParameterValue";
inline constexpr const char* MissingParameter = "MissingParameter";
inline constexpr const char* InvalidAttributeName = "InvalidAttributeName";
inline constexpr const char* InvalidAttributeValue = "InvalidAttributeValue";
inline constexpr const char* InvalidMessageContents = "InvalidMessageContents";
inline constexpr const char* ReceiptHandleIsInvalid = "ReceiptHandleIsInvalid";
inline constexpr const char* PurgeQueueInProgress = "AWS.SimpleQueueService.PurgeQueueInProgress";
inline constexpr const char* EmptyBatchRequest = "AWS.SimpleQueueService.EmptyBatchRequest";
inline constexpr const char* TooManyEntriesInBatchRequest = "AWS.SimpleQueueService.TooManyEntriesInBatchRequest";
inline constexpr const char* InvalidBatchEntryId = "AWS.SimpleQueueService.InvalidBatchEntryId";
inline constexpr const char* BatchEntryIdsNotDistinct = "AWS.SimpleQueueService.BatchEntryIdsNotDistinct";
inline constexpr const char* BatchRequestTooLong = "AWS.SimpleQueueService.BatchRequestTooLong";
inline constexpr const char* OverLimit = "OverLimit";
inline constexpr const char* ThrottlingException = "ThrottlingException";
inline constexpr const char* ResourceNotFound = "ResourceNotFoundException";
} // namespace codes

// [[nodiscard]]: an ignored result is a visible decision, written `(void)call(...); // why`.
template <class T> class [[nodiscard]] Result : public ValueOrError<T, SqsError> {
public:
    using ValueOrError<T, SqsError>::ValueOrError;
};

struct Ok {
    bool operator==(const Ok&) const = default;
};
using Status = Result<Ok>;

inline SqsError makeError(std::string code, std::string message, int httpStatus = 400)
{
    return SqsError { std::move(code), std::move(message), httpStatus, true };
}

} // namespace lifeline
