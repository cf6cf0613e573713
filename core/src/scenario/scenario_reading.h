// What the two passes of reading a scenario share: the problem list of the read running on this thread, paths, and
// the nearest known name for a did-you-mean. scenario_parser.cpp reads the fields; scenario_check.cpp checks what
// refers to what once they read right.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <string>
#include <vector>

namespace lifeline::scenario::reading {

// Adds a problem to the read running on this thread (parseScenario); stops the read after kMaxScenarioProblems.
void report(const std::string& path, const std::string& message);
size_t problemCount();
std::string at(const std::string& path, size_t index); // queues[2]
std::string join(const std::string& path, const std::string& key); // queues[2].name
// Ends the read of the item it is in (a queue, a producer, the lesson): reported, and the item left out.
[[noreturn]] void fail(const std::string& path, const std::string& message);
// The field readers: each reports a problem with its path and goes on with a default.
bool checkKeys(const nlohmann::json& object, const std::string& path, std::initializer_list<const char*> known);
std::string text(const nlohmann::json& object, const std::string& path, const char* key, bool required = true);
std::optional<int64_t> integer(
    const nlohmann::json& object, const std::string& path, const char* key, int64_t min, int64_t max);
// The known name nearest to `name`, when it is near enough to suggest; else empty.
std::string nearest(const std::string& name, const std::vector<std::string>& known);

// {"lognormal": {"p50": D, "p99": D}} or {"samples": [D, ...]}: processing times as people measure them
// (distribution_specs.cpp).
Distribution measuredDistribution(const nlohmann::json& v, const std::string& path);

// A scenario's `lesson`: its texts, fix, measure and key moments (lesson_specs.cpp).
LessonText readLessonText(const nlohmann::json& v, const std::string& path);

// A lesson's "moments" list; a moment with a problem is reported and left out (moment_specs.cpp).
std::vector<analysis::MomentSpec> readMomentSpecs(const nlohmann::json& list, const std::string& path);

// A scenario's AWS services around its queues: its `topics` and `kmsKeys`, into `scenario`; and a message's
// `attributes` (service_specs.cpp).
void readServices(const nlohmann::json& v, Scenario& scenario);
std::map<std::string, std::string> messageAttributes(const nlohmann::json& v, const std::string& path);

// A Lambda trigger's scaling: `scaleFromIdle` and `provisionedPollerConfig`, into `spec` (mapping_scaling_specs.cpp).
void readMappingScaling(const nlohmann::json& v, const std::string& path, LambdaSpec& spec);

// A scenario's CloudWatch `alarms` (alarm_specs.cpp).
void readAlarms(const nlohmann::json& v, Scenario& scenario);

// A scenario's `script`, read against the queues and consumers already read (script_specs.cpp).
std::vector<ScriptStep> readScript(const nlohmann::json& list, const std::string& path, const Scenario& scenario);

// The second pass: queue and consumer names, DLQs, attributes and message timers as SQS judges them.
void crossCheck(const Scenario& scenario);

} // namespace lifeline::scenario::reading
