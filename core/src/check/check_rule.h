// One rule of `lifeline check`, whole in one place: when it fires and what it says in the user's numbers, how its
// scenario shows the problem, and which figure of a run shows it. The rules are listed, in the order findings of
// one severity are reported, by checkRules() (check_rules.cpp); each is defined beside its kind
// (check_rules_processing.cpp, check_rules_delivery.cpp). To add one: a CheckRule there, its place in checkRules(),
// its source in docs/sqs-semantics.md section 6, and its tests in tests/core/test_queue_check.cpp.
#pragma once

#include "lifeline/check/queue_check.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline::check::rules {

// What a rule says when it fires.
struct RuleFinding {
    Severity severity = Severity::Low;
    std::string message; // what and why, with the user's numbers
    std::string suggestion; // the change
    nlohmann::json fix; // the suggestion as a patch of the finding's scenario; null when its shape writes one
};

// How a finding's scenario differs from the user's setup.
struct ScenarioShape {
    int count = 40; // messages sent
    int64_t extra = 0; // seconds the run goes on after the usual tail
    nlohmann::json moments = nlohmann::json::array();
    nlohmann::json fix; // the lesson's fixPatch: the finding's fix unless the shape writes another
    bool seekSeed = false; // a rare event: try seeds until the run shows it and its fixed run does not
    nlohmann::json measure; // the lesson's measure (its compare headline's first figure); null: none
};

// What a rule needs beyond the queue's attributes: without it the rule is not run, and the report says so.
struct RuleNeeds {
    bool processing = false; // how long a message takes
    bool lambdaTimeout = false; // the function's timeout
};

struct CheckRule {
    std::string_view id; // stable: scripts and --fail-on users match on it
    std::string_view summary; // one line: what is wrong when it fires (SARIF's rule description, docs/check.md)
    std::optional<RuleFinding> (*fires)(const CheckInput& in);
    // Before the producers and consumers are written: messages, run length, moments, fix, and the queues where the
    // rule needs others. Null: the simulation has nothing to show the problem with.
    void (*shape)(const CheckInput& in, nlohmann::json& scenario, ScenarioShape& shape);
    // After: the producers and consumers as the rule needs them to show it. Null: as the user has them.
    void (*actors)(const CheckInput& in, nlohmann::json& scenario, ScenarioShape& shape);
    // Whether a run's figures show the problem. Null: no run can.
    bool (*shows)(const analysis::RunSummary& summary, const CheckInput& in);
    // Why a rule without a shape has no scenario; empty: the simulation has no such setting.
    std::string_view noScenario = {};
    // What AWS refuses to create: no run can start, so no finding of the queue gets a scenario until it is fixed.
    bool refusedByAws = false;
    RuleNeeds needs = {};
};

// Every rule, in reporting order.
const std::vector<const CheckRule*>& checkRules();
const CheckRule* findRule(std::string_view id);
// What the rule needs that the input lacks ("processing times", "the function's timeout"), or "": it can run.
std::string unmet(const CheckRule& rule, const CheckInput& in);

extern const CheckRule kVisibilityShorterThanProcessing, kBatchExceedsVisibility, kLambdaVisibilityUnder6x,
    kDelayWithLambdaBatchingWindow, kVisibilityOverRetention, kLambdaProcessingOverTimeout,
    kLambdaBatchWithoutPartialFailures, kBacklogGrows; // check_rules_processing.cpp
extern const CheckRule kNoDlq, kMaxReceiveCount1, kMaxReceiveCountHigh, kDlqRetentionNotLonger, kShortPolling,
    kClientTimeoutUnderWait, kFifoSingleGroup, kTenantsWithoutGroupId; // check_rules_delivery.cpp
extern const CheckRule kLambdaVisibilityUnderTimeout, kLambdaBatchOver10WithoutWindow, kQueuePolicyPublic,
    kMessageSizeOldDefault, kFifoDlqBreaksOrder, kDlqWithoutAlarm, kLambdaMaxReceiveCountUnder5,
    kLambdaReservedUnderMax, kLambdaProvisionedWithMaximumConcurrency; // check_rules_deployment.cpp

// --- words (check_rules.cpp) ---
std::string seconds(int64_t s); // "30s", "2m"
std::string percent(double share); // "12 %", "0.4 %", "under 0.1 %"
// Whole seconds, rounded up, within SQS's range for a visibility timeout.
int64_t visibilityFor(TimeMs ms);
// A fix that sets one attribute of the scenario's first queue.
nlohmann::json replaceAttribute(const std::string& name, int64_t value);

// --- scenarios (check_scenarios.cpp) ---
inline constexpr int64_t kMaxSeconds = 14LL * 86400; // a scenario's longest run
std::string ms(TimeMs t); // "1500ms"
nlohmann::json moment(const char* when, const std::string& caption, int limit = 0);
nlohmann::json replaceAt(const std::string& path, const nlohmann::json& value);
std::string deadLetterName(const CheckInput& in);
nlohmann::json queuesJson(const CheckInput& in, bool withDeadLetter);
// How long a poison message cycles before each receive: the visibility timeout or the p99, whichever is longer.
int64_t receiveCycleSeconds(const CheckInput& in);

} // namespace lifeline::check::rules
