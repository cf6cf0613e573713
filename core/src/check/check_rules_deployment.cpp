// The rules of `lifeline check` about how a queue is deployed rather than how it runs: a Lambda trigger that AWS
// refuses to create, one whose throttles spend receives (a low maxReceiveCount, a reserved concurrency under what
// its pollers run), a queue policy open to anyone, the old message size limit, a FIFO queue's dead-letter queue
// breaking its groups' order, and a dead-letter queue no alarm watches. No run shows these: each says why it has no
// scenario. Sources: docs/sqs-semantics.md, section 6.
#include "check_rule.h"

#include <algorithm>

namespace lifeline::check::rules {

namespace {

using nlohmann::json;

// The visibility timeout a Lambda trigger wants: six times the function's timeout plus the batching window.
int64_t lambdaVisibility(const LambdaTrigger& l)
{
    return std::min<int64_t>(6 * ((l.timeout + 999) / 1000) + (l.batchingWindow + 999) / 1000, 43200);
}

// A whole number with thousands separated: 262,144.
std::string bytes(int64_t n)
{
    std::string digits = std::to_string(n);
    for (int i = int(digits.size()) - 3; i > 0; i -= 3)
        digits.insert(size_t(i), ",");
    return digits;
}

// --- lambda-visibility-under-timeout ---

std::optional<RuleFinding> lambdaVisibilityUnderTimeout(const CheckInput& in)
{
    if (!in.lambda || in.queue.visibilityTimeout * 1000 >= in.lambda->timeout)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "Lambda refuses to create this trigger (InvalidParameterValueException: Queue visibility timeout: "
            + std::to_string(in.queue.visibilityTimeout) + " seconds is less than Function timeout: "
            + std::to_string((in.lambda->timeout + 999) / 1000) + " seconds): a deployment that creates it fails.",
        "Set VisibilityTimeout to at least " + std::to_string(lambdaVisibility(*in.lambda))
            + " (six times the function timeout, plus the batching window), as AWS recommends.",
        replaceAttribute("VisibilityTimeout", lambdaVisibility(*in.lambda)) };
}

// --- lambda-batch-over-10-without-window ---

std::optional<RuleFinding> lambdaBatchOver10WithoutWindow(const CheckInput& in)
{
    if (!in.lambda || in.queue.fifo || in.lambda->batchSize <= 10 || in.lambda->batchingWindow >= 1000)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "Lambda refuses to create this trigger: a batch size of " + std::to_string(in.lambda->batchSize)
            + " needs a batching window (\"Maximum batch window in seconds must be greater than 0 if maximum batch "
              "size is greater than 10\"): a deployment that creates it fails.",
        "Set MaximumBatchingWindowInSeconds to 1 or more, or BatchSize to 10 or fewer.", nullptr };
}

// --- queue-policy-public ---

bool grantsEveryone(const json& principal)
{
    if (principal == "*")
        return true;
    if (principal.is_array())
        return std::any_of(principal.begin(), principal.end(), grantsEveryone);
    return principal.is_object() && principal.contains("AWS") && grantsEveryone(principal["AWS"]);
}

std::string actionsOf(const json& statement)
{
    const json action = statement.value("Action", json("every action"));
    if (!action.is_array())
        return action.is_string() ? action.get<std::string>() : action.dump();
    std::string list;
    for (const auto& a : action)
        list += (list.empty() ? "" : ", ") + (a.is_string() ? a.get<std::string>() : a.dump());
    return list;
}

