// SQS's quotas, opt-in (EngineOptions::quotas): 120,000 messages in flight, a FIFO queue's 300 calls a second per
// action (70,000 in high-throughput mode). Off, nothing is limited.
#include "lifeline/engine/engine.h"
#include "lifeline/sim/simulation.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::scenario;
using namespace lifeline::sim;

namespace {

constexpr const char* kOverLimitText = "Too many messages have been received without being deleted.\nPlease delete "
                                       "your received messages or let them timeout before receiving more.";

SendMessageRequest sendTo(const std::string& queue, const std::string& body, std::optional<std::string> group = {})
{
    SendMessageRequest request;
    request.queue = queue;
    request.body = body;
    request.messageGroupId = std::move(group);
    if (queue.ends_with(".fifo"))
        request.messageDeduplicationId = body;
    return request;
}

ReceiveMessageRequest receiveFrom(const std::string& queue, int64_t max = 10, int64_t wait = 0)
{
    ReceiveMessageRequest request;
    request.queue = queue;
    request.maxNumberOfMessages = max;
    request.waitTimeSeconds = wait;
    request.visibilityTimeout = 43200; // nothing comes back during a test
    return request;
}

// Sends `count` messages in batches of ten (one call each), FIFO ones spread over groups of ten.
void sendInBatches(Engine& engine, const std::string& queue, int count)
{
    for (int i = 0; i < count; i += 10) {
        std::vector<SendMessageBatchEntry> entries;
        for (int k = i; k < std::min(count, i + 10); ++k) {
            SendMessageBatchEntry& e = entries.emplace_back();
            e.id = "m" + std::to_string(k);
            e.body = "m" + std::to_string(k);
            if (queue.ends_with(".fifo")) {
                e.messageGroupId = "g" + std::to_string(k / 10);
                e.messageDeduplicationId = e.body;
            }
        }
        const auto sent = engine.sendMessageBatch(queue, entries);
        REQUIRE(sent.ok());
        REQUIRE(sent->failed.empty());
    }
}

// Receives until `inFlight` messages are in flight, ten at a time.
void receiveUntilInFlight(Engine& engine, const std::string& queue, int64_t inFlight)
{
    while (engine.counters(queue)->inFlight < inFlight) {
        const auto got = engine.receiveMessage(
            receiveFrom(queue, std::min<int64_t>(10, inFlight - engine.counters(queue)->inFlight)));
        REQUIRE(got.ok());
        REQUIRE_FALSE(got->messages.empty());
    }
}

} // namespace

TEST_CASE(
    "quotas: a standard queue's short poll at 120,000 in flight answers OverLimit - room left is filled", "[quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    REQUIRE(engine.createQueue("jobs").ok());
    sendInBatches(engine, "jobs", 120020);
    receiveUntilInFlight(engine, "jobs", 119995);
    // Ten asked, five of room: five.
    auto got = engine.receiveMessage(receiveFrom("jobs"));
    REQUIRE(got.ok());
    CHECK(got->messages.size() == 5);
    CHECK(engine.counters("jobs")->inFlight == 120000);

    const auto refused = engine.receiveMessage(receiveFrom("jobs"));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "OverLimit");
    CHECK(refused.error().httpStatus == 403);
    CHECK(refused.error().message == kOverLimitText);
    CHECK(engine.counters("jobs")->inFlight == 120000);
    CHECK(engine.counters("jobs")->visible == 20);

    SECTION("a long poll waits and ends with nothing, no error")
    {
        const auto poll = engine.receiveMessage(receiveFrom("jobs", 10, 2));
        REQUIRE(poll.ok());
        CHECK(poll->pending);
        engine.advanceBy(2000);
        const auto done = engine.takeCompletedPolls();
        REQUIRE(done.size() == 1);
        CHECK(done[0].messages.empty());
        CHECK(engine.counters("jobs")->inFlight == 120000);
    }
    SECTION("a delete makes room for one")
    {
        REQUIRE(engine.deleteMessage("jobs", got->messages[0].receiptHandle).ok());
        got = engine.receiveMessage(receiveFrom("jobs"));
        REQUIRE(got.ok());
        CHECK(got->messages.size() == 1);
        CHECK(engine.counters("jobs")->inFlight == 120000);
    }
}

TEST_CASE("quotas: off by default - 120,000 in flight is no limit", "[quotas]")
{
    Engine engine;
    REQUIRE(engine.createQueue("jobs").ok());
    sendInBatches(engine, "jobs", 120010);
    receiveUntilInFlight(engine, "jobs", 120000);
    const auto got = engine.receiveMessage(receiveFrom("jobs"));
    REQUIRE(got.ok());
    CHECK(got->messages.size() == 10);
}

