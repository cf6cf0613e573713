// From text to a scenario: the nesting bound and JSON errors before the reader (scenario_parser.cpp) runs, a
// lesson's fix as a JSON Patch, and how a ScenarioError reads.
#include "lifeline/scenario/scenario.h"
#include "lifeline/support/json_depth.h"

namespace lifeline::scenario {

using nlohmann::json;

std::string ScenarioError::text() const
{
    if (problems.empty())
        return ScenarioProblem { path, message }.text();
    std::string out;
    for (const auto& p : problems)
        out += (out.empty() ? "" : "\n") + p.text();
    if (problems.size() >= kMaxScenarioProblems)
        out += "\n(stopped after " + std::to_string(kMaxScenarioProblems) + " problems)";
    return out;
}

// How deep lists and objects may nest in a scenario file (json_depth.h says why it is checked on the text).
constexpr int kMaxNesting = 64;

std::variant<Scenario, ScenarioError> parseScenario(const std::string& jsonText)
{
    if (jsonNestsDeeperThan(jsonText, kMaxNesting))
        return ScenarioError { "", "lists and objects nest deeper than " + std::to_string(kMaxNesting) + " levels",
            {} };
    json v;
    try {
        v = json::parse(jsonText);
    } catch (const json::exception& e) { // parse_error, and out_of_range for a container too large to hold
        // nlohmann's message names the byte: "parse error at line 3, column 5: syntax error ..."
        std::string message = e.what();
        if (const auto colon = message.find("] "); colon != std::string::npos)
            message = message.substr(colon + 2);
        return ScenarioError { "", "not valid JSON: " + message, {} };
    }
    return parseScenario(v);
}

std::variant<Scenario, ScenarioError> applyFix(const Scenario& scenario)
{
    if (!scenario.lesson || scenario.lesson->fixPatch.empty())
        return scenario;
    json fixed;
    try {
        fixed = scenario.source.patch(scenario.lesson->fixPatch);
    } catch (const json::exception& e) {
        return ScenarioError { "lesson.fixPatch", std::string("cannot be applied: ") + e.what(), {} };
    }
    return parseScenario(fixed);
}

} // namespace lifeline::scenario
