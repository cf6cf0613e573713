// CloudTrail's SQS data events (a trail's delivered JSON: {"Records": [...]}, unzipped) as spans for the import: each
// record with eventSource sqs.amazonaws.com becomes a span of its call at its eventTime (whole seconds, as CloudTrail
// writes it). What the records carry, from AWS's own example (SQS Developer Guide, "Logging Amazon SQS API calls using
// AWS CloudTrail"): a SendMessage's queueUrl and its responseElements.messageId. No record of a receive or a delete
// names a message, so they are counted, never drawn (docs/import.md).
#pragma once

#include "lifeline/import/otlp_spans.h"

#include <map>
#include <nlohmann/json.hpp>

namespace lifeline::import {

// True when `document` is a CloudTrail log file ({"Records": [...]}).
bool isCloudTrail(const nlohmann::json& document);

// Appends the SQS records' spans; counts in `notDrawn` what cannot be drawn, by kind. A record without its eventTime
// or queueUrl is an error naming it ("trail.json: Records[3].eventTime: a time such as 2023-11-07T23:59:11Z").
Outcome<> readCloudTrail(const nlohmann::json& document, const std::string& fileName, std::vector<Span>& spans,
    std::map<std::string, size_t>& notDrawn);

} // namespace lifeline::import
