// A query-protocol (XML) SQS answer read into the JSON protocol's shape, so the recording proxy observes both
// protocols the same way (observe/observed_call.h). Only what SQS's answers hold: `<Message>` elements become
// `Messages`, `<Attribute><Name/><Value/>` pairs an `Attributes` object, `<...ResultEntry>` elements `Successful`,
// `<BatchResultErrorEntry>` elements `Failed`, and an `<ErrorResponse>` the JSON error shape (`__type`, `message`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lifeline::ui {

nlohmann::json queryAnswerAsJson(const std::string& xml);

} // namespace lifeline::ui
