// A `lifeline check` input from a queue's attributes and its consumer, for the check tests: one the reader refuses
// fails the test with the reader's message.
#pragma once

#include "lifeline/check/queue_check.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace lifeline::test {

inline check::CheckInput checkInputOf(
    const nlohmann::json& attributes, const nlohmann::json& consumer, const nlohmann::json* dlq = nullptr)
{
    auto read = check::readCheckInput(attributes, dlq, consumer);
    INFO((read ? std::string() : read.message()));
    REQUIRE(read);
    return read.value();
}

} // namespace lifeline::test
