// The recording proxy's lanes: observed calls become the states SQS's rules imply, at the instants they imply, and
// what the proxy did not see is marked, not guessed.
#include "lifeline/analysis/summary.h"
#include "lifeline/observe/observer.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::observe;
using nlohmann::json;

namespace {

constexpr uint32_t kClient = 2;
constexpr uint32_t kWorker = 3;
const char* kUrl = "http://127.0.0.1:9324/000000000000/orders";
const char* kId1 = "0a1b2c3d-0000-4000-8000-000000000001";
const char* kId2 = "0a1b2c3d-0000-4000-8000-000000000002";

ObservedCall call(const std::string& action, json params, const json& answer, int status = 200)
{
    params["QueueUrl"] = kUrl;
    return readCall(action, params, status, answer);
}

std::vector<std::pair<TimeMs, Cause>> laneEvents(const RunView& engine, MessageIndex lane)
{
    std::vector<std::pair<TimeMs, Cause>> out;
    for (size_t i = 0; i < engine.log().size(); ++i)
        if (engine.log()[i].message == lane)
            out.emplace_back(engine.log()[i].time, engine.log()[i].cause);
    return out;
}

} // namespace

TEST_CASE("observer: a send - its receive - the timeout - a second receive and the delete", "[observe]")
{
    Observer observer(1'000'000);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "20" }, { "DelaySeconds", "5" } });
    observer.advanceTo(1000);
    observer.observe(call("SendMessage", { { "MessageBody", "hello" } }, { { "MessageId", kId1 } }), kClient);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 1);
    CHECK(engine.messageId(0) == kId1);
    CHECK(engine.message(0).state == MessageState::Delayed); // the queue's DelaySeconds

    observer.advanceTo(6000);
    CHECK(engine.message(0).state == MessageState::Visible);
    observer.pollStarted("orders", kWorker);
    observer.advanceTo(6500);
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages",
                json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "h1" }, { "Body", "hello" } } }) } }),
        kWorker);
    CHECK(engine.message(0).state == MessageState::InFlight);
    CHECK(engine.times(0).dueAt == 26500); // the queue's 20 s
    observer.advanceTo(26499);
    CHECK(engine.message(0).state == MessageState::InFlight);
    observer.advanceTo(30000);
    CHECK(engine.message(0).state == MessageState::Visible);

    observer.observe(call("ReceiveMessage", { { "VisibilityTimeout", "60" } },
                         { { "Messages",
                             json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "h2" }, { "Body", "hello" },
                                 { "Attributes", { { "ApproximateReceiveCount", "2" } } } } }) } }),
        kWorker);
    CHECK(engine.times(0).dueAt == 90000); // the receive's own VisibilityTimeout
    observer.advanceTo(31000);
    observer.observe(call("DeleteMessage", { { "ReceiptHandle", "h2" } }, json::object()), kWorker);
    CHECK(engine.message(0).state == MessageState::Deleted);
    observer.advanceTo(100000); // the old timeout passes: nothing happens to a deleted message
    CHECK(laneEvents(engine, 0)
        == std::vector<std::pair<TimeMs, Cause>> { { 1000, Cause::Send }, { 6000, Cause::DelayEnded },
            { 6500, Cause::Receive }, { 26500, Cause::VisibilityTimeout }, { 30000, Cause::Receive },
            { 31000, Cause::Delete } });
    // The worker's row: polling from 6000 to 6500, then the receives.
    std::vector<std::pair<TimeMs, Cause>> worker;
    for (size_t i = 0; i < engine.log().size(); ++i)
        if (engine.log()[i].actor == kWorker && engine.log()[i].message == kNoMessage)
            worker.emplace_back(engine.log()[i].time, engine.log()[i].cause);
    CHECK(worker
        == std::vector<std::pair<TimeMs, Cause>> {
            { 6000, Cause::PollStarted }, { 6500, Cause::PollEnded }, { 30000, Cause::PollEnded } });
    CHECK(engine.log()[engine.log().size() - 1].receiveNumber() == 2);
}

namespace {

// A receive of kId1 whose answer came `upstreamMs` after the request went upstream (the proxy's round trip).
ObservedCall receiveOfFirst(const std::string& handle, int count, int64_t upstreamMs)
{
    ObservedCall received = call("ReceiveMessage", json::object(),
        { { "Messages",
            json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", handle }, { "Body", "hello" },
                { "Attributes", { { "ApproximateReceiveCount", std::to_string(count) } } } } }) } });
    received.uncertainMs = upstreamMs;
    return received;
}

} // namespace

