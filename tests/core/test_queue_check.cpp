// `lifeline check`: each rule at its boundaries (just under, at, just over), the input errors with the field named,
// the AWS CLI's shape read from a recorded answer, and every finding's scenario: its run shows the problem and its
// fix removes it.
#include "check/check_rule.h"
#include "check_input_of.h"
#include "lifeline/check/queue_check.h"
#include "lifeline/sim/simulation.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <set>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::check;
using namespace lifeline::scenario;
using namespace lifeline::sim;
using json = nlohmann::json;

namespace {

std::vector<std::string> ids(const CheckInput& in)
{
    std::vector<std::string> out;
    for (const auto& f : checkQueue(in))
        out.push_back(f.id);
    return out;
}

bool fires(const CheckInput& in, const std::string& id)
{
    const auto all = ids(in);
    return std::find(all.begin(), all.end(), id) != all.end();
}

const json kDlq = { { "RedrivePolicy",
    R"({"deadLetterTargetArn": "arn:aws:sqs:us-east-1:000000000000:dlq", "maxReceiveCount": 5})" } };

json withDlq(json attributes, int maxReceiveCount = 5)
{
    attributes["RedrivePolicy"] = "{\"deadLetterTargetArn\": \"arn:aws:sqs:us-east-1:000000000000:dlq\", "
                                  "\"maxReceiveCount\": "
        + std::to_string(maxReceiveCount) + "}";
    return attributes;
}

RunSummary runOf(const json& scenario, bool fixed)
{
    auto parsed = parseScenario(scenario);
    INFO(scenario.dump());
    REQUIRE(std::holds_alternative<Scenario>(parsed));
    if (fixed) {
        parsed = applyFix(std::get<Scenario>(parsed));
        REQUIRE(std::holds_alternative<Scenario>(parsed));
    }
    Simulation run(std::get<Scenario>(std::move(parsed)));
    run.runToEnd();
    return run.summary();
}

} // namespace

TEST_CASE("check: visibility against processing - batches - heartbeats", "[check]")
{
    json fast
        = { { "processing", { { "p50", "2s" }, { "p99", "29s" } } }, { "waitTimeSeconds", 20 }, { "consumers", 4 } };
    CHECK_FALSE(fires(
        test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), fast), "visibility-shorter-than-processing"));
    // A timeout equal to the p99 is flagged: it should be a little longer than processing.
    fast["processing"]["p99"] = "30s";
    const auto equal = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), fast));
    REQUIRE(equal.size() == 1);
    CHECK(equal[0].message.starts_with("Processing takes 2s at p50 and 30s at p99, but the visibility timeout is 30s, "
                                       "no longer than the p99: "));
    json slower = fast;
    slower["processing"]["p99"] = "31s";
    const auto found = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), slower));
    REQUIRE(found.size() == 1);
    CHECK(found[0].id == "visibility-shorter-than-processing");
    // The severity follows the simulated harm: 0.6 % of the messages processed twice is medium.
    CHECK(found[0].severity == Severity::Medium);
    CHECK(found[0].message.find("Simulated with your numbers, 0.6 % of the messages were processed twice")
        != std::string::npos);
    CHECK(found[0].suggestion
        == "Set VisibilityTimeout to 47 (one and a half times the p99), or extend it with a heartbeat while working.");
    CHECK(found[0].message.starts_with("Processing takes 2s at p50 and 31s at p99, but the visibility timeout is 30s"));
    json slow
        = { { "processing", { { "p50", "31s" }, { "p99", "40s" } } }, { "waitTimeSeconds", 20 }, { "consumers", 4 } };
    const auto often = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), slow));
    CHECK(often[0].severity == Severity::High); // 53 % of the messages processed twice
    CHECK(often[0].message.find("Simulated with your numbers, 53 % of the messages") != std::string::npos);
    // One consumer: nobody else can take a message that turns visible, and the simulation shows no harm.
    slow["consumers"] = 1;
    const auto alone = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), slow));
    CHECK(alone[0].severity == Severity::Low);
    CHECK(alone[0].message.find("no message was processed twice") != std::string::npos);
    CHECK(alone[0].message.find("0.0 %") == std::string::npos);
    slow["consumers"] = 4;
    slow["heartbeat"] = true;
    CHECK(ids(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), slow)).empty());

    json batch = { { "processing", "10s" }, { "maxMessages", 3 }, { "waitTimeSeconds", 20 } };
    CHECK(ids(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), batch)).empty()); // 3 x 10 s = 30 s: fits
    batch["maxMessages"] = 4;
    const auto batchFound = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), batch));
    REQUIRE(batchFound.size() == 1);
    CHECK(batchFound[0].id == "batch-exceeds-visibility");
    CHECK(batchFound[0].suggestion
        == "Set VisibilityTimeout to 60 (one and a half times 4 messages at the p99), or receive fewer messages at "
           "once (MaxNumberOfMessages 3).");
}

