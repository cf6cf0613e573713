// `lifeline check`'s rules about how a queue is deployed (a trigger Lambda refuses, a public queue policy, the old
// message size limit, a FIFO queue's DLQ, a DLQ without an alarm), each at its boundaries, and waivers: a waived
// finding stays in the report, marked, and a waiver of no rule is refused.
#include "check_input_of.h"
#include "lifeline/check/queue_check.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::check;
using namespace lifeline::scenario;
using json = nlohmann::json;

namespace {

const Finding* find(const std::vector<Finding>& findings, const std::string& id)
{
    for (const auto& f : findings)
        if (f.id == id)
            return &f;
    return nullptr;
}

bool fires(const json& attributes, const json& consumer, const std::string& id)
{
    return find(checkQueue(test::checkInputOf(attributes, consumer)), id) != nullptr;
}

const std::string kDlqPolicy = R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq", )"
                               R"("maxReceiveCount": 5})";

json lambda(const std::string& timeout, int batch = 10, const std::string& window = "0s")
{
    return { { "processing", "1s" },
        { "lambda",
            { { "timeout", timeout }, { "batchSize", batch }, { "batchingWindow", window },
                { "reportBatchItemFailures", true } } } };
}

json policy(const json& statement)
{
    return { { "VisibilityTimeout", "30" }, { "ReceiveMessageWaitTimeSeconds", "20" }, { "RedrivePolicy", kDlqPolicy },
        { "Policy", json { { "Version", "2012-10-17" }, { "Statement", statement } }.dump() } };
}

const json kLongPoll = { { "processing", "1s" }, { "waitTimeSeconds", 20 } };

} // namespace

TEST_CASE("check: a trigger Lambda refuses - visibility under the function timeout - a finding, and no run for any",
    "[check][deployment]")
{
    const json queue = { { "VisibilityTimeout", "30" }, { "RedrivePolicy", kDlqPolicy } };
    CHECK_FALSE(fires(queue, lambda("30s"), "lambda-visibility-under-timeout")); // equal: Lambda takes it
    CHECK(fires(queue, lambda("30s"), "lambda-visibility-under-6x"));
    const auto findings = checkQueue(test::checkInputOf(queue, lambda("31s")));
    const Finding* refused = find(findings, "lambda-visibility-under-timeout");
    REQUIRE(refused);
    CHECK(refused->severity == Severity::High);
    CHECK(refused->message
        == "Lambda refuses to create this trigger (InvalidParameterValueException: Queue visibility timeout: 30 "
           "seconds "
           "is less than Function timeout: 31 seconds): a deployment that creates it fails.");
    CHECK(refused->suggestion
        == "Set VisibilityTimeout to at least 186 (six times the function timeout, plus the batching window), as AWS "
           "recommends.");
    CHECK(refused->noScenario == "Lambda refuses to create this trigger: there is no run until it is fixed");
    CHECK_FALSE(find(findings, "lambda-visibility-under-6x")); // the refusal says it
    const Finding* over = find(findings, "lambda-processing-over-timeout");
    CHECK_FALSE(over); // 1s processing fits 31s
    for (const auto& f : findings) {
        INFO(f.id);
        CHECK(f.scenario.is_null());
        if (&f != refused)
            CHECK(f.noScenario
                == "AWS refuses this setup (lambda-visibility-under-timeout): there is no run until it is fixed");
    }
}