TEST_CASE("quotas: a FIFO queue at 120,000 in flight returns nothing, and no error", "[quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    // High-throughput mode: 12,000 batch sends and receives fit in its 70,000 calls a second.
    REQUIRE(engine
                .createQueue("jobs.fifo",
                    { { "FifoQueue", "true" }, { "DeduplicationScope", "messageGroup" },
                        { "FifoThroughputLimit", "perMessageGroupId" } })
                .ok());
    sendInBatches(engine, "jobs.fifo", 120010);
    receiveUntilInFlight(engine, "jobs.fifo", 120000);
    const auto got = engine.receiveMessage(receiveFrom("jobs.fifo"));
    REQUIRE(got.ok());
    CHECK(got->messages.empty());
    CHECK_FALSE(got->pending);
    CHECK(engine.counters("jobs.fifo")->visible == 10);
}

TEST_CASE(
    "quotas: a FIFO queue takes 300 SendMessage calls a second - the 301st is throttled and sends nothing", "[quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    REQUIRE(engine.createQueue("jobs.fifo", { { "FifoQueue", "true" } }).ok());
    for (int i = 0; i < 299; ++i)
        REQUIRE(engine.sendMessage(sendTo("jobs.fifo", "m" + std::to_string(i), "g")).ok());
    // A request refused for what it says is refused for that, and is not counted.
    CHECK(engine.sendMessage(sendTo("jobs.fifo", "no group")).error().code == "MissingParameter");
    // A batch of ten is one call: the 300th.
    std::vector<SendMessageBatchEntry> batch(10);
    for (size_t k = 0; k < batch.size(); ++k) {
        batch[k].id = "b" + std::to_string(k);
        batch[k].body = batch[k].id;
        batch[k].messageGroupId = "g";
        batch[k].messageDeduplicationId = batch[k].id;
    }
    REQUIRE(engine.sendMessageBatch("jobs.fifo", batch).ok());
    CHECK(engine.counters("jobs.fifo")->visible == 309);

    const auto throttled = engine.sendMessage(sendTo("jobs.fifo", "late", "g"));
    REQUIRE_FALSE(throttled.ok());
    CHECK(throttled.error().code == "ThrottlingException");
    CHECK(throttled.error().message == "The request was denied due to request throttling.");
    CHECK(throttled.error().httpStatus == 400);
    CHECK(engine.sendMessageBatch("jobs.fifo", batch).error().code == "ThrottlingException");
    CHECK(engine.counters("jobs.fifo")->visible == 309);

    // Receives and deletes have their own 300.
    const auto got = engine.receiveMessage(receiveFrom("jobs.fifo"));
    REQUIRE(got.ok());
    REQUIRE(got->messages.size() == 10);
    CHECK(engine.deleteMessage("jobs.fifo", got->messages[0].receiptHandle).ok());

    // The next second: sends again.
    engine.advanceBy(999);
    CHECK(engine.sendMessage(sendTo("jobs.fifo", "late", "g")).error().code == "ThrottlingException");
    engine.advanceBy(1);
    CHECK(engine.sendMessage(sendTo("jobs.fifo", "late", "g")).ok());
}

TEST_CASE(
    "quotas: a FIFO queue's ReceiveMessage and DeleteMessage are throttled at 300 calls a second each", "[quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    REQUIRE(engine.createQueue("jobs.fifo", { { "FifoQueue", "true" } }).ok());
    sendInBatches(engine, "jobs.fifo", 1000); // 100 calls: groups g0..g99 of ten
    engine.advanceBy(1000);
    std::vector<std::string> handles;
    for (int i = 0; i < 300; ++i) {
        const auto got = engine.receiveMessage(receiveFrom("jobs.fifo", 1));
        REQUIRE(got.ok());
        for (const auto& m : got->messages)
            handles.push_back(m.receiptHandle);
    }
    CHECK(handles.size() == 100); // one group in flight at a time each: a group's next waits for its delete
    CHECK(engine.receiveMessage(receiveFrom("jobs.fifo", 1)).error().code == "ThrottlingException");
    for (int i = 0; i < 100; ++i)
        REQUIRE(engine.deleteMessage("jobs.fifo", handles[size_t(i)]).ok());
    std::vector<DeleteMessageBatchEntry> none(1);
    none[0].id = "x";
    none[0].receiptHandle = handles[0];
    for (int i = 100; i < 300; ++i)
        REQUIRE(engine.deleteMessageBatch("jobs.fifo", none).ok());
    CHECK(engine.deleteMessage("jobs.fifo", handles[1]).error().code == "ThrottlingException");
    CHECK(engine.deleteMessageBatch("jobs.fifo", none).error().code == "ThrottlingException");
    CHECK(engine.counters("jobs.fifo")->inFlight == 0);
}