TEST_CASE("check: Lambda's six times - batching window with a delay", "[check]")
{
    const json lambda = { { "processing", "1s" }, { "lambda", { { "timeout", "5s" } } } };
    CHECK(fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "29" } }), lambda), "lambda-visibility-under-6x"));
    CHECK_FALSE(
        fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), lambda), "lambda-visibility-under-6x"));
    CHECK_FALSE(fires(
        test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }), lambda), "short-polling")); // Lambda polls long
    // The batching window counts: what the rule suggests (six times the timeout plus the window) is what it holds
    // the queue to. VT 180 with a 30 s timeout and a 20 s window was passed, though the suggestion said 200.
    const json windowed = { { "processing", "1s" },
        { "lambda", { { "timeout", "30s" }, { "batchingWindow", "20s" }, { "batchSize", 10 } } } };
    const auto under = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "180" } }), windowed));
    const auto sixTimes = std::find_if(
        under.begin(), under.end(), [](const Finding& f) { return f.id == "lambda-visibility-under-6x"; });
    REQUIRE(sixTimes != under.end());
    CHECK(sixTimes->message
        == "The queue's visibility timeout (3m) is under six times the function's timeout (30s) plus its batching "
           "window (20s): a throttled or retried batch turns visible while Lambda still holds it, and is processed "
           "twice.");
    CHECK(sixTimes->suggestion
        == "Set VisibilityTimeout to at least 200 (six times the function timeout, plus the batching window), as AWS "
           "recommends.");
    CHECK_FALSE(
        fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "200" } }), windowed), "lambda-visibility-under-6x"));
    json window = { { "processing", "1s" }, { "lambda", { { "timeout", "5s" }, { "batchingWindow", "1s" } } } };
    CHECK(fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "36" }, { "DelaySeconds", "1" } }), window),
        "delay-with-lambda-batching-window"));
    CHECK_FALSE(fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "36" }, { "DelaySeconds", "0" } }), window),
        "delay-with-lambda-batching-window"));
    window["lambda"]["batchingWindow"] = "0s";
    CHECK_FALSE(fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "36" }, { "DelaySeconds", "1" } }), window),
        "delay-with-lambda-batching-window"));
}