TEST_CASE(
    "check: a trigger Lambda refuses - a batch above 10 without a window - standard queues only", "[check][deployment]")
{
    const json queue = { { "VisibilityTimeout", "600" }, { "RedrivePolicy", kDlqPolicy } };
    const std::string id = "lambda-batch-over-10-without-window";
    CHECK_FALSE(fires(queue, lambda("10s", 10), id));
    CHECK_FALSE(fires(queue, lambda("10s", 11, "1s"), id));
    const auto findings = checkQueue(test::checkInputOf(queue, lambda("10s", 11)));
    REQUIRE(find(findings, id));
    CHECK(find(findings, id)->message
        == "Lambda refuses to create this trigger: a batch size of 11 needs a batching window (\"Maximum batch window "
           "in seconds must be greater than 0 if maximum batch size is greater than 10\"): a deployment that creates "
           "it fails.");
    CHECK(find(findings, id)->suggestion
        == "Set MaximumBatchingWindowInSeconds to 1 or more, or BatchSize to 10 or fewer.");
    CHECK(findings.front().id == id); // what AWS refuses comes first
    json fifo = queue;
    fifo["FifoQueue"] = "true";
    fifo["RedrivePolicy"] = R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq.fifo", )"
                            R"("maxReceiveCount": 5})";
    CHECK_FALSE(fires(fifo, lambda("10s", 10), id));
    CHECK(readCheckInput(fifo, nullptr, lambda("10s", 11)).message()
        == "lambda.batchSize: must be 1 to 10 for a FIFO queue, got 11");
}

TEST_CASE("check: throttles that spend receives - maxReceiveCount under 5 with a Lambda trigger", "[check][deployment]")
{
    const auto withCount = [](int count) {
        return json { { "VisibilityTimeout", "60" },
            { "RedrivePolicy",
                R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq", "maxReceiveCount": )"
                    + std::to_string(count) + "}" } };
    };
    const std::string id = "lambda-max-receive-count-under-5";
    for (int count = 1; count <= 7; ++count) {
        INFO(count);
        // 1 is max-receive-count-1's; 2 to 4 are this rule's; 5 and up is what AWS advises.
        CHECK(fires(withCount(count), lambda("5s"), id) == (count >= 2 && count <= 4));
        CHECK_FALSE(fires(withCount(count), kLongPoll, id)); // consumers of your own are not throttled by Lambda
    }
    const auto findings = checkQueue(test::checkInputOf(withCount(3), lambda("5s")));
    const Finding* f = find(findings, id);
    REQUIRE(f);
    CHECK(f->severity == Severity::Medium);
    CHECK(f->message
        == "A Lambda trigger reads this queue and maxReceiveCount is 3: when the function is throttled, Lambda's "
           "receives still count, so a message that never failed can reach the dead-letter queue after 3 throttled "
           "tries.");
    CHECK(f->suggestion == "Set maxReceiveCount to at least 5, as AWS advises for a queue a Lambda function reads.");
    CHECK(f->noScenario == "Lifeline's Lambda does not throttle: nothing a run draws shows it");
}