TEST_CASE("observer: a receive at the timeout's end by SQS's clock - within the first receive's time upstream - "
          "follows the timeout",
    "[observe]")
{
    for (const auto& [upstreamMs, secondAt, timeoutDrawn] :
        { std::tuple { int64_t(400), TimeMs(3700), true }, std::tuple { int64_t(400), TimeMs(3600), true },
            std::tuple { int64_t(400), TimeMs(3599), false }, std::tuple { int64_t(0), TimeMs(3999), false } }) {
        CAPTURE(upstreamMs, secondAt);
        Observer observer(1'000'000);
        observer.noteAttributes("orders", { { "VisibilityTimeout", "2" } });
        observer.advanceTo(1000);
        observer.observe(call("SendMessage", { { "MessageBody", "hello" } }, { { "MessageId", kId1 } }), kClient);
        observer.advanceTo(2000);
        observer.observe(receiveOfFirst("h1", 1, upstreamMs), kWorker); // SQS took it up to upstreamMs before
        const RunView& engine = observer.run();
        CHECK(engine.times(0).dueAt == 4000); // counted from the answer: the proxy's clock
        observer.advanceTo(secondAt);
        REQUIRE(engine.message(0).state == MessageState::InFlight);
        observer.observe(receiveOfFirst("h2", 2, 10), kWorker);
        CHECK(engine.message(0).state == MessageState::InFlight);
        CHECK(engine.message(0).receiveCount == 2);
        CHECK(engine.times(0).dueAt == secondAt + 2000);
        // Sooner than the first receive's time upstream allows, the lane shows what SQS answered and no timeout
        // (a ChangeMessageVisibility the proxy did not see, say).
        auto events = std::vector<std::pair<TimeMs, Cause>> { { 1000, Cause::Send }, { 2000, Cause::Receive } };
        if (timeoutDrawn)
            events.emplace_back(secondAt, Cause::VisibilityTimeout);
        events.emplace_back(secondAt, Cause::Receive);
        CHECK(laneEvents(engine, 0) == events);
        CHECK(observer.contradictions().empty());
    }
}

TEST_CASE("observer: a message first seen in a receive is not observed before it", "[observe]")
{
    Observer observer(1'000'000);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "30" } });
    observer.advanceTo(8000);
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages",
                json::array({ { { "MessageId", kId2 }, { "ReceiptHandle", "h9" }, { "Body", "old" },
                    { "Attributes", { { "SentTimestamp", "1003000" }, { "ApproximateReceiveCount", "3" } } } } }) } }),
        kWorker);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 1);
    CHECK(engine.times(0).sentAt == 3000); // from SentTimestamp: the hatched stretch starts here
    CHECK(engine.message(0).receiveCount == 3);
    CHECK(laneEvents(engine, 0)
        == std::vector<std::pair<TimeMs, Cause>> { { 8000, Cause::FirstSeen }, { 8000, Cause::Receive } });
    CHECK(engine.log()[engine.log().size() - 1].from == MessageState::Visible);

    // Without SentTimestamp the stretch starts at the proxy's start.
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages", json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "h8" }, { "Body", "x" } } }) } }),
        kWorker);
    CHECK(engine.times(1).sentAt == 0);
    // A handle the proxy never gave out draws nothing and is counted.
    observer.observe(call("DeleteMessage", { { "ReceiptHandle", "elsewhere" } }, json::object()), kWorker);
    CHECK(observer.unknownHandles() == 1);
}