TEST_CASE("check: a Lambda slower than its timeout - batches without partial failures - producers faster than the "
          "consumers",
    "[check]")
{
    // The function's timeout against the p99 of an invocation: at it, nothing; a millisecond over, high.
    const auto lambda = [](const char* p99, const char* timeout, bool partial) {
        return json { { "processing", { { "p50", "2s" }, { "p99", p99 } } },
            { "lambda", { { "timeout", timeout }, { "reportBatchItemFailures", partial } } } };
    };
    const json queue = withDlq({ { "VisibilityTimeout", "60" } });
    CHECK_FALSE(fires(test::checkInputOf(queue, lambda("10s", "10s", true)), "lambda-processing-over-timeout"));
    const auto over = checkQueue(test::checkInputOf(queue, lambda("10001ms", "10s", true)));
    REQUIRE(over.size() == 1);
    CHECK(over[0].id == "lambda-processing-over-timeout");
    CHECK(over[0].severity == Severity::High);
    CHECK(over[0].message
        == "An invocation takes 2s at p50 and 10.001s at p99, but the function's timeout is 10s: about 1.0 % of the "
           "invocations time out, and a timed-out invocation fails its whole batch, which comes back after the "
           "visibility timeout to be processed again (and, with a dead-letter queue, moves there after "
           "maxReceiveCount tries).");
    // The share from the processing times: half when the p50 is the timeout, a tenth of the samples over it.
    CHECK(checkQueue(test::checkInputOf(queue,
              { { "processing", { { "p50", "10s" }, { "p99", "20s" } } },
                  { "lambda", { { "timeout", "10s" }, { "reportBatchItemFailures", true } } } }))[0]
              .message.find(": about 50 % of the invocations")
        != std::string::npos);
    const json samples = { { "processing", { { "samples", { 1, 1, 1, 1, 1, 1, 1, 1, 1, 12 } } } },
        { "lambda", { { "timeout", "10s" }, { "reportBatchItemFailures", true } } } };
    CHECK(checkQueue(test::checkInputOf(queue, samples))[0].message.find(": about 10 % of the invocations")
        != std::string::npos);
    CHECK(over[0].suggestion
        == "Set the function's timeout to 16s (one and a half times the p99), and the queue's visibility timeout to "
           "six times that.");
    // Batches: of one, or reporting item failures, nothing; of two or more without, medium.
    CHECK_FALSE(fires(test::checkInputOf(queue,
                          { { "processing", "2s" }, { "lambda", { { "timeout", "10s" }, { "batchSize", 1 } } } }),
        "lambda-batch-without-partial-failures"));
    CHECK(fires(test::checkInputOf(queue, lambda("5s", "10s", false)),
        "lambda-batch-without-partial-failures")); // 10 by default
    CHECK_FALSE(fires(test::checkInputOf(queue, lambda("5s", "10s", true)), "lambda-batch-without-partial-failures"));
    const auto batch = checkQueue(test::checkInputOf(
        queue, { { "processing", "2s" }, { "lambda", { { "timeout", "10s" }, { "batchSize", 2 } } } }));
    REQUIRE(batch.size() == 1);
    CHECK(batch[0].id == "lambda-batch-without-partial-failures");
    CHECK(batch[0].severity == Severity::Medium);
    CHECK(batch[0].message.starts_with("Batches of up to 2 messages, without ReportBatchItemFailures: when one "
                                       "message fails, the function's error fails the whole batch, and the 1 good"));
    // Producers against the consumers' capacity: 2 consumers at 1 s take 2 a second.
    const auto consumers = [](double rate) {
        return json { { "processing", "1s" }, { "consumers", 2 }, { "rate", rate }, { "waitTimeSeconds", 20 } };
    };
    const json plain = withDlq({ { "VisibilityTimeout", "30" } });
    CHECK_FALSE(fires(test::checkInputOf(plain, consumers(2)), "backlog-grows"));
    CHECK_FALSE(
        fires(test::checkInputOf(plain, { { "processing", "1s" }, { "consumers", 2 }, { "waitTimeSeconds", 20 } }),
            "backlog-grows")); // no rate given: nothing to compare
    const auto five = checkQueue(test::checkInputOf(plain, consumers(10)));
    REQUIRE(five.size() == 1);
    CHECK(five[0].id == "backlog-grows");
    CHECK(five[0].severity == Severity::High);
    CHECK(five[0].message
        == "The producers send 10 messages a second, but 2 consumers at 1s a message (the mean) take 2 a second: the "
           "backlog grows by 28800 messages an hour without end, each message waits longer than the last, and after "
           "the retention period (96h) they expire unread.");
    CHECK(five[0].suggestion
        == "Run at least 13 consumers (the rate with a quarter to spare), or make processing faster.");
    CHECK(fires(test::checkInputOf(plain, consumers(2.01)), "backlog-grows"));
    // A Lambda trigger: only with a maximum concurrency (without one it scales up to 1,250).
    const json function = { { "processing", "1s" }, { "rate", 100 },
        { "lambda", { { "timeout", "5s" }, { "batchSize", 5 }, { "reportBatchItemFailures", true } } } };
    CHECK_FALSE(fires(test::checkInputOf(queue, function), "backlog-grows"));
    json capped = function;
    capped["lambda"]["maxConcurrency"] = 10; // 10 invocations of 5 messages a second: 50
    CHECK(fires(test::checkInputOf(queue, capped), "backlog-grows"));
    capped["lambda"]["maxConcurrency"] = 20;
    CHECK_FALSE(fires(test::checkInputOf(queue, capped), "backlog-grows"));
}

