// SQS's own faults, injected and seeded (docs/faults.md): the plan's JSON and its errors, the dice, and what each
// fault does to a run: a duplicate's copy lane, a sampled short poll, a refused call with SQS's words.
#include "lifeline/endpoint/fault_plan_json.h"
#include "lifeline/engine/engine.h"
#include "lifeline/picture/picture_words.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/timeline/depth_series.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {

FaultPlan planOf(const std::string& text)
{
    auto plan = endpoint::parseFaultPlan(nlohmann::json::parse(text));
    if (!plan)
        FAIL(plan.error().message);
    return std::move(plan).value();
}

std::string problemOf(const std::string& text)
{
    auto plan = endpoint::parseFaultPlan(nlohmann::json::parse(text));
    return plan ? std::string("accepted") : plan.error().message;
}

SendMessageRequest sendTo(const std::string& queue, const std::string& body)
{
    SendMessageRequest request;
    request.queue = queue;
    request.body = body;
    if (queue.ends_with(".fifo")) {
        request.messageGroupId = "g";
        request.messageDeduplicationId = body;
    }
    return request;
}

ReceiveMessageRequest receiveFrom(const std::string& queue, int64_t max = 10, int64_t wait = 0)
{
    ReceiveMessageRequest request;
    request.queue = queue;
    request.maxNumberOfMessages = max;
    request.waitTimeSeconds = wait;
    return request;
}

std::vector<Cause> causesOf(const RunView& run)
{
    std::vector<Cause> out;
    for (size_t i = 0; i < run.log().size(); ++i)
        out.push_back(run.log()[i].cause);
    return out;
}

} // namespace

TEST_CASE("faults: a plan's JSON reads back as written - a bad one names its field", "[faults]")
{
    const FaultPlan plan = planOf(R"({"seed": 7, "faults": [{"kind": "duplicate", "rate": 0.25, "queue": "orders"},
        {"kind": "throttling", "at": ["10s", 12], "action": "SendMessage", "limit": 1}]})");
    CHECK(plan.seed == 7);
    REQUIRE(plan.rules.size() == 2);
    CHECK(plan.rules[0].kind == FaultKind::Duplicate);
    CHECK(plan.rules[0].rate == 0.25);
    CHECK(plan.rules[1].at == std::vector<TimeMs> { 10000, 12000 });
    CHECK(endpoint::faultPlanJson(plan).dump()
        == R"({"faults":[{"kind":"duplicate","queue":"orders","rate":0.25},)"
           R"({"action":"SendMessage","at":["10s","12s"],"kind":"throttling","limit":1}],"seed":7})");
    CHECK(problemOf("[]") == "accepted"); // the list alone
    CHECK(problemOf("3")
        == "the plan: an object such as {\"seed\": 7, \"faults\": [{\"kind\": \"duplicate\", \"rate\": 0.2}]}");
    CHECK(problemOf(R"({"faults": [{"kind": "duplicate", "rate": 1.5}]})") == "faults[0].rate: a number from 0 to 1");
    CHECK(problemOf(R"({"faults": [{"kind": "duplicate"}]})")
        == "faults[0]: a \"rate\" (a chance from 0 to 1 for each call) or \"at\" times, one of them");
    CHECK(problemOf(R"({"faults": [{"kind": "duplicate", "rate": 1, "at": ["1s"]}]})")
        == "faults[0]: a \"rate\" (a chance from 0 to 1 for each call) or \"at\" times, one of them");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "at": ["soon"]}]})")
        == "faults[0].at[0]: a time such as \"5s\" or a number of seconds");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "action": "Send"}]})")
        == "faults[0].action: an SQS action such as \"ReceiveMessage\" or \"SendMessage\"");
    CHECK(problemOf(R"({"faults": [{"kind": "shortPoll", "rate": 1, "action": "SendMessage"}]})")
        == "faults[0].action: a shortPoll fault happens on ReceiveMessage only");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "limit": 0}]})")
        == "faults[0].limit: a whole number from 1");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "when": 0}]})")
        == "faults[0].when: not a field of a fault (kind, rate, at, from, until, queue, action, limit, delay)");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "delay": "1s"}]})")
        == "faults[0].delay: only a latency fault has a delay");
    CHECK(problemOf(R"({"faults": [{"kind": "latency", "rate": 1, "delay": "3m"}]})")
        == "faults[0].delay: a time from 1ms to 120s, such as \"2s\"");
    CHECK(endpoint::faultPlanJson(planOf(R"([{"kind": "latency", "rate": 0.5, "delay": "1.5s"}])")).dump()
        == R"({"faults":[{"delay":"1.5s","kind":"latency","rate":0.5}],"seed":1})");
    CHECK(planOf(R"([{"kind": "latency", "rate": 1}])").rules[0].delay == 1000); // a second unless given
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "from": "later"}]})")
        == "faults[0].from: a time such as \"5s\" or a number of seconds");
    CHECK(problemOf(R"({"faults": [{"kind": "throttling", "rate": 1, "from": "5s", "until": "5s"}]})")
        == "faults[0].until: a time after \"from\"");
    const FaultPlan burst = planOf(R"([{"kind": "throttling", "rate": 1, "from": "14s", "until": 16}])");
    CHECK(burst.rules[0].from == 14000);
    CHECK(burst.rules[0].until == 16000);
    CHECK(endpoint::faultPlanJson(burst).dump()
        == R"({"faults":[{"from":"14s","kind":"throttling","rate":1.0,"until":"16s"}],"seed":1})");
    FaultDice dice(burst);
    CHECK_FALSE(dice.refusal("SendMessage", "q", 13999, false));
    CHECK(dice.refusal("SendMessage", "q", 14000, false) == FaultKind::Throttling);
    CHECK(dice.refusal("DeleteMessage", "q", 15999, false) == FaultKind::Throttling);
    CHECK_FALSE(dice.refusal("SendMessage", "q", 16000, false));
    CHECK(problemOf(R"({"seed": -1, "faults": []})") == "seed: a whole number from 0");
    CHECK(problemOf(R"({"faults": [], "seeds": 1})") == "seeds: not a field of a fault plan (seed, faults)");
}

