// `lifeline check --format sarif`: the findings as a SARIF 2.1.0 log (OASIS), so GitHub code scanning and GitLab show
// them on the pull request, each at the file and line of the queue it is about.
#pragma once

#include "lifeline/check/queue_check.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifeline::check {

// One queue's findings and where the queue is written.
struct CheckedQueue {
    std::string file; // as the user gave it: a relative path is what code scanning maps to the repository
    int line = 0; // of the queue's resource in a template; 0: the file as a whole (an attributes file)
    std::string queue; // a template's logical id, or the queue's name
    std::vector<Finding> findings;
};

// One run of the tool "lifeline check": a rule per finding id met, a result per finding with the rule id, the level
// from the severity (high: error, medium: warning, low: note), the message with its suggestion, and the location; a
// waived finding is a result with a suppression (inSource for a template's waiver, external for --ignore).
nlohmann::json findingsSarif(const std::vector<CheckedQueue>& queues, const std::string& toolVersion);

} // namespace lifeline::check