TEST_CASE("check: dead-letter rules at their boundaries", "[check]")
{
    const json consumer = { { "processing", "1s" }, { "waitTimeSeconds", 20 } };
    CHECK(
        ids(test::checkInputOf({ { "VisibilityTimeout", "60" } }, consumer)) == std::vector<std::string> { "no-dlq" });
    CHECK(ids(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 1), consumer))
        == std::vector<std::string> { "max-receive-count-1" });
    CHECK(ids(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 2), consumer)).empty());
    CHECK_FALSE(
        fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 59), consumer), "max-receive-count-high"));
    const auto hour = checkQueue(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 60), consumer));
    REQUIRE(hour.size() == 1);
    CHECK(hour[0].id == "max-receive-count-high");
    CHECK(hour[0].message
        == "A poison message is received 60 times, one visibility timeout (1m) apart, before it moves: it cycles for "
           "1h, taking a consumer each time.");
    CHECK(
        fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 61), consumer), "max-receive-count-high"));

    // An SQS-triggered function with a dead-letter queue of its own, and none on the queue: the trap of lesson 29.
    const json function = { { "processing", "1s" },
        { "lambda", { { "timeout", "10s" }, { "batchSize", 1 }, { "functionDeadLetter", true } } } };
    const auto trap = checkQueue(test::checkInputOf({ { "VisibilityTimeout", "60" } }, function));
    const auto noDlq = std::find_if(trap.begin(), trap.end(), [](const Finding& f) { return f.id == "no-dlq"; });
    REQUIRE(noDlq != trap.end());
    CHECK(noDlq->severity == Severity::High);
    CHECK(noDlq->message
        == "The queue has no dead-letter queue, and its function's own dead-letter queue does not stand in for one: "
           "Lambda sends only failed asynchronous invocations there, and an SQS trigger invokes the function "
           "synchronously. A message the function always fails is received again and again until its retention (96h) "
           "ends, and the function's DLQ never sees it.");
    CHECK(noDlq->scenario.is_object()); // its run shows the poison message cycling, the queue's DLQ the fix
    json without = function;
    without["lambda"].erase("functionDeadLetter");
    const auto plain = checkQueue(test::checkInputOf({ { "VisibilityTimeout", "60" } }, without));
    const auto plainNoDlq = std::find_if(plain.begin(), plain.end(), [](const Finding& f) { return f.id == "no-dlq"; });
    REQUIRE(plainNoDlq != plain.end());
    CHECK(plainNoDlq->severity == Severity::Medium);
    CHECK_FALSE(fires(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }, 5), function), "no-dlq"));

    const json source = withDlq({ { "VisibilityTimeout", "60" }, { "MessageRetentionPeriod", "345600" } });
    for (const auto& [retention, expected] :
        { std::pair { "345599", true }, { "345600", true }, { "345601", false } }) {
        INFO(retention);
        const json dlq = { { "Attributes", { { "MessageRetentionPeriod", retention } } } };
        CHECK(fires(test::checkInputOf(source, consumer, &dlq), "dlq-retention-not-longer") == expected);
    }
    const json fifoDlq = { { "FifoQueue", "true" }, { "MessageRetentionPeriod", "60" } };
    json fifo = source;
    fifo["FifoQueue"] = "true";
    CHECK_FALSE(
        fires(test::checkInputOf(fifo, consumer, &fifoDlq), "dlq-retention-not-longer")); // FIFO resets the clock
}