TEST_CASE(
    "faults: the dice - the same seed and calls strike the same calls - an \"at\" time strikes one call", "[faults]")
{
    const auto draw = [](uint64_t seed) {
        FaultDice dice(FaultPlan { seed, { FaultRule { .kind = FaultKind::Duplicate, .rate = 0.3 } } });
        std::string hits;
        for (int call = 0; call < 64; ++call)
            hits += dice.strikes(FaultKind::Duplicate, "ReceiveMessage", "q", call) ? 'x' : '.';
        return hits;
    };
    CHECK(draw(7) == draw(7));
    CHECK(draw(7) != draw(8));
    const std::string hits = draw(7);
    const auto count = std::count(hits.begin(), hits.end(), 'x');
    CHECK(count > 8);
    CHECK(count < 32);
    // A rule for another action or queue never draws: the stream is the matching calls'.
    FaultDice only(FaultPlan { 1, { FaultRule { .kind = FaultKind::Duplicate, .rate = 1, .queue = "orders" } } });
    CHECK_FALSE(only.strikes(FaultKind::Duplicate, "ReceiveMessage", "other", 0));
    CHECK_FALSE(only.strikes(FaultKind::Duplicate, "SendMessage", "orders", 0));
    CHECK(only.strikes(FaultKind::Duplicate, "ReceiveMessage", "orders", 0));
    // "at": [5s, 5s, 9s], each the first matching call at or after it; a limit stops them.
    FaultDice timed(FaultPlan { 1, { FaultRule { .kind = FaultKind::Throttling, .at = { 5000, 5000, 9000 } } } });
    std::vector<TimeMs> struck;
    for (const TimeMs t : { 0, 4999, 5000, 5000, 5000, 6000, 9500, 9600 })
        if (timed.refusal("SendMessage", "q", t, false))
            struck.push_back(t);
    CHECK(struck == std::vector<TimeMs> { 5000, 5000, 9500 });
    CHECK(timed.struck()[size_t(FaultKind::Throttling)] == 3);
    FaultDice limited(FaultPlan { 1, { FaultRule { .kind = FaultKind::InternalError, .rate = 1, .limit = 2 } } });
    int refusals = 0;
    for (int call = 0; call < 5; ++call)
        refusals += limited.refusal("ListQueues", "", call, false) ? 1 : 0;
    CHECK(refusals == 2);
    // KMS's faults strike only an encrypted queue.
    FaultDice kms(FaultPlan { 1, { FaultRule { .kind = FaultKind::KmsDisabled, .rate = 1 } } });
    CHECK_FALSE(kms.refusal("SendMessage", "plain", 0, false));
    CHECK(kms.refusal("SendMessage", "secret", 0, true) == FaultKind::KmsDisabled);
}

