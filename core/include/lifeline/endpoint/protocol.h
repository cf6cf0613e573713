// The two wire protocols of SQS, chosen per request: query (form-encoded `Action=...`, XML answers) as Debian's aws
// CLI 2.9 and boto3 1.26 send it, and AWS JSON 1.0 (`X-Amz-Target: AmazonSQS.<Op>`) as current SDKs send it.
// Both decode into one shape, the JSON protocol's input (query's flattened lists and maps are folded into arrays and
// objects), so one service handles both; answers are encoded back per protocol (sqs-semantics.md 2.2, 2.3, 1.13).
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/support/result.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lifeline::endpoint {

enum class Protocol { Query, Json };

// How deep a request may nest: JSON lists and objects, and query keys' dotted segments (Entries.1.MessageAttribute.
// 2.Value.StringValue is 6). SQS's own shapes stay far below; deeper requests are refused before they are walked.
inline constexpr int kMaxJsonNesting = 32;
inline constexpr int kMaxQueryKeySegments = 12;

struct DecodedRequest {
    Protocol protocol = Protocol::Query;
    std::string action; // "SendMessage"
    nlohmann::json params = nlohmann::json::object(); // in the JSON protocol's input shape
    std::optional<SqsError> error; // the request could not be read: answer this, in `protocol`
};

DecodedRequest decodeRequest(const HttpRequest& request);

// Folds query parameters (`Attribute.1.Name=...`) into the JSON input shape; exposed for tests and the fuzzer.
nlohmann::json foldQueryParameters(const std::vector<std::pair<std::string, std::string>>& flat);
// Splits `a=1&b=2` (form or query string); nullopt on a malformed escape.
std::optional<std::vector<std::pair<std::string, std::string>>> splitForm(std::string_view text);

HttpResponse encodeResult(
    Protocol protocol, const std::string& action, const nlohmann::json& output, const std::string& requestId);
// The same answer for an output {member: [items]} whose items are made one at a time while the client reads it
// (HttpResponse::bodyParts): `next` gives the next item, nothing at the end. Its parts joined are encodeResult's
// document for the items `next` gave.
// The parts (HttpResponse::bodyParts) of a list written while the client reads it: `open`, each item `next` gives
// (JSON, comma-separated; or the query protocol's XML element `element`), then `close`. A large Body is written in
// slices: no part holds more than a few hundred KiB.
std::function<std::optional<std::string>()> streamedList(Protocol protocol, std::string element, std::string open,
    std::string close, std::function<std::optional<nlohmann::json>()> next);
HttpResponse encodeStreamedList(Protocol protocol, const std::string& action, const std::string& member,
    std::function<std::optional<nlohmann::json>()> next, const std::string& requestId);
HttpResponse encodeError(Protocol protocol, const SqsError& error, const std::string& requestId);
// A request refused at the HTTP level (413, 431, 411, 400, 505), in SQS's error shape for the protocol its headers
// name (JSON when X-Amz-Target says AmazonSQS.*, else query XML), so an SDK reads it as an SQS error.
HttpResponse encodeHttpRefusal(const HttpParser& parser, const std::string& requestId);

// The JSON protocol's `__type` for a query error code (QueueDoesNotExist for AWS.SimpleQueueService.NonExistentQueue).
std::string jsonErrorType(const std::string& queryCode);
std::string xmlEscape(std::string_view text);
void appendXmlEscaped(std::string& out, std::string_view text); // the same, added to `out`

} // namespace lifeline::endpoint