TEST_CASE("check: throttles that spend receives - reserved concurrency under the trigger's concurrency",
    "[check][deployment]")
{
    const json attributes = { { "VisibilityTimeout", "60" }, { "RedrivePolicy", kDlqPolicy } };
    const auto side = [](int reserved, int maxConcurrency) {
        json consumer = lambda("5s");
        consumer["lambda"]["reservedConcurrency"] = reserved;
        if (maxConcurrency > 0)
            consumer["lambda"]["maxConcurrency"] = maxConcurrency;
        return consumer;
    };
    const std::string id = "lambda-reserved-concurrency-under-max";
    CHECK_FALSE(fires(attributes, lambda("5s"), id)); // no reservation: nothing to be throttled against
    for (int reserved : { 0, 1, 9, 10, 11, 500 }) {
        INFO(reserved);
        CHECK(fires(attributes, side(reserved, 10), id) == (reserved < 10));
    }
    // Without a MaximumConcurrency the pollers scale up to 1,250 invocations.
    CHECK(fires(attributes, side(1249, 0), id));
    CHECK_FALSE(fires(attributes, side(1250, 0), id));
    const auto under = checkQueue(test::checkInputOf(attributes, side(4, 10)));
    const Finding* f = find(under, id);
    REQUIRE(f);
    CHECK(f->severity == Severity::Medium);
    CHECK(f->message
        == "The function's reserved concurrency is 4 but the trigger's MaximumConcurrency is 10: batches received "
           "beyond 4 are throttled and come back after the visibility timeout, each receive counted towards "
           "maxReceiveCount.");
    CHECK(f->suggestion
        == "Set ScalingConfig.MaximumConcurrency to at most 4 (the reserved concurrency), or raise the reserved "
           "concurrency to it.");
    // With maxReceiveCount under 5, throttles alone move good messages to the DLQ: high.
    json fewReceives = attributes;
    fewReceives["RedrivePolicy"]
        = R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq", "maxReceiveCount": 1})";
    for (int count : { 1, 4, 5 }) {
        INFO(count);
        json a = attributes;
        a["RedrivePolicy"] = R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq", )"
                             R"("maxReceiveCount": )"
            + std::to_string(count) + "}";
        const auto found = checkQueue(test::checkInputOf(a, side(4, 10)));
        REQUIRE(find(found, id));
        CHECK(find(found, id)->severity == (count < 5 ? Severity::High : Severity::Medium));
    }
    CHECK(find(checkQueue(test::checkInputOf(fewReceives, side(1, 0))), id)->message
        == "The function's reserved concurrency is 1 but the trigger has no MaximumConcurrency, so its pollers scale "
           "up to 1,250 invocations: batches received beyond 1 are throttled and come back after the visibility "
           "timeout, each receive counted towards maxReceiveCount (1): a message throttled that often moves to the "
           "dead-letter queue without ever failing.");
    // A reservation of 1 is under the smallest MaximumConcurrency there is (2): the suggestion raises it.
    CHECK(find(checkQueue(test::checkInputOf(attributes, side(1, 0))), id)->suggestion
        == "Raise the reserved concurrency to at least 2 and set ScalingConfig.MaximumConcurrency to it (a "
           "MaximumConcurrency cannot be below 2), or remove the reservation.");
    const auto none = checkQueue(test::checkInputOf(attributes, side(0, 0)));
    REQUIRE(find(none, id));
    CHECK(find(none, id)->severity == Severity::High);
    CHECK(readCheckInput(attributes, nullptr, side(-1, 0)).message()
        == "lambda.reservedConcurrency: must be a whole number from 0 to 1000000, got -1");
}