TEST_CASE("faults: a duplicate is a standard queue's second copy - a lane of its own, the same MessageId and body, "
          "marked - never on a FIFO queue",
    "[faults]")
{
    Engine engine;
    REQUIRE(engine.createQueue("orders"));
    REQUIRE(engine.createQueue("orders.fifo", { { "FifoQueue", "true" } }));
    engine.setFaults(FaultPlan { 1, { FaultRule { .kind = FaultKind::Duplicate, .rate = 1 } } });
    REQUIRE(engine.sendMessage(sendTo("orders", "payment 1")));
    auto first = engine.receiveMessage(receiveFrom("orders", 1));
    REQUIRE(first);
    REQUIRE(first->messages.size() == 1);
    // The copy is visible at once: another receive gets the same message, in flight twice.
    auto second = engine.receiveMessage(receiveFrom("orders", 1));
    REQUIRE(second);
    REQUIRE(second->messages.size() == 1);
    const ReceivedMessage& a = first->messages[0];
    const ReceivedMessage& b = second->messages[0];
    CHECK(b.messageId == a.messageId);
    CHECK(b.body == "payment 1");
    CHECK(b.receiptHandle != a.receiptHandle);
    CHECK(b.lane != a.lane);
    CHECK(b.approximateReceiveCount == 2);
    CHECK(engine.run().firstLaneOf(b.lane) == a.lane);
    const EventLog& log = engine.log();
    size_t at = 0;
    while (at < log.size() && !(log[at].cause == Cause::InjectedCopy && log[at].message == b.lane))
        ++at;
    REQUIRE(at < log.size());
    const Event& born = log[at];
    CHECK(born.time == 0);
    CHECK(born.linkedLane() == a.lane);
    CHECK(picture::laneMarkAt(born) == picture::LaneMark::Copy);
    // Deleting one copy leaves the other in flight under its own handle.
    REQUIRE(engine.deleteMessage("orders", a.receiptHandle));
    CHECK(engine.counters("orders")->inFlight == 1); // b
    CHECK(engine.counters("orders")->visible == 1); // b's own copy: the rate is 1
    CHECK(engine.faults()->struck()[size_t(FaultKind::Duplicate)] == 2);
    // FIFO is exactly-once: no copy.
    REQUIRE(engine.sendMessage(sendTo("orders.fifo", "ordered")));
    REQUIRE(engine.receiveMessage(receiveFrom("orders.fifo", 1))->messages.size() == 1);
    CHECK(engine.counters("orders.fifo")->visible == 0);
    CHECK(engine.faults()->struck()[size_t(FaultKind::Duplicate)] == 2);
}

TEST_CASE("faults: a sampled short poll returns fewer than are visible - a long poll is not sampled", "[faults]")
{
    Engine engine;
    REQUIRE(engine.createQueue("orders"));
    engine.setFaults(FaultPlan { 3, { FaultRule { .kind = FaultKind::ShortPollSample, .rate = 1 } } });
    // An empty queue's short poll hides nothing: it is not sampled, and the dice are not thrown.
    REQUIRE(engine.receiveMessage(receiveFrom("orders", 10, 0))->messages.empty());
    CHECK(engine.faults()->struck()[size_t(FaultKind::ShortPollSample)] == 0);
    for (int n = 0; n < 6; ++n)
        REQUIRE(engine.sendMessage(sendTo("orders", "m" + std::to_string(n))));
    auto sampled = engine.receiveMessage(receiveFrom("orders", 10, 0));
    REQUIRE(sampled);
    CHECK(sampled->messages.size() < 6);
    const auto causes = causesOf(engine.run());
    CHECK(std::count(causes.begin(), causes.end(), Cause::FaultInjected) == 1);
    auto waited = engine.receiveMessage(receiveFrom("orders", 10, 5));
    REQUIRE(waited);
    CHECK(waited->messages.size() == 6 - sampled->messages.size());
    // One visible, sampled: the poll comes back empty while it waits (each sampled poll hides at least one).
    REQUIRE(engine.sendMessage(sendTo("orders", "last")));
    CHECK(engine.receiveMessage(receiveFrom("orders", 10, 0))->messages.empty());
    CHECK(engine.faults()->struck()[size_t(FaultKind::ShortPollSample)] == 2);
    CHECK(engine.counters("orders")->visible == 1);
}