TEST_CASE("check: polling - the client's read timeout - FIFO groups - retention", "[check]")
{
    const json attributes = withDlq({ { "VisibilityTimeout", "60" } });
    CHECK(fires(test::checkInputOf(attributes, { { "processing", "1s" }, { "waitTimeSeconds", 0 } }), "short-polling"));
    CHECK_FALSE(
        fires(test::checkInputOf(attributes, { { "processing", "1s" }, { "waitTimeSeconds", 1 } }), "short-polling"));
    json longQueue = attributes;
    longQueue["ReceiveMessageWaitTimeSeconds"] = "20";
    CHECK(ids(test::checkInputOf(longQueue, { { "processing", "1s" } })).empty()); // the queue's wait applies
    const auto polling = checkQueue(test::checkInputOf(attributes, { { "processing", "1s" }, { "consumers", 4 } }));
    REQUIRE(polling.size() == 1);
    CHECK(polling[0].message.find("4 consumer(s) make about 14400 empty receives an hour") != std::string::npos);
    CHECK(polling[0].message.find("about $4.20 a month") != std::string::npos);

    for (const auto& [timeout, expected] : { std::pair { "19s", true }, { "20s", true }, { "21s", false } }) {
        INFO(timeout);
        CHECK(fires(test::checkInputOf(longQueue, { { "processing", "1s" }, { "readTimeout", timeout } }),
                  "client-timeout-under-wait")
            == expected);
    }
    json fifo = longQueue;
    fifo["FifoQueue"] = "true";
    CHECK(fires(test::checkInputOf(fifo, { { "processing", "1s" }, { "groups", 1 }, { "consumers", 2 } }),
        "fifo-single-group"));
    CHECK_FALSE(fires(test::checkInputOf(fifo, { { "processing", "1s" }, { "groups", 1 }, { "consumers", 1 } }),
        "fifo-single-group"));
    CHECK_FALSE(fires(test::checkInputOf(fifo, { { "processing", "1s" }, { "groups", 2 }, { "consumers", 2 } }),
        "fifo-single-group"));
    for (const auto& [vt, expected] : { std::pair { "59", false }, { "60", true }, { "61", true } }) {
        INFO(vt);
        json short_ = longQueue;
        short_["MessageRetentionPeriod"] = "60";
        short_["VisibilityTimeout"] = vt;
        CHECK(fires(test::checkInputOf(short_, { { "processing", "1s" } }), "visibility-over-retention") == expected);
    }
}

TEST_CASE("check: bad input names the field - SQS's own text for an attribute", "[check]")
{
    const auto error = [](const json& attributes, const json& consumer) {
        auto read = readCheckInput(attributes, nullptr, consumer);
        REQUIRE_FALSE(read);
        return read.message();
    };
    const json ok = { { "VisibilityTimeout", "30" } };
    CHECK(error(ok, { { "processing", { { "p50", "2s" }, { "p99", "1s" } } } })
        == "processing.p99: 1s is below the p50 (2s)");
    CHECK(error(ok, { { "processing", "1s" }, { "workers", 3 } })
        == "consumer side: unknown key \"workers\" (known: consumers, deadLetterAlarm, groups, heartbeat, lambda, "
           "maxMessages, processing, rate, readTimeout, tenants, waitTimeSeconds)");
    CHECK(error({ { "VisibilityTimeout", "50000" } }, { { "processing", "1s" } })
        == "attributes: InvalidAttributeValue: Invalid value for the parameter VisibilityTimeout.");
    CHECK(error({ { "VisibilityTimout", "30" } }, { { "processing", "1s" } })
        == "attributes: VisibilityTimout: not an SQS queue attribute");
    CHECK(error(ok, { { "processing", "1s" }, { "lambda", { { "timeout", "20m" } } } })
        == "lambda.timeout: must be from 1s to 15m (Lambda's limits), got 20m");
    CHECK(error(ok, { { "processing", "1s" }, { "maxMessages", 11 } })
        == "maxMessages: must be a whole number from 1 to 10, got 11");
    // What Lambda refuses when the trigger is created is read, and reported as a finding (test_check_deployment.cpp).
    CHECK(error({ { "VisibilityTimeout", "30" }, { "FifoQueue", "true" } },
              { { "processing", "1s" },
                  { "lambda", { { "timeout", "5s" }, { "batchSize", 20 }, { "batchingWindow", "1s" } } } })
        == "lambda.batchSize: must be 1 to 10 for a FIFO queue, got 20");
    CHECK(error(ok, { { "processing", "1s" }, { "lambda", { { "timeout", "5s" }, { "batchSize", 10001 } } } })
        == "lambda.batchSize: must be a whole number from 1 to 10000, got 10001");
    // Up to 10,000 on a standard queue with a batching window.
    CHECK(readCheckInput(ok, nullptr,
        { { "processing", "1s" },
            { "lambda", { { "timeout", "5s" }, { "batchSize", 10000 }, { "batchingWindow", "1s" } } } })
              .ok());
}