TEST_CASE("check: provisioned mode - MaximumPollers x 10 bounds the trigger - not with MaximumConcurrency - its ranges",
    "[check][deployment]")
{
    const json attributes = { { "VisibilityTimeout", "60" }, { "RedrivePolicy", kDlqPolicy } };
    const auto provisioned = [](std::optional<int> reserved, int minimum, int maximum, int maxConcurrency) {
        json consumer = lambda("5s");
        if (reserved)
            consumer["lambda"]["reservedConcurrency"] = *reserved;
        consumer["lambda"]["minimumPollers"] = minimum;
        consumer["lambda"]["maximumPollers"] = maximum;
        if (maxConcurrency > 0)
            consumer["lambda"]["maxConcurrency"] = maxConcurrency;
        return consumer;
    };
    // Each event poller runs up to 10 invocations: MaximumPollers 10 runs 100, not the standard mode's 1,250.
    const std::string reservedId = "lambda-reserved-concurrency-under-max";
    for (int reserved : { 20, 99, 100, 101, 1249 }) {
        INFO(reserved);
        CHECK(fires(attributes, provisioned(reserved, 2, 10, 0), reservedId) == (reserved < 100));
    }
    const auto throttled = checkQueue(test::checkInputOf(attributes, provisioned(40, 2, 10, 0)));
    const Finding* under = find(throttled, reservedId);
    REQUIRE(under);
    CHECK(under->message
        == "The function's reserved concurrency is 40 but the trigger's provisioned mode scales up to 10 event pollers "
           "of up to 10 invocations each (100): batches received beyond 40 are throttled and come back after the "
           "visibility timeout, each receive counted towards maxReceiveCount.");
    CHECK(under->suggestion
        == "Lower ProvisionedPollerConfig.MaximumPollers to at most 4 (10 invocations each), or raise the reserved "
           "concurrency to 100.");
    // Both ways of bounding the trigger: AWS makes them mutually exclusive.
    const std::string bothId = "lambda-provisioned-with-maximum-concurrency";
    CHECK_FALSE(fires(attributes, provisioned(std::nullopt, 2, 10, 0), bothId));
    const auto both = checkQueue(test::checkInputOf(attributes, provisioned(std::nullopt, 2, 10, 25)));
    const Finding* f = find(both, bothId);
    REQUIRE(f);
    CHECK(f->severity == Severity::High);
    CHECK(f->message
        == "The trigger has both ScalingConfig.MaximumConcurrency (25) and provisioned mode (MinimumPollers 2, "
           "MaximumPollers 10): AWS makes them mutually exclusive, so the deployment fails or one of them is not what "
           "bounds it.");
    CHECK(f->suggestion
        == "Keep one: in provisioned mode, bound the invocations with MaximumPollers (each event poller runs up to 10 "
           "at once, so MaximumPollers 3 for 25) and remove ScalingConfig; or remove ProvisionedPollerConfig.");
    // The ranges of ProvisionedPollerConfig for SQS, and either one alone taking the other's default.
    CHECK(readCheckInput(attributes, nullptr, provisioned(std::nullopt, 1, 10, 0)).message()
        == "lambda.minimumPollers: must be a whole number from 2 to 200, got 1");
    CHECK(readCheckInput(attributes, nullptr, provisioned(std::nullopt, 2, 10001, 0)).message()
        == "lambda.maximumPollers: must be a whole number from 2 to 10000, got 10001");
    CHECK(readCheckInput(attributes, nullptr, provisioned(std::nullopt, 20, 10, 0)).message()
        == "lambda.minimumPollers: must be at most maximumPollers (10), got 20");
    json onlyMinimum = lambda("5s");
    onlyMinimum["lambda"]["minimumPollers"] = 5;
    const auto read = readCheckInput(attributes, nullptr, onlyMinimum);
    REQUIRE(read);
    REQUIRE(read.value().lambda);
    CHECK(read.value().lambda->maximumPollers == 200);
    CHECK(read.value().lambda->mostInvocations() == 2000);
}

TEST_CASE("check: a queue policy granting everyone - Principal star without a condition", "[check][deployment]")
{
    const std::string id = "queue-policy-public";
    const json open = { { "Effect", "Allow" }, { "Principal", "*" }, { "Action", "sqs:SendMessage" },
        { "Resource", "arn:aws:sqs:us-east-1:000000000000:orders" } };
    const auto findings = checkQueue(test::checkInputOf(policy(open), kLongPoll));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].id == id);
    CHECK(findings[0].severity == Severity::High);
    CHECK(findings[0].message
        == "The queue's policy allows sqs:SendMessage to Principal \"*\" with no condition: the queue is publicly "
           "accessible, to everyone in the world or any authenticated AWS user.");
    CHECK(findings[0].noScenario == "nothing a run draws shows it (a queue policy, an alarm, a size limit)");
    json aws = open;
    aws["Principal"] = { { "AWS", json::array({ "arn:aws:iam::111122223333:root", "*" }) } };
    aws["Action"] = json::array({ "sqs:ReceiveMessage", "sqs:DeleteMessage" });
    const auto both = checkQueue(test::checkInputOf(policy(json::array({ aws })), kLongPoll));
    REQUIRE(both.size() == 1);
    CHECK(both[0].message
        == "The queue's policy allows sqs:ReceiveMessage, sqs:DeleteMessage to Principal \"*\" with no condition: the "
           "queue is publicly accessible, to everyone in the world or any authenticated AWS user.");
    json conditioned = open;
    conditioned["Condition"] = { { "ArnEquals", { { "aws:SourceArn", "arn:aws:sns:us-east-1:000000000000:t" } } } };
    CHECK_FALSE(fires(policy(conditioned), kLongPoll, id));
    json denied = open;
    denied["Effect"] = "Deny";
    CHECK_FALSE(fires(policy(denied), kLongPoll, id));
    json account = open;
    account["Principal"] = { { "AWS", "arn:aws:iam::111122223333:root" } };
    CHECK_FALSE(fires(policy(account), kLongPoll, id));
    json service = open;
    service["Principal"] = { { "Service", "sns.amazonaws.com" } };
    CHECK_FALSE(fires(policy(service), kLongPoll, id));
    json notJson = policy(open);
    notJson["Policy"] = "{not json";
    CHECK_FALSE(fires(notJson, kLongPoll, id));
}

