// The queue behind a URL, read for `lifeline check --queue-url`: its attributes and its dead-letter queue's
// (GetQueueAttributes, GetQueueUrl), and when asked the Lambda event source mapping that reads it with its
// function's timeout (ListEventSourceMappings, GetFunctionConfiguration), each request signed with SigV4 as the
// recording proxy signs (the credentials found as the AWS CLI finds them, never printed).
#pragma once

#include "lifeline/check/template_reader.h"
#include "lifeline/support/outcome.h"

#include <string>

namespace lifeline::ui {

struct LiveQueueRequest {
    std::string queueUrl; // https://sqs.eu-west-1.amazonaws.com/111122223333/orders, http://127.0.0.1:9324/...
    std::string region; // --region; empty: the URL's host (sqs.REGION.amazonaws.com), the profile's, or us-east-1
    std::string profile; // --profile
    bool lambdaMappings = false; // --lambda-mappings: read the trigger through Lambda's API
    bool insecure = false; // plain http to a host that is not this machine
};

// The queue as a template's queue: its name, attributes, DLQ, the trigger as the consumer side, and what could not be
// read (a DLQ the credentials may not read) in `unknown`. Fails, naming what, for a URL that is not one, missing
// credentials, an endpoint that does not answer, or an error from SQS (its code and text).
Outcome<check::TemplateQueue> readLiveQueue(const LiveQueueRequest& request);

} // namespace lifeline::ui
