// The queues a Terraform plan or state declares, read for `lifeline check --terraform`: what `terraform show -json`
// prints (planned_values of a plan, or values of a state), modules included: aws_sqs_queue with its redrive policy
// (its own or an aws_sqs_queue_redrive_policy's), and the aws_lambda_event_source_mapping that reads it with its
// aws_lambda_function's timeout. A value known only after apply (an ARN of a queue not yet created) is named, not
// guessed; where the plan's configuration names the resource it comes from, that is followed.
#pragma once

#include "lifeline/check/template_reader.h"

namespace lifeline::check {

// Every aws_sqs_queue of the plan, by address (aws_sqs_queue.orders, module.jobs.aws_sqs_queue.main); logicalId is
// the address and line is 0 (a plan does not say where in the .tf files a resource is). A file that is not JSON or
// not a plan or state fails naming the file.
Outcome<std::vector<TemplateQueue>> readTerraformPlan(const std::string& text, const std::string& fileName);

} // namespace lifeline::check
