#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {
Result<ReceiveOutcome> receiveRaw(Engine& engine, const std::string& queue, std::optional<int64_t> max,
    std::optional<int64_t> wait, std::optional<int64_t> visibility = {})
{
    ReceiveMessageRequest request;
    request.queue = queue;
    request.maxNumberOfMessages = max;
    request.waitTimeSeconds = wait;
    request.visibilityTimeout = visibility;
    request.actor = 7;
    return engine.receiveMessage(request);
}
} // namespace

TEST_CASE("ReceiveMessage parameter ranges with AWS's texts", "[receive]")
{
    Fixture f;
    f.create("q");
    CHECK(receiveRaw(f.engine, "q", 11, 0).error()
        == makeError("InvalidParameterValue",
            "Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided."));
    CHECK(receiveRaw(f.engine, "q", 0, 0).error().message.starts_with("Value 0 for parameter MaxNumberOfMessages"));
    CHECK(receiveRaw(f.engine, "q", 1, 21).error()
        == makeError("InvalidParameterValue",
            "Value 21 for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided."));
    CHECK(receiveRaw(f.engine, "q", 1, -1).error()
        == makeError("InvalidParameterValue",
            "Value -1 for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided."));
    CHECK(receiveRaw(f.engine, "q", 1, 0, 43201).error().code == "InvalidParameterValue");
    CHECK(f.engine.pendingPollCount() == 0);
}

TEST_CASE("receive returns up to MaxNumberOfMessages with system attributes", "[receive]")
{
    Fixture f;
    f.create("q");
    for (int i = 0; i < 12; ++i)
        f.send("q", "m" + std::to_string(i));
    f.advanceSeconds(1.5);
    auto got = f.receive("q", 10);
    CHECK(got.size() == 10);
    CHECK(f.counters("q") == counts(2, 10, 0));
    const auto attributes = got[0].systemAttributes({ "All" });
    const int64_t epoch = f.engine.options().epochMs;
    CHECK(attributes
        == AttributeMap { { "ApproximateFirstReceiveTimestamp", std::to_string(epoch + 1500) },
            { "ApproximateReceiveCount", "1" }, { "SenderId", f.engine.options().senderId },
            { "SentTimestamp", std::to_string(epoch) } });
    CHECK(got[0].systemAttributes({ "SentTimestamp", "SequenceNumber" }).size() == 1);
    CHECK(got[0].md5OfBody.hex() == "ced6bfe1f650f6b338594d37eb7850d2"); // md5("m0")
    CHECK(got[0].messageId.size() == 36);
}

TEST_CASE("every receive issues a new receipt handle", "[receive]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "1" } });
    f.send("q", "a");
    const auto first = f.receive("q");
    CHECK(f.receive("q").empty());
    f.advanceSeconds(1);
    const auto second = f.receive("q");
    REQUIRE(first.size() == 1);
    REQUIRE(second.size() == 1);
    CHECK(first[0].messageId == second[0].messageId);
    CHECK(first[0].receiptHandle != second[0].receiptHandle);
    CHECK(second[0].approximateReceiveCount == 2);
    CHECK(second[0].approximateFirstReceiveTimestamp == first[0].approximateFirstReceiveTimestamp);
}

TEST_CASE("a long poll completes as soon as any message is available - without filling Max", "[receive][longpoll]")
{
    Fixture f;
    f.create("q");
    auto pending = receiveRaw(f.engine, "q", 10, 20);
    REQUIRE(pending->pending);
    CHECK(f.engine.pendingPollCount() == 1);
    f.advanceSeconds(3);
    CHECK(f.engine.takeCompletedPolls().empty());
    f.send("q", "hello");
    const auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == pending->poll);
    CHECK(done[0].actor == 7);
    REQUIRE(done[0].messages.size() == 1);
    CHECK(done[0].messages[0].body == "hello");
    CHECK(f.engine.pendingPollCount() == 0);
}

