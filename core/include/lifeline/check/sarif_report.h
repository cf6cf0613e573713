// `lifeline check --format sarif`: the findings as a SARIF 2.1.0 log (OASIS), so GitHub code scanning and GitLab show
// them on the pull request, each at the file and line of the queue it is about.
#pragma once

#include "lifeline/check/queue_check.h"

#include <map>
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
    // Where what a finding is about is written (TemplateQueue::lines): a finding sits on its property's line.
    std::map<std::string, int> lines;
    std::vector<std::string> notChecked; // "not checked without processing times (...): rule, rule"
};

// The tool as the log names it: its version, and its public address (docs/check.md there is each rule's help).
struct SarifTool {
    std::string version;
    std::string homepage;
};

// One run of the tool "lifeline check": a rule per finding id met (its description, and its help at docs/check.md's
// anchor of its id), a result per finding with the rule id, the level from the severity (high: error, medium:
// warning, low: note), the message with its suggestion, and the location: the line of the property at fault where
// the template says it (a function's Timeout on the function), else the queue's, in a path relative to where the
// check ran; a waived finding is a result with a suppression (inSource for a template's waiver, external for
// --ignore). Rules not run for want of an input are the run's tool configuration notifications.
nlohmann::json findingsSarif(const std::vector<CheckedQueue>& queues, const SarifTool& tool);

} // namespace lifeline::check
