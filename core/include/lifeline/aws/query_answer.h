// A query-protocol (XML) SQS answer read into the JSON protocol's shape, so the recording proxy observes both
// protocols the same way (observe/observed_call.h). Only what SQS's answers hold: `<Message>` elements become
// `Messages`, `<Attribute><Name/><Value/>` pairs an `Attributes` object, `<...ResultEntry>` elements `Successful`,
// `<BatchResultErrorEntry>` elements `Failed`, and an `<ErrorResponse>` the JSON error shape (`__type`, `message`).
// The bytes come from an upstream the proxy does not control: anything that is not well-formed XML reads as an empty
// object, elements nested deeper than 16 are left out, and the fuzzer `fuzz_query_answer` feeds it at random.
#pragma once

#include "lifeline/aws/http_response_parser.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace lifeline::aws {

nlohmann::json queryAnswerAsJson(std::string_view xml);

// An upstream's answer in the JSON shape, whichever protocol it came in: JSON read as it is, unless it nests deeper
// than the endpoint accepts of a request (SQS's answers nest five deep; a parser recursing into 200,000 levels
// overflows the stack) or is not JSON, both of which read as an empty object; XML as above.
nlohmann::json answerAsJson(const HttpAnswer& answer);

} // namespace lifeline::aws