TEST_CASE("check: the AWS CLI's get-queue-attributes answer - samples give the percentiles", "[check]")
{
    std::ifstream file(std::string(LIFELINE_AWS_RECORDED_DIR) + "/test_sqs.snapshot.json");
    const json snapshot = json::parse(file);
    const json* recorded = nullptr;
    for (const auto& [key, value] : snapshot.items())
        if (key.ends_with("::test_create_and_update_queue_attributes[sqs]"))
            recorded = &value["recorded-content"]["get_queue_attributes"];
    REQUIRE(recorded);
    const auto read = readQueueAttributes(*recorded);
    REQUIRE(read);
    CHECK(read->first == "my-queue"); // its ARN holds a placeholder
    CHECK(read->second.visibilityTimeout == 20);
    CHECK(read->second.receiveMessageWaitTimeSeconds == 10);
    CHECK(read->second.messageRetentionPeriod == 604800);
    CHECK(read->second.maximumMessageSize == 1048576);

    const auto in = test::checkInputOf(
        { { "Attributes",
            { { "QueueArn", "arn:aws:sqs:eu-west-1:123456789012:orders.fifo" }, { "FifoQueue", "true" } } } },
        { { "processing", { { "samples", { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 } } } } });
    CHECK(in.queueName == "orders.fifo");
    CHECK(in.p50 == 5000);
    CHECK(in.p99 == 100000);
}

TEST_CASE("check: each finding's scenario shows the problem and its fix removes it", "[check][scenario]")
{
    std::vector<CheckInput> inputs;
    inputs.push_back(test::checkInputOf({ { "VisibilityTimeout", "10" } },
        { { "processing", { { "p50", "4s" }, { "p99", "20s" } } }, { "consumers", 3 }, { "waitTimeSeconds", 0 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }),
        { { "processing", "10s" }, { "maxMessages", 4 }, { "consumers", 2 }, { "waitTimeSeconds", 20 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }, 1),
        { { "processing", { { "p50", "1s" }, { "p99", "3s" } } }, { "consumers", 2 }, { "waitTimeSeconds", 20 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "20" }, { "DelaySeconds", "2" } }),
        { { "processing", "4s" }, { "lambda", { { "timeout", "5s" }, { "batchingWindow", "1s" } } } }));
    const json dlq = { { "MessageRetentionPeriod", "3600" } };
    inputs.push_back(
        test::checkInputOf(withDlq({ { "VisibilityTimeout", "120" }, { "MessageRetentionPeriod", "3600" } }),
            { { "processing", "1s" }, { "waitTimeSeconds", 20 } }, &dlq));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "120" } }, 40), { { "processing", "1s" } }));
    inputs.push_back(test::checkInputOf({ { "VisibilityTimeout", "30" }, { "FifoQueue", "true" } },
        { { "processing", "2s" }, { "groups", 1 }, { "consumers", 3 }, { "waitTimeSeconds", 20 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" }, { "MessageRetentionPeriod", "60" } }),
        { { "processing", "1s" }, { "waitTimeSeconds", 20 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }),
        { { "processing", { { "p50", "4s" }, { "p99", "20s" } } },
            { "lambda", { { "timeout", "10s" }, { "reportBatchItemFailures", true } } } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }),
        { { "processing", "1s" }, { "consumers", 2 }, { "rate", 10 }, { "waitTimeSeconds", 20 } }));
    inputs.push_back(test::checkInputOf(withDlq({ { "VisibilityTimeout", "30" } }),
        { { "processing", "1s" }, { "consumers", 4 }, { "maxMessages", 10 }, { "tenants", 3 },
            { "waitTimeSeconds", 20 } }));
    std::set<std::string> shown;
    for (const auto& in : inputs)
        for (const auto& f : checkQueue(in)) {
            INFO(f.id);
            REQUIRE(f.scenario.is_object());
            CHECK(problemShows(f.id, runOf(f.scenario, false), in));
            CHECK_FALSE(problemShows(f.id, runOf(f.scenario, true), in));
            CHECK(f.scenario["lesson"]["fix"] == f.suggestion);
            shown.insert(f.id);
        }
    CHECK(shown
        == std::set<std::string> { "visibility-shorter-than-processing", "short-polling", "no-dlq",
            "batch-exceeds-visibility", "max-receive-count-1", "lambda-visibility-under-6x",
            "delay-with-lambda-batching-window", "max-receive-count-high", "dlq-retention-not-longer",
            "fifo-single-group", "visibility-over-retention", "lambda-processing-over-timeout", "backlog-grows",
            "lambda-batch-without-partial-failures", "tenants-without-group-id" });
    // The one rule the simulation cannot show says so.
    const auto client = checkQueue(test::checkInputOf(
        withDlq({ { "ReceiveMessageWaitTimeSeconds", "20" } }), { { "processing", "1s" }, { "readTimeout", "10s" } }));
    REQUIRE(client.size() == 1);
    CHECK(client[0].scenario.is_null());
    CHECK(client[0].noScenario == "the simulation has no such setting to show it with");
}

