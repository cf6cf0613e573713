// `lifeline check`: a real queue's settings reviewed against how its consumers behave. The input is the queue's
// attributes as `aws sqs get-queue-attributes --attribute-names All` prints them (and its DLQ's), and the consumer
// side (processing times, consumers and their receive settings, or a Lambda trigger). Each rule that fires is a
// finding with the user's numbers, a suggested change and a scenario that shows it happen, with the change as its
// fix. The rules and their sources are in docs/sqs-semantics.md, section 6.
#pragma once

#include "lifeline/analysis/summary.h"
#include "lifeline/run/queue_attributes.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/support/outcome.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lifeline::check {

// The ranges the consumer side is read with (SQS's and Lambda's limits, and what a simulation can run): the check
// dialog offers the same.
struct CheckLimits {
    static constexpr int kConsumers = 10000;
    static constexpr int kMaxMessages = 10; // ReceiveMessage's MaxNumberOfMessages
    static constexpr int kWaitTimeSeconds = 20;
    static constexpr int kGroups = 1000000;
    static constexpr int kTenants = 1000000;
    static constexpr double kRate = 100000; // messages per second
    static constexpr TimeMs kLambdaShortestTimeout = 1000;
    static constexpr TimeMs kLambdaLongestTimeout = 900000; // 15 minutes
    static constexpr int kLambdaBatchSize = 10000;
    static constexpr TimeMs kLambdaBatchingWindow = 300000; // MaximumBatchingWindowInSeconds: 300
    static constexpr int kLambdaFewestConcurrency = 2; // MaximumConcurrency
    static constexpr int kLambdaMostConcurrency = 1000;
    static constexpr int kLambdaReserved = 1000000; // ReservedConcurrentExecutions: up to the account's quota
    static constexpr int kLambdaFewestPollers = 2; // ProvisionedPollerConfig, for SQS
    static constexpr int kLambdaMostMinimumPollers = 200;
    static constexpr int kLambdaMostPollers = 10000;
};

struct LambdaTrigger {
    TimeMs timeout = 3000; // the function's timeout
    bool timeoutKnown = true; // false: a function whose timeout is not said (outside the template, not fixed by it)
    int batchSize = 10;
    TimeMs batchingWindow = 0; // MaximumBatchingWindowInSeconds
    int maxConcurrency = 0; // 0: not set (Lifeline simulates 5)
    // Provisioned mode (ProvisionedPollerConfig): 0 and 0 in standard mode; either given sets the other's default
    // (MinimumPollers 2, MaximumPollers 200).
    int minimumPollers = 0;
    int maximumPollers = 0;
    // The invocations the mapping runs at once at most: MaximumConcurrency, or in provisioned mode MaximumPollers x 10
    // (each event poller handles up to 10 concurrent invokes); 0 when neither bounds it.
    int mostInvocations() const { return maxConcurrency ? maxConcurrency : maximumPollers * 10; }
    bool reportBatchItemFailures = false;
    std::optional<int> reservedConcurrency; // the function's ReservedConcurrentExecutions, when it has one
    // The function has a dead-letter queue of its own (DeadLetterConfig, SAM's DeadLetterQueue, Terraform's
    // dead_letter_config, the Serverless Framework's onError): for failed asynchronous invocations only.
    bool functionDeadLetter = false;
};

struct CheckInput {
    std::string queueName = "my-queue"; // from QueueArn when the attributes have it
    QueueAttributes queue; // the attributes, validated as SQS would
    std::optional<QueueAttributes> deadLetterQueue; // --dlq-attributes
    scenario::Distribution processing; // LogNormal (p50, p99), Samples, or Fixed
    bool processingKnown = true; // false: not given; the rules that need it are not checked (notCheckedRules)
    TimeMs p50 = 0; // of the processing times (of the samples when those are given)
    TimeMs p99 = 0;
    TimeMs mean = 0; // what sets the consumers' capacity
    int consumers = 1;
    int maxMessages = 1; // MaxNumberOfMessages
    std::optional<int>
        waitTimeSeconds; // the consumers' WaitTimeSeconds; else the queue's ReceiveMessageWaitTimeSeconds
    std::optional<TimeMs> readTimeout; // the client's HTTP read timeout
    bool heartbeat = false; // the consumers extend the visibility timeout while they work
    int groups = 0; // how many MessageGroupIds the producers use (0: not said, or none on a standard queue)
    int tenants = 0; // tenants sharing the queue (0: not said)
    double rate = 0; // messages per second the producers send (0: not said)
    std::optional<LambdaTrigger> lambda;
    // Whether a CloudWatch alarm watches the dead-letter queue; unknown (the template has no alarms at all, or the
    // attributes came without a template) leaves it unset.
    std::optional<bool> deadLetterAlarmed;