TEST_CASE("quotas: high-throughput mode takes 70,000 calls a second - a standard queue is never throttled", "[quotas]")
{
    Engine engine(EngineOptions { .quotas = true });
    REQUIRE(engine
                .createQueue("fast.fifo",
                    { { "FifoQueue", "true" }, { "DeduplicationScope", "messageGroup" },
                        { "FifoThroughputLimit", "perMessageGroupId" } })
                .ok());
    REQUIRE(engine.createQueue("jobs").ok());
    for (int i = 0; i < 70000; ++i)
        REQUIRE(engine.sendMessage(sendTo("fast.fifo", "m" + std::to_string(i), "g" + std::to_string(i % 100))).ok());
    CHECK(engine.sendMessage(sendTo("fast.fifo", "one-more", "g0")).error().code == "ThrottlingException");
    for (int i = 0; i < 1000; ++i)
        REQUIRE(engine.sendMessage(sendTo("jobs", "m" + std::to_string(i))).ok());

    SECTION("per queue alone, the default 300 again")
    {
        REQUIRE(engine.setQueueAttributes("fast.fifo", { { "FifoThroughputLimit", "perQueue" } }).ok());
        engine.advanceBy(1000);
        for (int i = 0; i < 300; ++i)
            REQUIRE(engine.sendMessage(sendTo("fast.fifo", "n" + std::to_string(i), "g")).ok());
        CHECK(engine.sendMessage(sendTo("fast.fifo", "one-more", "g")).error().code == "ThrottlingException");
    }
}

TEST_CASE("quotas: off, a FIFO queue takes any number of calls", "[quotas]")
{
    Engine engine;
    REQUIRE(engine.createQueue("jobs.fifo", { { "FifoQueue", "true" } }).ok());
    for (int i = 0; i < 1000; ++i)
        REQUIRE(engine.sendMessage(sendTo("jobs.fifo", "m" + std::to_string(i), "g")).ok());
    CHECK(engine.counters("jobs.fifo")->visible == 1000);
}

namespace {
struct QuotaRun {
    int64_t sent = 0;
    std::vector<std::string> refusals;
};

// Two seconds of a producer sending 400 messages a second to a FIFO queue.
QuotaRun fifoAt400PerSecond(const std::string& quotas)
{
    auto parsed = parseScenario(R"({"duration": "2s", )" + quotas + R"(
        "queues": [{"name": "orders.fifo", "type": "fifo"}],
        "producers": [{"queue": "orders.fifo", "rate": 400, "groups": 50}]})");
    if (const auto* error = std::get_if<ScenarioError>(&parsed))
        FAIL(error->text());
    Simulation s(std::get<Scenario>(std::move(parsed)));
    s.runToEnd();
    QuotaRun out;
    out.sent = s.summary().sent;
    const RunView& run = s.engine().run();
    for (size_t i = 0; i < run.log().size(); ++i)
        if (run.log()[i].cause == Cause::RequestRefused)
            out.refusals.push_back(run.log().text(run.log()[i].textIndex()));
    return out;
}
} // namespace

TEST_CASE("quotas: a scenario's \"quotas\" throttles a FIFO producer past 300 sends a second, on the timeline",
    "[quotas][simulation]")
{
    const QuotaRun limited = fifoAt400PerSecond(R"("quotas": true,)");
    // 300 in each of the two seconds, 100 refused in each; the send at 2 s opens a third second.
    CHECK(limited.sent == 601);
    REQUIRE(limited.refusals.size() == 200);
    CHECK(limited.refusals.front() == "ThrottlingException: The request was denied due to request throttling.");
    const QuotaRun unlimited = fifoAt400PerSecond("");
    CHECK(unlimited.sent == 801);
    CHECK(unlimited.refusals.empty());
    const auto refused = parseScenario(std::string(R"({"quotas": "yes", "queues": [{"name": "q"}]})"));
    REQUIRE(std::holds_alternative<ScenarioError>(refused));
    CHECK(std::get<ScenarioError>(refused).text() == "quotas: must be true or false, got \"yes\"");
}