TEST_CASE("check: without processing times or the function's timeout - those rules listed, the others run", "[check]")
{
    // A queue whose visibility timeout is its retention period, without a DLQ, its consumers unsaid.
    const CheckInput bare
        = test::checkInputOf({ { "VisibilityTimeout", "60" }, { "MessageRetentionPeriod", "60" } }, json::object());
    CHECK_FALSE(bare.processingKnown);
    std::vector<std::string> ids;
    for (const auto& f : checkQueue(bare)) {
        ids.push_back(f.id);
        CHECK(f.scenario.is_null());
        CHECK(f.noScenario
            == "a scenario needs how long a message takes (processing times), which the input does "
               "not say");
    }
    CHECK(ids == std::vector<std::string> { "visibility-over-retention", "no-dlq", "short-polling" });
    CHECK(checkQueue(bare)[0].suggestion
        == "Set VisibilityTimeout well under MessageRetentionPeriod, near the processing time: 30.");
    std::vector<std::string> unchecked;
    for (const auto& rule : notCheckedRules(bare)) {
        unchecked.push_back(rule.id);
        CHECK(rule.needs == "processing times");
    }
    CHECK(unchecked
        == std::vector<std::string> { "visibility-shorter-than-processing", "batch-exceeds-visibility",
            "lambda-processing-over-timeout", "backlog-grows", "tenants-without-group-id" });
    // Given processing times that would fire some of them, those run.
    const CheckInput slow = test::checkInputOf({ { "VisibilityTimeout", "60" }, { "MessageRetentionPeriod", "60" } },
        { { "processing", { { "p50", "50s" }, { "p99", "90s" } } }, { "consumers", 3 } });
    CHECK(notCheckedRules(slow).empty());
    CHECK(fires(slow, "visibility-shorter-than-processing"));

    // A trigger whose function's timeout is not known: the three rules of the timeout are not run.
    const CheckInput trigger = test::checkInputOf(
        withDlq({ { "VisibilityTimeout", "10" } }), { { "processing", "1s" }, { "lambda", { { "batchSize", 5 } } } });
    CHECK_FALSE(trigger.lambda->timeoutKnown);
    unchecked.clear();
    for (const auto& rule : notCheckedRules(trigger)) {
        unchecked.push_back(rule.id);
        CHECK(rule.needs == "the function's timeout");
    }
    CHECK(unchecked
        == std::vector<std::string> {
            "lambda-visibility-under-timeout", "lambda-visibility-under-6x", "lambda-processing-over-timeout" });
    const auto found = checkQueue(trigger);
    REQUIRE(found.size() == 1);
    CHECK(found[0].id == "lambda-batch-without-partial-failures");
    CHECK(found[0].noScenario == "a scenario needs the function's timeout, which the input does not say");
}

TEST_CASE("check: the rules - twenty-four, each id once, in the report's order, a scenario and its figure together",
    "[check]")
{
    std::vector<std::string> ids;
    for (const check::rules::CheckRule* rule : check::rules::checkRules()) {
        ids.emplace_back(rule->id);
        INFO(ids.back());
        CHECK(check::rules::findRule(rule->id) == rule);
        CHECK(rule->fires != nullptr);
        CHECK((rule->shape != nullptr) == (rule->shows != nullptr)); // a scenario is judged by its figure
        CHECK_FALSE(rule->summary.empty()); // SARIF's description and docs/check.md's line
    }
    CHECK(ids
        == std::vector<std::string> { "lambda-visibility-under-timeout", "lambda-batch-over-10-without-window",
            "visibility-shorter-than-processing", "batch-exceeds-visibility", "lambda-visibility-under-6x",
            "lambda-processing-over-timeout", "backlog-grows", "lambda-batch-without-partial-failures",
            "delay-with-lambda-batching-window", "lambda-provisioned-with-maximum-concurrency",
            "lambda-reserved-concurrency-under-max", "no-dlq", "max-receive-count-1",
            "lambda-max-receive-count-under-5", "max-receive-count-high", "dlq-retention-not-longer", "short-polling",
            "client-timeout-under-wait", "fifo-single-group", "tenants-without-group-id", "visibility-over-retention",
            "queue-policy-public", "dlq-without-alarm", "fifo-dlq-breaks-order", "message-size-old-default" });
    CHECK(check::rules::findRule("no-such-rule") == nullptr);
    CHECK_FALSE(problemShows("client-timeout-under-wait", RunSummary {}, CheckInput {}));
}

