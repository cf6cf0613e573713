// SQS's rules for what a message may contain: characters, attribute names and types, id formats, sizes, digests.
#pragma once

#include "lifeline/run/queue_attributes.h"
#include "lifeline/run/sqs_types.h"
#include "lifeline/support/result.h"

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline {

// #x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD | #x10000–#x10FFFF, in well-formed UTF-8.
bool hasOnlyAllowedCharacters(std::string_view text);

// MessageGroupId / MessageDeduplicationId / ReceiveRequestAttemptId: 1–128 of [A-Za-z0-9] and punctuation.
bool isValidTokenId(std::string_view id);

// A batch entry id: ^[A-Za-z0-9_-]{1,80}$.
bool isValidBatchEntryId(std::string_view id);

// The shape every batch request shares: 1–10 entries with distinct, well-formed ids. `entryName` is the
// request entry's type as AWS names it in the empty-batch error.
template <class Entry>
std::optional<SqsError> validateBatchShape(const std::vector<Entry>& entries, const char* entryName)
{
    if (entries.empty())
        return makeError(
            codes::EmptyBatchRequest, std::string("There should be at least one ") + entryName + " in the request.");
    if (entries.size() > 10)
        return makeError(codes::TooManyEntriesInBatchRequest,
            "Maximum number of entries per request are 10. You have sent " + std::to_string(entries.size()) + ".");
    std::set<std::string> ids;
    for (const auto& e : entries) {
        if (!isValidBatchEntryId(e.id))
            return makeError(codes::InvalidBatchEntryId,
                "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at "
                "most 80 letters long.");
        if (!ids.insert(e.id).second)
            return makeError(codes::BatchEntryIdsNotDistinct, "Id " + e.id + " repeated.");
    }
    return std::nullopt;
}

std::optional<SqsError> validateMessageAttributes(const std::vector<MessageAttribute>& attributes);

// A SendMessage (or a batch's entry, `inBatch`, which words the size error differently) for a queue of these
// attributes and type: the first of SQS's refusals it earns, in SQS's order, or none.
std::optional<SqsError> validateSend(const QueueAttributes& queue, bool fifo, const std::string& body,
    const std::optional<int64_t>& delaySeconds, const std::vector<MessageAttribute>& attributes,
    const std::optional<std::string>& groupId, const std::optional<std::string>& dedupId, bool inBatch);

// Body plus attribute names, types and values: what counts against MaximumMessageSize.
size_t messagePayloadSize(std::string_view body, const std::vector<MessageAttribute>& attributes);

// MD5OfMessageAttributes (sqs-semantics.md 1.12); empty for no attributes.
std::string md5OfMessageAttributes(const std::vector<MessageAttribute>& attributes);

} // namespace lifeline