TEST_CASE("check: MaximumMessageSize at the old default - exactly 262,144", "[check][deployment]")
{
    const std::string id = "message-size-old-default";
    const auto sized = [](int64_t size) {
        return json { { "VisibilityTimeout", "30" }, { "ReceiveMessageWaitTimeSeconds", "20" },
            { "RedrivePolicy", kDlqPolicy }, { "MaximumMessageSize", std::to_string(size) } };
    };
    CHECK_FALSE(fires(sized(262143), kLongPoll, id));
    CHECK_FALSE(fires(sized(262145), kLongPoll, id));
    CHECK_FALSE(fires(sized(1048576), kLongPoll, id));
    const auto findings = checkQueue(test::checkInputOf(sized(262144), kLongPoll));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Low);
    CHECK(findings[0].message
        == "MaximumMessageSize is 262,144 bytes, SQS's default before 2025 (what Terraform and Pulumi still write when "
           "it is not set): a message from 262,145 to 1,048,576 bytes, which a queue takes by default today, is "
           "refused (\"Message must be shorter than 262144 bytes.\").");
    CHECK(findings[0].suggestion
        == "Set MaximumMessageSize to 1048576 (or leave it out where the tool does not write a default), unless the "
           "smaller limit is meant; then waive this rule.");
}

TEST_CASE("check: a FIFO queue's dead-letter queue breaks its group's order", "[check][deployment]")
{
    const std::string id = "fifo-dlq-breaks-order";
    const json fifo = {
        { "FifoQueue", "true" }, { "VisibilityTimeout", "30" }, { "ReceiveMessageWaitTimeSeconds", "20" },
        { "RedrivePolicy",
            R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:orders-dlq.fifo", "maxReceiveCount": 3})" }
    };
    const auto findings = checkQueue(test::checkInputOf(fifo, kLongPoll));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].id == id);
    CHECK(findings[0].severity == Severity::Low);
    CHECK(findings[0].message
        == "A message that fails 3 receives leaves its group for the dead-letter queue and the next message of the "
           "group is delivered: that group's order is broken. AWS: don't use a dead-letter queue with a FIFO queue if "
           "you don't want to break the exact order of messages or operations.");
    json noDlq = fifo;
    noDlq.erase("RedrivePolicy");
    CHECK_FALSE(fires(noDlq, kLongPoll, id));
    json standard = fifo;
    standard.erase("FifoQueue");
    standard["RedrivePolicy"] = kDlqPolicy;
    CHECK_FALSE(fires(standard, kLongPoll, id));
}

