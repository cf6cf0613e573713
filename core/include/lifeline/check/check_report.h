// `lifeline check` once its options are read: each queue reviewed with what is known of its consumers (a template's
// trigger and Metadata, the command line's options over them), its waivers applied, a scenario written per finding,
// and the report in text, JSON or SARIF. app/check.cpp only reads the command line and the files; the window's check
// dialog and tests reach the rest here (tests/core/test_check_report.cpp).
#pragma once

#include "lifeline/check/queue_check.h"
#include "lifeline/check/template_reader.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lifeline::check {

enum class ReportFormat { Text, Json, Sarif };

struct CheckRun {
    // Where the queues were read from: what every finding points at (a template, a plan, an attributes file, a URL).
    std::string source;
    enum class Source { Attributes, Template, Terraform, Live } kind = Source::Template;
    nlohmann::json consumer = nlohmann::json::object(); // --consumer FILE: the consumer side as JSON
    nlohmann::json given = nlohmann::json::object(); // the command line's consumer options, over everything else
    std::vector<Waiver> waivers; // --ignore, for every queue
    ReportFormat format = ReportFormat::Text;
    std::string scenarioDir; // --scenario-out: a scenario per finding, written there
    Severity failOn = Severity::High;
    std::string toolVersion; // the SARIF report's
    std::string homepage = "https://example.org/lifeline"; // the SARIF report's: where docs/check.md is published
};

// Whether a finding (not waived) at `failOn` or above is among them: the check fails (exit 1).
bool failsAt(const std::vector<Finding>& findings, Severity failOn);

// Each queue of a template, a plan or a live queue reviewed, the report written to `out`; whether the check fails,
// or why it could not be made (a queue whose consumer side is incomplete, a waiver of no rule, a scenario that could
// not be written), naming the queue and where it is.
Outcome<bool> checkQueues(const std::vector<TemplateQueue>& queues, const CheckRun& run, std::ostream& out);

// One queue from its attributes (`aws sqs get-queue-attributes` output) and, when given, its DLQ's.
Outcome<bool> checkAttributes(
    const nlohmann::json& attributes, const nlohmann::json* deadLetter, const CheckRun& run, std::ostream& out);

} // namespace lifeline::check