std::optional<RuleFinding> queuePolicyPublic(const CheckInput& in)
{
    const json policy = json::parse(in.queue.policy.empty() ? "{}" : in.queue.policy, nullptr, false);
    if (!policy.is_object() || !policy.contains("Statement"))
        return std::nullopt;
    const json statements = policy["Statement"].is_array() ? policy["Statement"] : json::array({ policy["Statement"] });
    for (const auto& s : statements) {
        if (!s.is_object() || s.value("Effect", json()) != "Allow" || !grantsEveryone(s.value("Principal", json())))
            continue;
        if (s.contains("Condition") && !s["Condition"].empty())
            continue; // a condition (aws:SourceArn, aws:SourceAccount, ...) narrows who
        return RuleFinding { Severity::High,
            "The queue's policy allows " + actionsOf(s)
                + " to Principal \"*\" with no condition: the queue is publicly accessible, to everyone in the "
                  "world or any authenticated AWS user.",
            "Name the principals (an account, a role) instead of \"*\", or keep \"*\" for a service with a condition "
            "such as aws:SourceArn naming the topic or bucket that sends.",
            nullptr };
    }
    return std::nullopt;
}

// --- message-size-old-default ---

constexpr int64_t kOldMaximumMessageSize = 262144;

std::optional<RuleFinding> messageSizeOldDefault(const CheckInput& in)
{
    if (in.queue.maximumMessageSize != kOldMaximumMessageSize)
        return std::nullopt;
    const int64_t largest = attributeRange("MaximumMessageSize").value().second;
    return RuleFinding { Severity::Low,
        "MaximumMessageSize is " + bytes(kOldMaximumMessageSize) + " bytes, SQS's default before 2025 (what "
            + "Terraform and Pulumi still write when it is not set): a message from "
            + bytes(kOldMaximumMessageSize + 1) + " to " + bytes(largest)
            + " bytes, which a queue takes by default today, is refused (\"Message must be " + "shorter than "
            + std::to_string(kOldMaximumMessageSize) + " bytes.\").",
        "Set MaximumMessageSize to " + std::to_string(largest)
            + " (or leave it out where the tool does not write a default), unless the smaller limit is meant; then "
              "waive this rule.",
        replaceAttribute("MaximumMessageSize", largest) };
}

// --- fifo-dlq-breaks-order ---

std::optional<RuleFinding> fifoDlqBreaksOrder(const CheckInput& in)
{
    if (!in.queue.fifo || !in.queue.redrivePolicy)
        return std::nullopt;
    return RuleFinding { Severity::Low,
        "A message that fails " + std::to_string(in.queue.redrivePolicy->maxReceiveCount)
            + " receives leaves its group for the dead-letter queue and the next message of the group is delivered: "
              "that group's order is broken. AWS: don't use a dead-letter queue with a FIFO queue if you don't want "
              "to break the exact order of messages or operations.",
        "Where a group's order must hold (a ledger, a sequence of operations), keep failed messages in their group "
        "(no RedrivePolicy, an alarm on ApproximateAgeOfOldestMessage) or have the consumer stop the group; where a "
        "skipped message is acceptable, waive this rule.",
        nullptr };
}

// --- dlq-without-alarm ---

std::optional<RuleFinding> dlqWithoutAlarm(const CheckInput& in)
{
    if (!in.queue.redrivePolicy || in.deadLetterAlarmed.value_or(true))
        return std::nullopt;
    const std::string arn = in.queue.redrivePolicy->deadLetterTargetArn;
    const std::string dlq = arn.substr(arn.rfind(':') + 1);
    return RuleFinding { Severity::Medium,
        "The template has CloudWatch alarms, but none watches the dead-letter queue (" + dlq
            + "): a message that fails " + std::to_string(in.queue.redrivePolicy->maxReceiveCount)
            + " receives is moved there and nobody is told, until it expires at the DLQ's retention.",
        "Add an alarm on the DLQ's ApproximateNumberOfMessagesVisible (namespace AWS/SQS, dimension QueueName) "
        "above 0.",
        nullptr };
}

// --- lambda-max-receive-count-under-5 ---