TEST_CASE("check: tenants on a standard queue without group ids - from 30 in flight - each scenario shows its wait",
    "[check][tenants]")
{
    const json attributes = withDlq({ { "VisibilityTimeout", "60" } });
    const auto side = [](int consumers, int maxMessages, int tenants) {
        return json { { "processing", "1s" }, { "consumers", consumers }, { "maxMessages", maxMessages },
            { "tenants", tenants }, { "waitTimeSeconds", 20 } };
    };
    const std::string id = "tenants-without-group-id";
    CHECK_FALSE(fires(test::checkInputOf(attributes, side(30, 1, 1)), id)); // one tenant: nobody to wait behind it
    CHECK(fires(test::checkInputOf(attributes, side(30, 1, 2)), id));
    CHECK_FALSE(fires(test::checkInputOf(attributes, side(29, 1, 2)), id)); // never 30 in flight: never noisy
    CHECK(fires(test::checkInputOf(attributes, side(3, 10, 2)), id));
    json grouped = side(30, 1, 2);
    grouped["groups"] = 2;
    CHECK_FALSE(fires(test::checkInputOf(attributes, grouped), id)); // already a fair queue
    json fifo = attributes;
    fifo["FifoQueue"] = "true";
    CHECK_FALSE(fires(test::checkInputOf(fifo, side(30, 1, 2)), id));
    const auto findings = checkQueue(test::checkInputOf(attributes, side(4, 10, 3)));
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].severity == Severity::Medium);
    CHECK(findings[0].message
        == "3 tenants share this standard queue and send without a MessageGroupId: SQS hands messages out roughly in "
           "the order they came, so a burst of 1,000 from one tenant holds every other tenant's next message for about "
           "4 min 10 s (what your consumers take to work through it).");
    CHECK(readCheckInput(attributes, nullptr, { { "processing", "1s" }, { "tenants", 0 } }).message()
        == "tenants: must be a whole number from 1 to 1000000, got 0");

    // Over consumers, batches, processing tails and a Lambda trigger: the quiet tenants wait behind the burst as
    // written, and not with a group id per tenant.
    std::vector<json> sides { side(30, 1, 2), side(4, 10, 3), side(200, 1, 5),
        { { "processing", { { "p50", "2s" }, { "p99", "30s" } } }, { "consumers", 40 }, { "tenants", 2 },
            { "waitTimeSeconds", 20 } },
        { { "processing", "1s" }, { "tenants", 2 }, { "lambda", { { "timeout", "5s" }, { "batchSize", 10 } } } } };
    for (const json& consumerSide : sides) {
        INFO(consumerSide.dump());
        const CheckInput in = test::checkInputOf(withDlq({ { "VisibilityTimeout", "60" } }), consumerSide);
        const auto all = checkQueue(in);
        const auto f = std::find_if(all.begin(), all.end(), [&](const Finding& x) { return x.id == id; });
        REQUIRE(f != all.end());
        const RunSummary before = runOf(f->scenario, false);
        const RunSummary after = runOf(f->scenario, true);
        CHECK(problemShows(id, before, in));
        CHECK_FALSE(problemShows(id, after, in));
        CHECK(after.producers.at("tenant-2").longestWaitMs * 3 < before.producers.at("tenant-2").longestWaitMs);
        CHECK(after.sent == before.sent);
        CHECK(after.deleted == before.deleted); // nothing dropped or throttled: the same work, in another order
    }
}