    int effectiveWaitSeconds() const { return waitTimeSeconds.value_or(int(queue.receiveMessageWaitTimeSeconds)); }
};

// Reads a queue's attributes: `{"Attributes": {...}}` (the CLI's and boto3's shape) or a plain name-to-value map.
// Read-only attributes (counts, timestamps, QueueArn) are skipped, QueueArn names the queue; an attribute SQS would
// refuse is a failure with SQS's own text, named.
Outcome<std::pair<std::string, QueueAttributes>> readQueueAttributes(const nlohmann::json& document);

// Reads the consumer side: {"processing": {"p50": "2s", "p99": "40s"} | {"samples": [1.2, 3]} | "5s", "consumers",
// "maxMessages", "waitTimeSeconds", "readTimeout", "heartbeat", "groups", "tenants", "rate", "lambda": {"timeout",
// "batchSize", "batchingWindow", "maxConcurrency", "reportBatchItemFailures"}, "deadLetterAlarm": true|false}. A
// trigger Lambda would refuse is read, and reported as a finding. An unknown key, a p99 below the p50 or
// a value out of SQS's or Lambda's range is a failure naming it.
Outcome<CheckInput> readCheckInput(
    const nlohmann::json& attributes, const nlohmann::json* deadLetterAttributes, const nlohmann::json& consumerSide);

enum class Severity { High, Medium, Low };
const char* severityName(Severity severity);

struct Finding {
    std::string id; // stable: visibility-shorter-than-processing, no-dlq, ...
    Severity severity = Severity::Low;
    std::string message; // what and why, with the user's numbers
    std::string suggestion; // the change
    nlohmann::json scenario; // shows it, the suggestion as the lesson's fix; null where the simulation cannot
    std::string noScenario; // why there is none
    std::string waivedBy; // where the rule is waived for this queue ("--ignore", a template's Metadata); "": not
};

// Every rule that fires, by severity (high first), then in the rules' order. A rule whose input is not known (how
// long a message takes, the function's timeout) is not run: notCheckedRules says which and why.
std::vector<Finding> checkQueue(const CheckInput& input);

struct NotChecked {
    std::string id; // the rule
    std::string needs; // what it needs that the input lacks: "processing times", "the function's timeout"
};
std::vector<NotChecked> notCheckedRules(const CheckInput& input);

// A waiver: the rule `id` is not to fail this queue's check; `by` says where it was given. The waived finding stays
// in the report, marked.
struct Waiver {
    std::string id;
    std::string by;
};
// Marks the findings the waivers name. A waiver of a rule that does not exist fails, naming it and where it was
// given (a misspelt waiver must not pass silently).
Outcome<std::vector<Finding>> applyWaivers(std::vector<Finding> findings, const std::vector<Waiver>& waivers);

// {"findings": [{"id", "severity", "message", "suggestion"}...], "waived": [{... "waivedBy"}]}: a waived finding is
// listed apart, so a script reading "findings" sees what fails the check.
nlohmann::json findingsJson(const std::vector<Finding>& findings);
std::string findingsText(const CheckInput& input, const std::vector<Finding>& findings);

// The share of messages processed more than once with these settings, simulated (2,000 messages).
double simulatedDuplicateShare(const CheckInput& input);

// Whether a run's figures show the finding's problem (the generated scenario's run does, its fixed run does not).
bool problemShows(const std::string& id, const analysis::RunSummary& summary, const CheckInput& input);

// The scenario of a finding (check_scenarios.cpp); null when the simulation lacks what would show it.
nlohmann::json findingScenario(const CheckInput& input, const Finding& finding, const nlohmann::json& fixPatch);

} // namespace lifeline::check