// A throttled invocation's batch comes back like a failed one, and its receive counted: with few receives a message
// that never failed reaches the DLQ. maxReceiveCount 1 has its own rule.
std::optional<RuleFinding> lambdaMaxReceiveCountUnder5(const CheckInput& in)
{
    if (!in.lambda || !in.queue.redrivePolicy || in.queue.redrivePolicy->maxReceiveCount < 2
        || in.queue.redrivePolicy->maxReceiveCount >= 5)
        return std::nullopt;
    const int64_t count = in.queue.redrivePolicy->maxReceiveCount;
    return RuleFinding { Severity::Medium,
        "A Lambda trigger reads this queue and maxReceiveCount is " + std::to_string(count)
            + ": when the function is throttled, Lambda's receives still count, so a message that never failed can "
              "reach the dead-letter queue after "
            + std::to_string(count) + " throttled tries.",
        "Set maxReceiveCount to at least 5, as AWS advises for a queue a Lambda function reads.", nullptr };
}

// --- lambda-reserved-concurrency-under-max ---

// Lambda's pollers do not know the function's reserved concurrency: without a MaximumConcurrency they scale up to
// 1,250 invocations (docs/sqs-semantics.md, section 6).
constexpr int kLambdaPollerScale = 1250;

std::optional<RuleFinding> lambdaReservedUnderMax(const CheckInput& in)
{
    if (!in.lambda || !in.lambda->reservedConcurrency)
        return std::nullopt;
    const int reserved = *in.lambda->reservedConcurrency;
    const int most = in.lambda->mostInvocations() ? in.lambda->mostInvocations() : kLambdaPollerScale;
    if (reserved >= most)
        return std::nullopt;
    const bool provisioned = !in.lambda->maxConcurrency && in.lambda->maximumPollers;
    const std::string poller = in.lambda->maxConcurrency ? "the trigger's MaximumConcurrency is " + std::to_string(most)
        : provisioned
        ? "the trigger's provisioned mode scales up to " + std::to_string(in.lambda->maximumPollers)
            + " event pollers of up to 10 invocations each (" + bytes(most) + ")"
        : "the trigger has no MaximumConcurrency, so its pollers scale up to " + bytes(most) + " invocations";
    if (reserved == 0)
        return RuleFinding { Severity::High,
            "The function's reserved concurrency is 0: it never runs, every batch the trigger receives is throttled "
            "and comes back, and with a dead-letter queue each message moves there after maxReceiveCount receives.",
            "Give the function a reserved concurrency of at least the trigger's MaximumConcurrency, or remove the "
            "reservation.",
            nullptr };
    // With few receives before the DLQ, throttles alone move messages that never failed: the trap is sprung.
    const auto& redrive = in.queue.redrivePolicy;
    const bool fewReceives = redrive && redrive->maxReceiveCount < 5;
    return RuleFinding { fewReceives ? Severity::High : Severity::Medium,
        "The function's reserved concurrency is " + std::to_string(reserved) + " but " + poller
            + ": batches received beyond " + std::to_string(reserved)
            + " are throttled and come back after the visibility timeout, each receive counted towards "
              "maxReceiveCount"
            + (fewReceives ? " (" + std::to_string(redrive->maxReceiveCount)
                        + "): a message throttled that often moves to the dead-letter queue without ever failing."
                           : std::string(".")),
        provisioned ? "Lower ProvisionedPollerConfig.MaximumPollers to at most "
                + std::to_string(std::max(CheckLimits::kLambdaFewestPollers, reserved / 10))
                + " (10 invocations each), or raise the reserved concurrency to " + std::to_string(most) + "."
            : reserved >= CheckLimits::kLambdaFewestConcurrency
            ? "Set ScalingConfig.MaximumConcurrency to at most " + std::to_string(reserved)
                + " (the reserved concurrency), or raise the reserved concurrency to it."
            : "Raise the reserved concurrency to at least 2 and set ScalingConfig.MaximumConcurrency to it (a "
              "MaximumConcurrency cannot be below 2), or remove the reservation.",
        nullptr };
}

// --- lambda-provisioned-with-maximum-concurrency ---