TEST_CASE("observer: batches by entry id - visibility changes - purge - refusals", "[observe]")
{
    Observer observer(0);
    observer.noteAttributes("orders", {});
    observer.observe(
        call("SendMessageBatch",
            { { "Entries",
                json::array({ { { "Id", "a" }, { "MessageBody", "A" }, { "DelaySeconds", 10 } },
                    { { "Id", "b" }, { "MessageBody", "B" } }, { { "Id", "c" }, { "MessageBody", "C" } } }) } },
            { { "Successful",
                  json::array({ { { "Id", "b" }, { "MessageId", kId2 } }, { { "Id", "a" }, { "MessageId", kId1 } } }) },
                { "Failed", json::array({ { { "Id", "c" }, { "Code", "x" } } }) } }),
        kClient);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 2); // c failed: no lane
    CHECK(engine.messageId(0) == kId2);
    CHECK(engine.message(0).state == MessageState::Visible);
    CHECK(engine.message(1).state == MessageState::Delayed); // a: its own 10 s
    CHECK(engine.times(1).dueAt == 10000);

    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages", json::array({ { { "MessageId", kId2 }, { "ReceiptHandle", "hb" }, { "Body", "B" } } }) } }),
        kWorker);
    observer.advanceTo(2000);
    observer.observe(
        call("ChangeMessageVisibilityBatch",
            { { "Entries",
                json::array({ { { "Id", "x" }, { "ReceiptHandle", "hb" }, { "VisibilityTimeout", "0" } } }) } },
            { { "Successful", json::array({ { { "Id", "x" } } }) } }),
        kWorker);
    CHECK(engine.message(0).state == MessageState::Visible);
    CHECK(engine.log()[engine.log().size() - 1].cause == Cause::VisibilityChanged);

    observer.observe(call("PurgeQueue", json::object(), json::object()), kClient);
    CHECK(engine.message(0).state == MessageState::Purged);
    CHECK(engine.message(1).state == MessageState::Purged);
    CHECK(engine.queueInfo(*engine.queueIndex("orders")).counters.visible == 0);
    CHECK(engine.queueInfo(*engine.queueIndex("orders")).counters.delayed == 0);

    observer.observe(call("SendMessage", { { "MessageBody", "" } },
                         { { "__type", "com.amazonaws.sqs#InvalidParameterValue" },
                             { "message", "The request must contain the parameter MessageBody." } },
                         400),
        kClient);
    const Event& refused = engine.log()[engine.log().size() - 1];
    CHECK(refused.cause == Cause::RequestRefused);
    CHECK(engine.log().text(refused.textIndex())
        == "InvalidParameterValue: The request must contain the parameter MessageBody. (SendMessage)");
    CHECK(engine.messageCount() == 2);
    // Counted by its code, as the engine's refusals are (it was counted as "SendMessage").
    const auto errors = analysis::summarizeLog(engine).errorsByCode;
    CHECK(errors == std::map<std::string, int64_t> { { "InvalidParameterValue", 1 } });
}

TEST_CASE("observer: a message that shows up in another queue was moved there", "[observe]")
{
    Observer observer(0);
    observer.noteAttributes("orders", {});
    observer.observe(call("SendMessage", { { "MessageBody", "p" } }, { { "MessageId", kId1 } }), kClient);
    observer.advanceTo(5000);
    ObservedCall dlq = readCall("ReceiveMessage", { { "QueueUrl", "http://h/0/orders-dlq" } }, 200,
        { { "Messages", json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "hd" }, { "Body", "p" } } }) } });
    observer.observe(dlq, kWorker);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 2);
    CHECK(engine.message(0).state == MessageState::DeadLettered);
    CHECK(engine.queueInfo(engine.message(1).queue).name == "orders-dlq");
    CHECK(engine.firstLaneOf(1) == 0);
    CHECK(laneEvents(engine, 1)
        == std::vector<std::pair<TimeMs, Cause>> { { 5000, Cause::ArriveFromDlqSource }, { 5000, Cause::Receive } });
}

TEST_CASE("observer: retention ends a message - the queue's delay never applies to a message's own 0", "[observe]")
{
    Observer observer(0);
    observer.noteAttributes("orders", { { "MessageRetentionPeriod", "60" }, { "DelaySeconds", "30" } });
    observer.observe(
        call("SendMessage", { { "MessageBody", "p" }, { "DelaySeconds", "0" } }, { { "MessageId", kId1 } }), kClient);
    CHECK(observer.run().message(0).state == MessageState::Visible);
    observer.advanceTo(59999);
    CHECK(observer.run().message(0).state == MessageState::Visible);
    observer.advanceTo(60000);
    CHECK(observer.run().message(0).state == MessageState::Expired);
}

