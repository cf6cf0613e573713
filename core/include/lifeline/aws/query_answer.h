// A query-protocol (XML) SQS answer read into the JSON protocol's shape, so the recording proxy observes both
// protocols the same way (observe/observed_call.h). Only what SQS's answers hold: `<Message>` elements become
// `Messages`, `<Attribute><Name/><Value/>` pairs an `Attributes` object, `<...ResultEntry>` elements `Successful`,
// `<BatchResultErrorEntry>` elements `Failed`, and an `<ErrorResponse>` the JSON error shape (`__type`, `message`).
// The bytes come from an upstream the proxy does not control: anything that is not well-formed XML reads as an empty
// object, elements nested deeper than 16 are left out, and the fuzzer `fuzz_query_answer` feeds it at random.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace lifeline::net {

nlohmann::json queryAnswerAsJson(std::string_view xml);

} // namespace lifeline::net