// AWS: "You can control the scaling behavior of your Amazon SQS event source mappings either through maximum
// concurrency settings or by enabling provisioned mode. These are mutually exclusive options."
std::optional<RuleFinding> lambdaProvisionedWithMaximumConcurrency(const CheckInput& in)
{
    if (!in.lambda || !in.lambda->maxConcurrency || !in.lambda->maximumPollers)
        return std::nullopt;
    return RuleFinding { Severity::High,
        "The trigger has both ScalingConfig.MaximumConcurrency (" + std::to_string(in.lambda->maxConcurrency)
            + ") and provisioned mode (MinimumPollers " + std::to_string(in.lambda->minimumPollers)
            + ", MaximumPollers " + std::to_string(in.lambda->maximumPollers)
            + "): AWS makes them mutually exclusive, so the deployment fails or one of them is not what bounds it.",
        "Keep one: in provisioned mode, bound the invocations with MaximumPollers (each event poller runs up to 10 at "
        "once, so MaximumPollers "
            + std::to_string(std::max(CheckLimits::kLambdaFewestPollers, (in.lambda->maxConcurrency + 9) / 10))
            + " for " + std::to_string(in.lambda->maxConcurrency)
            + ") and remove ScalingConfig; or remove ProvisionedPollerConfig.",
        nullptr };
}

constexpr std::string_view kThrottles = "Lifeline's Lambda does not throttle: nothing a run draws shows it";
constexpr std::string_view kRefused = "Lambda refuses to create this trigger: there is no run until it is fixed";
constexpr std::string_view kNotInARun = "nothing a run draws shows it (a queue policy, an alarm, a size limit)";

} // namespace

const CheckRule kLambdaVisibilityUnderTimeout { "lambda-visibility-under-timeout",
    "The visibility timeout is below the function's timeout: Lambda refuses the trigger", lambdaVisibilityUnderTimeout,
    nullptr, nullptr, nullptr, kRefused, true, { .lambdaTimeout = true } };
const CheckRule kLambdaBatchOver10WithoutWindow { "lambda-batch-over-10-without-window",
    "A batch above 10 without a batching window: Lambda refuses the trigger", lambdaBatchOver10WithoutWindow, nullptr,
    nullptr, nullptr, kRefused, true };
const CheckRule kQueuePolicyPublic { "queue-policy-public", "The queue policy allows anyone, with no condition",
    queuePolicyPublic, nullptr, nullptr, nullptr, kNotInARun };
const CheckRule kMessageSizeOldDefault { "message-size-old-default",
    "MaximumMessageSize is the old default of 262,144 bytes", messageSizeOldDefault, nullptr, nullptr, nullptr,
    kNotInARun };
const CheckRule kFifoDlqBreaksOrder { "fifo-dlq-breaks-order",
    "A FIFO queue's dead-letter queue takes a message out of its group's order", fifoDlqBreaksOrder, nullptr, nullptr,
    nullptr,
    "Lifeline's consumers do not check the order they process a group in; the lessons on FIFO groups show it" };
const CheckRule kDlqWithoutAlarm { "dlq-without-alarm", "No CloudWatch alarm watches the dead-letter queue",
    dlqWithoutAlarm, nullptr, nullptr, nullptr, kNotInARun };
const CheckRule kLambdaMaxReceiveCountUnder5 { "lambda-max-receive-count-under-5",
    "A Lambda trigger with maxReceiveCount under 5: throttles alone can dead-letter a message",
    lambdaMaxReceiveCountUnder5, nullptr, nullptr, nullptr, kThrottles };
const CheckRule kLambdaProvisionedWithMaximumConcurrency { "lambda-provisioned-with-maximum-concurrency",
    "A Lambda trigger with both MaximumConcurrency and provisioned mode, which AWS makes mutually exclusive",
    lambdaProvisionedWithMaximumConcurrency, nullptr, nullptr, nullptr,
    "a deployment's validation, not a run: nothing a run draws shows it" };
const CheckRule kLambdaReservedUnderMax { "lambda-reserved-concurrency-under-max",
    "The function's reserved concurrency is under what the trigger runs: batches are throttled", lambdaReservedUnderMax,
    nullptr, nullptr, nullptr, kThrottles };

} // namespace lifeline::check::rules