TEST_CASE("a long poll wakes for a delay that ends - a visibility that ends - and a visibility set to 0",
    "[receive][longpoll]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "5" } });
    SECTION("delay ends")
    {
        f.send("q", "later", 4);
        REQUIRE(receiveRaw(f.engine, "q", 1, 20)->pending);
        f.advanceSeconds(3.999);
        CHECK(f.engine.takeCompletedPolls().empty());
        f.advanceSeconds(0.001);
        CHECK(f.engine.takeCompletedPolls().at(0).messages.at(0).body == "later");
    }
    SECTION("visibility ends")
    {
        f.send("q", "m");
        REQUIRE(f.receive("q").size() == 1);
        REQUIRE(receiveRaw(f.engine, "q", 1, 20)->pending);
        f.advanceSeconds(5);
        const auto done = f.engine.takeCompletedPolls();
        REQUIRE(done.size() == 1);
        CHECK(done[0].messages.at(0).approximateReceiveCount == 2);
    }
    SECTION("ChangeMessageVisibility to 1 s while a poll waits (moto, ElasticMQ #81)")
    {
        f.send("q", "m");
        const auto held = f.receive("q");
        REQUIRE(receiveRaw(f.engine, "q", 1, 2)->pending);
        REQUIRE(f.engine.changeMessageVisibility("q", held[0].receiptHandle, 1).ok());
        f.advanceSeconds(1);
        CHECK(f.engine.takeCompletedPolls().at(0).messages.size() == 1);
    }
}

TEST_CASE("a long poll with nothing to return ends empty when its wait is over", "[receive][longpoll]")
{
    Fixture f;
    f.create("q", { { "ReceiveMessageWaitTimeSeconds", "2" } });
    auto pending = receiveRaw(f.engine, "q", 1, std::nullopt); // the queue's wait time applies
    REQUIRE(pending->pending);
    f.advanceSeconds(1.999);
    CHECK(f.engine.takeCompletedPolls().empty());
    f.advanceSeconds(0.001);
    const auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].messages.empty());
    // The log has the poll's start and its empty end.
    size_t started = 0, emptyEnds = 0;
    for (size_t i = 0; i < f.engine.log().size(); ++i) {
        const auto& e = f.engine.log()[i];
        started += e.cause == Cause::PollStarted;
        emptyEnds += e.cause == Cause::PollEnded && e.detail == 0;
    }
    CHECK(started == 1);
    CHECK(emptyEnds == 1);
}

TEST_CASE("long polls are served oldest first - one message each when that is all there is", "[receive][longpoll]")
{
    Fixture f;
    f.create("q");
    const auto p1 = receiveRaw(f.engine, "q", 1, 20)->poll;
    const auto p2 = receiveRaw(f.engine, "q", 1, 20)->poll;
    f.send("q", "a");
    auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == p1);
    f.send("q", "b");
    done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == p2);
}

TEST_CASE("VisibilityTimeout on a receive applies to that receive only", "[receive][visibility]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "30" } });
    f.send("q", "a");
    REQUIRE(receiveRaw(f.engine, "q", 1, 0, 5)->messages.size() == 1);
    f.advanceSeconds(5);
    CHECK(f.counters("q") == counts(1, 0, 0));
    REQUIRE(f.receive("q").size() == 1); // queue default again: 30 s
    f.advanceSeconds(29.999);
    CHECK(f.counters("q") == counts(0, 1, 0));
    f.advanceSeconds(0.001);
    CHECK(f.counters("q") == counts(1, 0, 0));
}

TEST_CASE(
    "retention: a message nobody deletes expires - even in flight - judged by the current attribute", "[retention]")
{
    Fixture f;
    f.create("q", { { "MessageRetentionPeriod", "60" }, { "VisibilityTimeout", "120" } });
    const auto a = f.send("q", "a");
    f.advanceSeconds(10);
    const auto b = f.send("q", "b");
    const auto held = f.receive("q"); // "a" is in flight
    f.advanceSeconds(49.999);
    CHECK(f.engine.message(a.lane).state == MessageState::InFlight);
    f.advanceSeconds(0.001);
    CHECK(f.engine.message(a.lane).state == MessageState::Expired);
    CHECK(f.counters("q") == counts(1, 0, 0));
    CHECK(f.engine.deleteMessage("q", held[0].receiptHandle).ok()); // stale handle of an expired message: OK
    REQUIRE(f.engine.setQueueAttributes("q", { { "MessageRetentionPeriod", "300" } }).ok());
    f.advanceSeconds(100);
    CHECK(f.engine.message(b.lane).state == MessageState::Visible);
    REQUIRE(f.engine.setQueueAttributes("q", { { "MessageRetentionPeriod", "60" } }).ok());
    f.advanceSeconds(0);
    CHECK(f.engine.message(b.lane).state == MessageState::Expired); // lowered below its age: gone
    CHECK(f.counters("q") == counts(0, 0, 0));
}