TEST_CASE("faults: a refused call answers with SQS's error, logged as injected - nothing changes", "[faults]")
{
    Engine engine;
    REQUIRE(engine.createQueue("orders"));
    engine.setFaults(FaultPlan { 1,
        { FaultRule { .kind = FaultKind::ServiceUnavailable, .at = { 0 }, .action = "SendMessage" },
            FaultRule { .kind = FaultKind::Throttling, .at = { 0 }, .queue = "orders" } } });
    const auto refused = engine.injectedRefusal("SendMessage", "orders", kOperatorActor);
    REQUIRE(refused);
    CHECK(*refused
        == SqsError {
            "ServiceUnavailable", "The request has failed due to a temporary failure of the server.", 503, false });
    const auto throttled = engine.injectedRefusal("ReceiveMessage", "orders", kOperatorActor);
    REQUIRE(throttled);
    CHECK(throttled->code == "ThrottlingException");
    CHECK(throttled->httpStatus == 400);
    CHECK_FALSE(engine.injectedRefusal("SendMessage", "orders", kOperatorActor)); // each time strikes once
    const EventLog& log = engine.log();
    const Event& last = log[log.size() - 1];
    CHECK(last.cause == Cause::RequestRefused);
    CHECK(log.text(last.textIndex())
        == "ThrottlingException: The request was denied due to request throttling. (injected)");
    CHECK(engine.counters("orders")->visible == 0);
    engine.setFaults(std::nullopt);
    CHECK(engine.faults() == nullptr);
}

TEST_CASE("faults: a scenario's \"faults\" - lesson 36 charges cards twice, the same run for the same seed, its fix "
          "once - a bad block names its field",
    "[faults][simulation]")
{
    const teach::LessonEntry* lesson = teach::findLesson("at-least-once");
    REQUIRE(lesson);
    const auto run = [](const Scenario& scenario) {
        auto s = std::make_unique<Simulation>(scenario);
        s->runToEnd();
        return s;
    };
    const auto once = run(lesson->scenario);
    const auto again = run(lesson->scenario);
    CHECK(causesOf(once->engine().run()) == causesOf(again->engine().run()));
    const auto summary = once->summary();
    CHECK(summary.faultsByKind == std::map<std::string, int64_t> { { "duplicate", 4 } });
    CHECK(summary.duplicates == 4);
    // The charts count them too, each in the bucket it happened in (the window's activity chart draws these).
    DepthSeries series;
    series.sync(once->engine().run());
    int64_t charted = 0;
    for (const DepthSample& bucket : series.buckets())
        charted += bucket.faults;
    CHECK(charted == 4);
    CHECK(summary.deleted == 14); // ten payments and their four copies
    auto fixed = applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<Scenario>(fixed));
    const auto idempotent = run(std::get<Scenario>(fixed));
    CHECK(idempotent->summary().duplicates == 0);
    CHECK(idempotent->summary().faultsByKind.at("duplicate") > 0); // copies still come: they are skipped
    const auto bad = parseScenario(std::string(R"({"queues": [{"name": "q"}], "faults": [{"kind": "duplicate"}]})"));
    REQUIRE(std::holds_alternative<ScenarioError>(bad));
    CHECK(std::get<ScenarioError>(bad).text()
        == "faults[0]: a \"rate\" (a chance from 0 to 1 for each call) or \"at\" times, one of them");
    const auto typo = parseScenario(
        std::string(R"({"queues": [{"name": "q"}], "faults": [{"kind": "duplicate", "rate": 1, "queue": "p"}]})"));
    REQUIRE(std::holds_alternative<ScenarioError>(typo));
    CHECK(std::get<ScenarioError>(typo).text() == "faults[0].queue: names no queue of the scenario: 'p'");
    const auto late = parseScenario(
        std::string(R"({"queues": [{"name": "q"}], "faults": [{"kind": "latency", "rate": 1, "delay": "2s"}]})"));
    REQUIRE(std::holds_alternative<ScenarioError>(late));
    CHECK(std::get<ScenarioError>(late).text()
        == "faults[0].kind: a latency fault holds back answers to `lifeline serve`'s clients; a scenario's are "
           "answered at once");
}

namespace {

// One message sent at 0 s to a queue with a 10 s timeout, a consumer whose work takes 2 s, the plan's throttling and
// the consumer's retries as given; run for a minute.
std::unique_ptr<Simulation> throttledRun(const std::string& faults, const std::string& retries)
{
    const std::string text = R"({"seed": 5, "duration": "1m", "faults": )" + faults
        + R"(, "queues": [{"name": "jobs", "attributes": {"VisibilityTimeout": 10}}],
        "producers": [{"name": "app", "queue": "jobs", "messages": [{"at": "0s", "body": "job"}]}],
        "consumers": [{"name": "worker", "queue": "jobs", "processing": "2s")"
        + (retries.empty() ? std::string() : R"(, "retries": )" + retries) + "}]}";
    auto scenario = parseScenario(text);
    REQUIRE(std::holds_alternative<Scenario>(scenario));
    auto run = std::make_unique<Simulation>(std::get<Scenario>(std::move(scenario)));
    run->runToEnd();
    return run;
}

std::vector<TimeMs> timesOf(const RunView& run, Cause cause)
{
    std::vector<TimeMs> out;
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == cause)
            out.push_back(run.log()[i].time);
    return out;
}

} // namespace

