// A scenario from its JSON text, for the tests that write one inline: a text the parser refuses fails the test with
// the parser's own message.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <catch2/catch.hpp>
#include <string>
#include <variant>

namespace lifeline::test {

inline scenario::Scenario scenarioFrom(const std::string& json)
{
    auto parsed = scenario::parseScenario(json);
    if (auto* error = std::get_if<scenario::ScenarioError>(&parsed))
        FAIL(error->text());
    return std::get<scenario::Scenario>(std::move(parsed));
}

} // namespace lifeline::test