TEST_CASE("observer: query URLs name queues - a non-UUID MessageId keeps one lane", "[observe]")
{
    CHECK(queueNameFromUrl("https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo") == "orders.fifo");
    CHECK(queueNameFromUrl("http://localhost:4566/000000000000/q/") == "q");
    CHECK(queueNameFromUrl("orders") == "orders");
    Observer observer(0);
    observer.observe(call("SendMessage", { { "MessageBody", "p" } }, { { "MessageId", "not-a-uuid" } }), kClient);
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages",
                json::array({ { { "MessageId", "not-a-uuid" }, { "ReceiptHandle", "h" }, { "Body", "p" } } }) } }),
        kWorker);
    CHECK(observer.run().messageCount() == 1);
    CHECK(observer.run().message(0).state == MessageState::InFlight);
}

TEST_CASE("observer: the bodies it writes are counted in the engine's memory figure", "[observe]")
{
    Observer observer(0);
    const std::string body(100, 'o');
    observer.observe(call("SendMessage", { { "MessageBody", body } }, { { "MessageId", kId1 } }), kClient);
    CHECK(observer.run().bodyHeapBytes() == 100 + 16);
    // A message first seen in a receive brings its body with it.
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages",
                json::array({ { { "MessageId", kId2 }, { "ReceiptHandle", "h2" }, { "Body", body } } }) } }),
        kWorker);
    CHECK(observer.run().messageCount() == 2);
    CHECK(observer.run().bodyHeapBytes() == 2 * (100 + 16));
}

TEST_CASE(
    "observer: a receive answered before its send's answer - one message, one lane, whatever the order", "[observe]")
{
    // Long polling makes this an everyday race: the consumer's poll returns the message before the producer's
    // SendMessage answer reaches the proxy. 1,163 of 2,000 messages got a phantom second lane, visible until retention.
    Observer observer(0);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "30" } });
    observer.advanceTo(1000);
    observer.observe(
        call("ReceiveMessage", json::object(),
            { { "Messages", json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "h1" }, { "Body", "b" } } }) } }),
        kWorker);
    observer.observe(call("SendMessage", { { "MessageBody", "b" } }, { { "MessageId", kId1 } }), kClient);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 1);
    CHECK(engine.message(0).state == MessageState::InFlight);
    observer.advanceTo(2000);
    observer.observe(call("DeleteMessage", { { "ReceiptHandle", "h1" } }, json::object()), kWorker);
    CHECK(engine.message(0).state == MessageState::Deleted);
    CHECK(engine.queueInfo(0).counters.visible == 0);
}

TEST_CASE("observer: a receive answered before its send's answer is drawn as that client's send", "[observe]")
{
    // The proxy forwarded both sends; the consumer's long poll returns "b" and "c" before either answer comes back.
    // Counted as sent by the client that sent them (665 of 2,000 sends were missing from a proxied run's summary).
    Observer observer(0);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "30" } });
    observer.advanceTo(1000);
    const auto batch = observer.sendStarted("orders", kClient,
        requestedSends("SendMessageBatch",
            { { "Entries",
                json::array({ { { "Id", "1" }, { "MessageBody", "b" } }, { { "Id", "2" }, { "MessageBody", "c" } },
                    { { "Id", "3" }, { "MessageBody", "c" } } }) } }));
    const auto other
        = observer.sendStarted("invoices", kWorker, requestedSends("SendMessage", { { "MessageBody", "d" } }));
    observer.advanceTo(1200);
    observer.observe(call("ReceiveMessage", json::object(),
                         { { "Messages",
                             json::array({ { { "MessageId", kId1 }, { "ReceiptHandle", "h1" }, { "Body", "c" } },
                                 { { "MessageId", kId2 }, { "ReceiptHandle", "h2" }, { "Body", "d" } } }) } }),
        kWorker);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 2);
    CHECK(laneEvents(engine, 0)
        == std::vector<std::pair<TimeMs, Cause>> { { 1200, Cause::Send }, { 1200, Cause::Receive } });
    for (size_t i = 0; i < engine.log().size(); ++i)
        if (engine.log()[i].message == 0 && engine.log()[i].cause == Cause::Send)
            CHECK(engine.log()[i].actor == kClient);
    // "d" was sent to another queue: this one's receive first saw it.
    CHECK(laneEvents(engine, 1)
        == std::vector<std::pair<TimeMs, Cause>> { { 1200, Cause::FirstSeen }, { 1200, Cause::Receive } });

    observer.advanceTo(1300);
    observer.observe(
        call("SendMessageBatch",
            { { "Entries",
                json::array({ { { "Id", "1" }, { "MessageBody", "b" } }, { { "Id", "2" }, { "MessageBody", "c" } },
                    { { "Id", "3" }, { "MessageBody", "c" } } }) } },
            { { "Successful",
                json::array({ { { "Id", "1" }, { "MessageId", "0a1b2c3d-0000-4000-8000-000000000003" } },
                    { { "Id", "2" }, { "MessageId", kId1 } },
                    { { "Id", "3" }, { "MessageId", "0a1b2c3d-0000-4000-8000-000000000004" } } }) } }),
        kClient);
    observer.sendEnded(batch);
    observer.sendEnded(other);
    REQUIRE(engine.messageCount() == 4); // kId1 kept its lane: no second send drawn, no deduplication claimed
    CHECK(laneEvents(engine, 0).size() == 2);
    CHECK(laneEvents(engine, 2) == std::vector<std::pair<TimeMs, Cause>> { { 1300, Cause::Send } });
    CHECK(laneEvents(engine, 3) == std::vector<std::pair<TimeMs, Cause>> { { 1300, Cause::Send } });
    CHECK(analysis::summarizeLog(engine).sent == 3);

    // Once the answer came, a body that happens to repeat is not taken for that send any more.
    observer.advanceTo(1400);
    observer.observe(call("ReceiveMessage", json::object(),
                         { { "Messages",
                             json::array({ { { "MessageId", "0a1b2c3d-0000-4000-8000-000000000005" },
                                 { "ReceiptHandle", "h5" }, { "Body", "c" } } }) } }),
        kWorker);
    CHECK(laneEvents(engine, 4)
        == std::vector<std::pair<TimeMs, Cause>> { { 1400, Cause::FirstSeen }, { 1400, Cause::Receive } });
}

