// SQS's rules for what a message may contain: characters, attribute names and types, id formats, sizes, digests.
#pragma once

#include "lifeline/result.h"
#include "lifeline/sqs_types.h"

#include <optional>
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

std::optional<SqsError> validateMessageAttributes(const std::vector<MessageAttribute>& attributes);

// Body plus attribute names, types and values: what counts against MaximumMessageSize.
size_t messagePayloadSize(std::string_view body, const std::vector<MessageAttribute>& attributes);

// MD5OfMessageAttributes (sqs-semantics.md 1.12); empty for no attributes.
std::string md5OfMessageAttributes(const std::vector<MessageAttribute>& attributes);

} // namespace lifeline