TEST_CASE("check: a dead-letter queue no alarm watches - only when alarms are known", "[check][deployment]")
{
    const std::string id = "dlq-without-alarm";
    const json queue
        = { { "VisibilityTimeout", "30" }, { "ReceiveMessageWaitTimeSeconds", "20" }, { "RedrivePolicy", kDlqPolicy } };
    json unwatched = kLongPoll;
    unwatched["deadLetterAlarm"] = false;
    const auto findings = checkQueue(test::checkInputOf(queue, unwatched));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].id == id);
    CHECK(findings[0].severity == Severity::Medium);
    CHECK(findings[0].message
        == "The template has CloudWatch alarms, but none watches the dead-letter queue (orders-dlq): a message that "
           "fails 5 receives is moved there and nobody is told, until it expires at the DLQ's retention.");
    json watched = kLongPoll;
    watched["deadLetterAlarm"] = true;
    CHECK_FALSE(fires(queue, watched, id));
    CHECK_FALSE(fires(queue, kLongPoll, id)); // not known: no template, or one without alarms
    json noDlq = queue;
    noDlq.erase("RedrivePolicy");
    CHECK_FALSE(fires(noDlq, unwatched, id)); // no-dlq says it
    unwatched["deadLetterAlarm"] = "no";
    CHECK(readCheckInput(queue, nullptr, unwatched).message() == "deadLetterAlarm: must be true or false");
}

TEST_CASE("check: waivers - the finding stays, marked - a misspelt rule refused", "[check][deployment][waiver]")
{
    const json queue = { { "VisibilityTimeout", "30" }, { "MaximumMessageSize", "262144" } };
    const auto findings
        = checkQueue(test::checkInputOf(queue, { { "processing", "1s" } })); // no-dlq, short-polling, size
    REQUIRE(findings.size() == 3);
    const auto waived = applyWaivers(findings,
        { { "no-dlq", "Resources.Orders.Metadata.lifeline.ignore" }, { "no-dlq", "--ignore" },
            { "short-polling", "--ignore" } });
    REQUIRE(waived);
    CHECK(waived.value().size() == 3);
    CHECK(find(waived.value(), "no-dlq")->waivedBy == "Resources.Orders.Metadata.lifeline.ignore"); // the first
    CHECK(find(waived.value(), "short-polling")->waivedBy == "--ignore");
    CHECK(find(waived.value(), "message-size-old-default")->waivedBy.empty());
    const json report = findingsJson(waived.value());
    REQUIRE(report["findings"].size() == 1);
    CHECK(report["findings"][0]["id"] == "message-size-old-default");
    REQUIRE(report["waived"].size() == 2);
    CHECK(report["waived"][0]["id"] == "no-dlq");
    CHECK(report["waived"][0]["severity"] == "medium");
    CHECK(report["waived"][0]["waivedBy"] == "Resources.Orders.Metadata.lifeline.ignore");
    CHECK_FALSE(findingsJson(findings).contains("waived"));
    const std::string text = findingsText(test::checkInputOf(queue, { { "processing", "1s" } }), waived.value());
    CHECK(text.starts_with("my-queue: 1 finding(s), 2 waived\n\n[low] message-size-old-default\n"));
    CHECK(
        text.find("\n[waived: medium] no-dlq (by Resources.Orders.Metadata.lifeline.ignore)\n  ") != std::string::npos);
    const auto all = applyWaivers(findings,
        { { "no-dlq", "--ignore" }, { "short-polling", "--ignore" }, { "message-size-old-default", "--ignore" } });
    CHECK(findingsText(test::checkInputOf(queue, { { "processing", "1s" } }), all.value())
              .starts_with("my-queue: no findings, 3 waived\n\n[waived: "));
    // A waiver of a rule that did not fire is kept quiet; of a rule that does not exist, refused.
    CHECK(applyWaivers(findings, { { "fifo-single-group", "--ignore" } }));
    const auto misspelt = applyWaivers(findings, { { "no-dql", "Resources.Orders.Metadata.lifeline.ignore" } });
    REQUIRE_FALSE(misspelt);
    CHECK(misspelt.message().starts_with(
        "Resources.Orders.Metadata.lifeline.ignore: no rule \"no-dql\" to waive (the rules: "
        "lambda-visibility-under-timeout, lambda-batch-over-10-without-window, visibility-shorter-than-processing,"));
}
