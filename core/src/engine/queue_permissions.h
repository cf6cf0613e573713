// A queue's Policy as AddPermission and RemovePermission write it: labelled statements, in AWS's words and key order.
// Lifeline has no IAM, so nothing is enforced: the policy is only kept and given back (docs/sqs-semantics.md). The
// rule is here, with the policy it changes; the engine finds the queue, asks, and sets the attribute.
#pragma once

#include "lifeline/support/result.h"

#include <string>
#include <vector>

namespace lifeline {

// The queue's Policy text with a statement labelled `label` that allows `actions` ("SendMessage") to the accounts'
// root principals; SQS's error when a parameter is missing or the label is taken.
Result<std::string> policyWithPermission(const std::string& policy, const std::string& queueArn,
    const std::string& label, const std::vector<std::string>& accounts, const std::vector<std::string>& actions);

// The Policy without the statement labelled `label` (empty when it was the last); SQS's error when there is none.
Result<std::string> policyWithoutPermission(
    const std::string& policy, const std::string& queueArn, const std::string& label);

} // namespace lifeline
