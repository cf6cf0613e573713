// The queues an infrastructure template declares, read for `lifeline check --template`: a CloudFormation or SAM
// template (JSON or YAML, the short forms of its functions included) or a synthesised CDK one
// (cdk.out/*.template.json). Each AWS::SQS::Queue with its dead-letter queue resolved, and the Lambda trigger that
// reads it (AWS::Lambda::EventSourceMapping, an AWS::Serverless::Function's SQS event) with the function's timeout
// and reserved concurrency, its queue policy as its Policy attribute, whether an alarm watches its DLQ, and the
// rules its Metadata waives. Values a template does not fix (a parameter without a default, an import, a condition
// on them) are named, never guessed.
#pragma once

#include "lifeline/check/queue_check.h"
#include "lifeline/support/outcome.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifeline::check {

struct TemplateQueue {
    std::string logicalId; // the resource's key under Resources
    int line = 0; // 1-based line of that key in the file (0: not known)
    nlohmann::json attributes; // name -> value, as `aws sqs get-queue-attributes` prints them (QueueArn included)
    nlohmann::json deadLetterAttributes; // the DLQ's, or null
    // The consumer side the template says: "lambda" for a trigger, the rest from Metadata: {lifeline: {...}}.
    nlohmann::json consumer = nlohmann::json::object();
    std::vector<std::string> unknown; // "VisibilityTimeout: !Ref Visibility, a parameter without a default"
    // Another queue's dead-letter queue with no consumer of its own said: reviewed as part of its source (its
    // sources, comma-separated, when it serves several).
    std::string deadLetterOf;
    std::vector<Waiver> waivers; // Metadata: {lifeline: {ignore: [...]}} on the queue or its function
    // Rules the file leaves no way to check (a redrive policy it does not fix): listed with notCheckedRules'.
    std::vector<NotChecked> notChecked;
    // Where what a finding is about is written: a queue property's line by its name ("VisibilityTimeout"), the
    // function's "Timeout" and "ReservedConcurrentExecutions", the "trigger"'s (0 or absent: not known).
    std::map<std::string, int> lines;
};

// Marks each queue that is another's dead-letter queue and has no consumer of its own said (both readers).
void markDeadLetterQueues(std::vector<TemplateQueue>& queues);

// Every queue of the template, by logical id. A file that is not YAML or JSON, a template without Resources or
// without a queue, a key given twice, a name that leads back to itself fail, naming the file and the path or line.
// A dead-letter queue outside the template (a literal ARN) leaves deadLetterAttributes null, as a check without
// --dlq-attributes.
Outcome<std::vector<TemplateQueue>> readTemplate(const std::string& text, const std::string& fileName);

} // namespace lifeline::check