TEST_CASE("faults: a consumer's own calls meet the plan - a refused delete is lost without retries, retried after "
          "its back-off with them",
    "[faults][simulation]")
{
    const std::string deleteThrottled = R"([{"kind": "throttling", "at": ["2s"], "action": "DeleteMessage"}])";
    // No retries: the delete at 2 s is refused (logged on the queue's row as SQS's error, injected) and lost, so the
    // job comes back when its 10 s run out and is worked on twice.
    const auto lost = throttledRun(deleteThrottled, "");
    const RunView& run = lost->engine().run();
    CHECK(timesOf(run, Cause::FaultInjected) == std::vector<TimeMs> { 2000 });
    CHECK(timesOf(run, Cause::VisibilityTimeout) == std::vector<TimeMs> { 10000 });
    CHECK(timesOf(run, Cause::Delete) == std::vector<TimeMs> { 12000 });
    const auto summary = lost->summary();
    CHECK(summary.duplicates == 1);
    CHECK(summary.errorsByCode == std::map<std::string, int64_t> { { "ThrottlingException", 1 } });
    bool worded = false;
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == Cause::RequestRefused)
            worded = run.log().text(run.log()[i].textIndex())
                == "ThrottlingException: The request was denied due to request throttling. (injected)";
    CHECK(worded);
    // Retried at once (no back-off): the second attempt is not struck and deletes at the same instant.
    const auto atOnce = throttledRun(deleteThrottled, R"({"attempts": 2, "backoff": "0s"})");
    CHECK(timesOf(atOnce->engine().run(), Cause::Delete) == std::vector<TimeMs> { 2000 });
    CHECK(atOnce->summary().duplicates == 0);
    // Deletes throttled for two seconds: retries at once all fall inside it and the job comes back; with a back-off of
    // up to 1 s, then 2 s, then 4 s (full jitter, drawn from the run's seed: 252 ms, 1,138 ms, 1,148 ms) the fourth
    // attempt gets through.
    const std::string burst
        = R"([{"kind": "throttling", "rate": 1, "from": "2s", "until": "4s", "action": "DeleteMessage"}])";
    const auto quick = throttledRun(burst, R"({"attempts": 4, "backoff": "0s"})");
    CHECK(timesOf(quick->engine().run(), Cause::FaultInjected) == std::vector<TimeMs> { 2000, 2000, 2000, 2000 });
    CHECK(quick->summary().duplicates == 1);
    const auto patient = throttledRun(burst, R"({"attempts": 4})");
    CHECK(timesOf(patient->engine().run(), Cause::FaultInjected) == std::vector<TimeMs> { 2000, 2252, 3390 });
    CHECK(timesOf(patient->engine().run(), Cause::Delete) == std::vector<TimeMs> { 4538 });
    CHECK(patient->summary().duplicates == 0);
    CHECK(causesOf(patient->engine().run()) == causesOf(throttledRun(burst, R"({"attempts": 4})")->engine().run()));
    // A refused receive is retried too; given up, the consumer polls again after its idle delay.
    const auto receives = throttledRun(R"([{"kind": "serviceUnavailable", "at": [0, 0], "action": "ReceiveMessage"}])",
        R"({"attempts": 2, "backoff": "0s"})");
    CHECK(timesOf(receives->engine().run(), Cause::FaultInjected) == std::vector<TimeMs> { 0, 0 });
    CHECK(receives->summary().errorsByCode == std::map<std::string, int64_t> { { "ServiceUnavailable", 2 } });
    CHECK(timesOf(receives->engine().run(), Cause::Receive) == std::vector<TimeMs> { 1000 });
    // Retries are read and checked with the scenario.
    const auto bad = parseScenario(std::string(R"({"queues": [{"name": "q"}],
        "consumers": [{"queue": "q", "retries": {"attempts": 11, "backof": "1s"}}]})"));
    REQUIRE(std::holds_alternative<ScenarioError>(bad));
    CHECK(std::get<ScenarioError>(bad).text().find("consumers[0].retries.backof") != std::string::npos);
}