TEST_CASE("observer: a FIFO send that SQS deduplicated draws no second message", "[observe]")
{
    Observer observer(0);
    const auto fifoCall = [](const std::string& action, json params, const json& answer) {
        params["QueueUrl"] = "http://127.0.0.1:9324/000000000000/orders.fifo";
        return readCall(action, params, 200, answer);
    };
    const json send { { "MessageBody", "b" }, { "MessageGroupId", "g" }, { "MessageDeduplicationId", "d" } };
    observer.observe(fifoCall("SendMessage", send, { { "MessageId", kId1 } }), kClient);
    observer.advanceTo(1000);
    // The same deduplication id within five minutes: SQS answers the first message's id and keeps one message.
    observer.observe(fifoCall("SendMessage", send, { { "MessageId", kId1 } }), kClient);
    const RunView& engine = observer.run();
    REQUIRE(engine.messageCount() == 1);
    const Event& last = engine.log()[engine.log().size() - 1];
    CHECK(last.cause == Cause::NoEffect);
    CHECK(last.noEffect() == NoEffectKind::DeduplicatedSend);
    CHECK(last.message == 0);
    CHECK(engine.queueInfo(0).counters.visible == 1);
}

TEST_CASE("observer: a long poll answered after its queue was deleted does not bring the queue back", "[observe]")
{
    Observer observer(0);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "2" } });
    observer.observe(call("SendMessage", { { "MessageBody", "b" } }, { { "MessageId", kId1 } }), kClient);
    observer.advanceTo(1000);
    observer.observe(call("DeleteQueue", json::object(), json::object()), kClient);
    const RunView& engine = observer.run();
    REQUIRE(engine.queueCount() == 1);
    CHECK_FALSE(engine.queueInfo(0).alive);
    observer.advanceTo(1500);
    observer.pollStarted("orders", kWorker);
    observer.observe(call("ReceiveMessage", json::object(), { { "Messages", json::array() } }), kWorker);
    observer.noteAttributes("orders", { { "VisibilityTimeout", "2" } }); // the attribute poll's late answer
    observer.observe(
        call("GetQueueAttributes", json::object(), { { "Attributes", { { "VisibilityTimeout", "2" } } } }), kClient);
    CHECK(engine.queueCount() == 1); // no queue made up with SQS's defaults (VisibilityTimeout 30)
    CHECK_FALSE(engine.queueInfo(0).alive);
    CHECK(observer.queuesSeen().empty());
    // CreateQueue brings the name back, as a new queue.
    observer.observe(call("CreateQueue", { { "QueueName", "orders" } }, { { "QueueUrl", kUrl } }), kClient);
    CHECK(engine.queueCount() == 2);
    CHECK(engine.queueInfo(1).alive);
}