TEST_CASE("retention: a message whose send compacts the retention list still expires", "[retention]")
{
    // The list is compacted when it holds more than twice the live messages and 4,096 more: 4,098 sent and deleted,
    // the next send compacts it. That send's own lane must stay in it, or its message would never expire.
    Fixture f;
    f.create("q", { { "MessageRetentionPeriod", "60" } });
    for (int i = 0; i < 4098; ++i)
        f.send("q", "old");
    for (auto got = f.receive("q", 10); !got.empty(); got = f.receive("q", 10))
        for (const auto& m : got)
            REQUIRE(f.engine.deleteMessage("q", m.receipt).ok());
    const auto last = f.send("q", "last");
    f.advanceSeconds(59.999);
    CHECK(f.engine.message(last.lane).state == MessageState::Visible);
    f.advanceSeconds(0.001);
    CHECK(f.engine.message(last.lane).state == MessageState::Expired);
    CHECK(f.counters("q") == counts(0, 0, 0));
}

TEST_CASE("retention: the next expiry is exact after the oldest message ends - the loop's bound only earlier",
    "[retention][clock]")
{
    Fixture f;
    f.create("q", { { "MessageRetentionPeriod", "60" } });
    f.send("q", "a");
    f.advanceSeconds(10);
    const auto b = f.send("q", "b");
    const auto got = f.receive("q");
    REQUIRE(f.engine.deleteMessage("q", got[0].receiptHandle).ok()); // "a" ends: "b" is the oldest now
    f.engine.advanceTo(40000); // past the deleted message's visibility timer, which stays due until then
    CHECK(f.engine.nextDueBound() == 60000); // still "a"'s expiry: earlier than anything due, never later
    f.engine.advanceTo(69999); // steps to 60 s and finds nothing to expire there
    CHECK(f.engine.message(b.lane).state == MessageState::Visible);
    CHECK(f.engine.nextDueTime() == 70000);
    CHECK(f.engine.nextDueBound() == 70000);
    f.engine.advanceTo(70000);
    CHECK(f.engine.message(b.lane).state == MessageState::Expired);
    CHECK(f.engine.log()[f.engine.log().size() - 1].time == 70000);
    CHECK(f.engine.nextDueTime() == INT64_MAX);
    // A new arrival brings the bound down with it: its expiry is not missed.
    const auto c = f.send("q", "c");
    CHECK(f.engine.nextDueBound() == 130000);
    f.engine.advanceTo(129999);
    CHECK(f.engine.message(c.lane).state == MessageState::Visible);
    f.engine.advanceTo(200000);
    CHECK(f.engine.message(c.lane).state == MessageState::Expired);
    CHECK(f.engine.log()[f.engine.log().size() - 1].time == 130000);
}

TEST_CASE("the clock fires transitions in time order and never goes backwards", "[clock]")
{
    Fixture f;
    f.create("q");
    f.send("q", "late", 20);
    f.send("q", "early", 10);
    f.advanceSeconds(30);
    CHECK(f.engine.now() == 30000);
    std::vector<TimeMs> times;
    for (size_t i = 0; i < f.engine.log().size(); ++i)
        if (f.engine.log()[i].cause == Cause::DelayEnded)
            times.push_back(f.engine.log()[i].time);
    CHECK(times == std::vector<TimeMs> { 10000, 20000 });
    f.engine.advanceTo(5000);
    CHECK(f.engine.now() == 30000);
    CHECK(f.engine.nextDueTime() == 345600000); // the retention of the first message
}

TEST_CASE("receive: an instant always ends - a thousand long polls on messages with a visibility of 0 s take one each",
    "[receive]")
{
    // What `serve` runs has no actors that step on their own: at one instant the engine fires timers (each once) and
    // answers parked polls (each once). The worst a client can ask: every message back at once, every poll waiting.
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "0" } });
    for (int i = 0; i < 1000; ++i) {
        ReceiveMessageRequest request;
        request.queue = "q";
        request.waitTimeSeconds = 20;
        auto r = f.engine.receiveMessage(request);
        REQUIRE(r.ok());
        REQUIRE(r->pending);
    }
    for (int i = 0; i < 10; ++i)
        f.send("q", "m" + std::to_string(i));
    f.engine.advanceTo(f.engine.now() + 1);
    const auto done = f.engine.takeCompletedPolls();
    CHECK(done.size() == 1000);
    size_t receives = 0;
    for (size_t i = 0; i < f.engine.log().size(); ++i)
        receives += f.engine.log()[i].cause == Cause::Receive;
    CHECK(receives == 1000);
    CHECK(f.engine.pendingPollCount() == 0);
    CHECK(f.engine.counters("q")->visible == 10); // each back at once, none lost
}
