// A Serverless Framework service (`serverless.yml`) as the CloudFormation template it deploys, so the template reader
// reads it like any other: its `resources: Resources:` as they are, each function of `functions:` an
// AWS::Lambda::Function under the logical id the framework gives it (`sendEmail` -> SendEmailLambdaFunction, its
// timeout its own, the provider's, or the framework's 6 s), and each `sqs` event an AWS::Lambda::EventSourceMapping.
// A Serverless variable (`${self:custom.queueArn}`, `${opt:stage}`) is resolved only when it deploys: it is named as a
// value the file does not fix. Every key keeps the line it has in the file.
#pragma once

#include "template_document.h"

namespace lifeline::check {

// Whether the document is a Serverless Framework service: a `service` and `functions` or `provider`, and no
// top-level `Resources`.
bool isServerlessService(const TemplateDocument& document);

// The template it deploys. Throws TemplateError for a service whose `functions` or `resources` is not a map.
TemplateDocument serverlessTemplate(const TemplateDocument& service);

} // namespace lifeline::check
