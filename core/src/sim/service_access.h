// Whether an AWS service may send to a queue on a resource's behalf (S3 for a bucket's event notifications): the
// queue's policy must allow the service principal sqs:SendMessage, and an encrypted queue's KMS key must let the
// service use it. And whether a caller of another account may send: the queue's policy must allow the account. No
// IAM beyond that: a queue's own account is not checked, nor a caller's identity policy, nor a key across accounts.
#pragma once

#include "lifeline/engine/engine.h"
#include "lifeline/scenario/scenario.h"

#include <optional>
#include <string>

namespace lifeline::sim {

struct ServiceSender {
    std::string principal; // "s3.amazonaws.com"
    std::string sourceArn; // "arn:aws:s3:::uploads": what aws:SourceArn holds
    std::string sourceAccount; // aws:SourceAccount
    // Instead of a service: a caller of another AWS account ("111122223333"), let in by a Principal naming the account
    // (its id, or arn:aws:iam::ID:root) or "*", refused with SQS's own AccessDenied.
    std::string callerAccount;
};

// A caller of `account`, as serviceSendRefusal judges it.
ServiceSender callerOf(const std::string& account);

// Why the send is refused (SQS's error code, the reason in Lifeline's words: the service drops the message and
// tells no one), or nothing when the queue lets it in. `queue` exists.
std::optional<SqsError> serviceSendRefusal(const Engine& engine, const std::string& queue, const ServiceSender& sender,
    const std::vector<scenario::KmsKeySpec>& keys);

// Whether `text` matches an IAM pattern with `*` (any run of characters) and `?` (one character).
bool iamPatternMatches(const std::string& pattern, const std::string& text, bool ignoreCase = false);

} // namespace lifeline::sim
