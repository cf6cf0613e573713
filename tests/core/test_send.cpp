#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

TEST_CASE("a delay queue holds every new message for DelaySeconds", "[send][delay]")
{
    Fixture f;
    f.create("q", { { "DelaySeconds", "10" } });
    const auto sent = f.send("q", "a");
    CHECK(f.counters("q") == counts(0, 0, 1)); // delayed counts only as delayed
    CHECK(f.receive("q").empty());
    f.advanceSeconds(9.999);
    CHECK(f.engine.message(sent.lane).state == MessageState::Delayed);
    f.advanceSeconds(0.001);
    CHECK(f.engine.message(sent.lane).state == MessageState::Visible);
    CHECK(f.counters("q") == counts(1, 0, 0));
    CHECK(f.bodies(f.receive("q")) == std::vector<std::string> { "a" });
}

TEST_CASE("a message timer overrides the queue delay on a standard queue - 0 means no delay", "[send][delay]")
{
    Fixture f;
    f.create("q", { { "DelaySeconds", "10" } });
    const auto longer = f.send("q", "long", 20);
    const auto none = f.send("q", "none", 0);
    const auto queueDelay = f.send("q", "queue");
    CHECK(f.engine.message(none.lane).state == MessageState::Visible);
    CHECK(f.engine.times(longer.lane).dueAt == 20000);
    CHECK(f.engine.times(queueDelay.lane).dueAt == 10000);
    CHECK(f.counters("q") == counts(1, 0, 2));
}

TEST_CASE("message timers: limits and FIFO refusal with AWS's exact text", "[send][delay][fifo]")
{
    Fixture f;
    f.create("q");
    f.create("f.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" }, { "DelaySeconds", "3" } });
    CHECK(f.sendError("q", "x", 901)
        == makeError("InvalidParameterValue",
            "Value 901 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900."));
    CHECK(f.sendError("q", "x", -1).code == "InvalidParameterValue");
    CHECK(f.send("q", "x", 900).lane != kNoMessage);
    CHECK(f.sendError("f.fifo", "x", 2, "g")
        == makeError("InvalidParameterValue",
            "Value 2 for parameter DelaySeconds is invalid. Reason: The request include parameter that is not valid "
            "for this queue type."));
    // DelaySeconds=0 is accepted on FIFO and the queue's delay still applies (AWS-snap).
    const auto zero = f.send("f.fifo", "y", 0, "g");
    CHECK(f.engine.message(zero.lane).state == MessageState::Delayed);
    CHECK(f.engine.times(zero.lane).dueAt == 3000);
    CHECK(f.counters("f.fifo") == counts(0, 0, 1));
}

TEST_CASE("a refused send is logged where it happened and changes nothing", "[send][log]")
{
    Fixture f;
    f.create("f.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } });
    const size_t before = f.engine.log().size();
    f.sendError("f.fifo", "x", 5, "g");
    CHECK(f.engine.messageCount() == 0);
    REQUIRE(f.engine.log().size() == before + 1);
    const Event& e = f.engine.log()[before];
    CHECK(e.cause == Cause::RequestRefused);
    CHECK(f.engine.log().text(e.detail)
        == "InvalidParameterValue: Value 5 for parameter DelaySeconds is invalid. Reason: The request include "
           "parameter that is not valid for this queue type.");
}

TEST_CASE("standard vs FIFO: changing the queue delay", "[send][delay][fifo]")
{
    SECTION("standard: only new messages")
    {
        Fixture f;
        f.create("q", { { "DelaySeconds", "60" } });
        const auto waiting = f.send("q", "old");
        f.advanceSeconds(10);
        REQUIRE(f.engine.setQueueAttributes("q", { { "DelaySeconds", "0" } }).ok());
        CHECK(f.engine.message(waiting.lane).state == MessageState::Delayed);
        const auto fresh = f.send("q", "new");
        CHECK(f.engine.message(fresh.lane).state == MessageState::Visible);
        f.advanceSeconds(50);
        CHECK(f.engine.message(waiting.lane).state == MessageState::Visible);
    }
    SECTION("FIFO: messages already waiting too")
    {
        Fixture f;
        f.create(
            "q.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" }, { "DelaySeconds", "60" } });
        const auto a = f.send("q.fifo", "a", {}, "g");
        f.advanceSeconds(10);
        const auto b = f.send("q.fifo", "b", {}, "g");
        REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "DelaySeconds", "30" } }).ok());
        CHECK(f.engine.times(a.lane).dueAt == 30000); // 30 s from its send
        CHECK(f.engine.times(b.lane).dueAt == 40000);
        REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "DelaySeconds", "5" } }).ok());
        CHECK(f.engine.message(a.lane).state == MessageState::Visible); // 5 s after its send is already past
        CHECK(f.engine.message(b.lane).state == MessageState::Delayed);
        CHECK(f.engine.times(b.lane).dueAt == 15000);
        CHECK(f.counters("q.fifo") == counts(1, 0, 1));
    }
}

TEST_CASE("body rules: empty - characters - size against MaximumMessageSize", "[send]")
{
    Fixture f;
    f.create("q");
    CHECK(f.sendError("q", "") == makeError("MissingParameter", "The request must contain the parameter MessageBody."));
    CHECK(f.sendError("q", std::string("a\x01", 2)).code == "InvalidMessageContents");
    CHECK(f.sendError("q", std::string(1048577, 'a'))
        == makeError("InvalidParameterValue",
            "One or more parameters are invalid. Reason: Message must be shorter than 1048576 bytes."));
    CHECK(f.send("q", std::string(1048576, 'a')).lane != kNoMessage);
    REQUIRE(f.engine.setQueueAttributes("q", { { "MaximumMessageSize", "1024" } }).ok());
    CHECK(f.sendError("q", std::string(1025, 'a'))
        == makeError("InvalidParameterValue",
            "One or more parameters are invalid. Reason: Message must be shorter than 1024 bytes."));
    // Attributes count against the limit too: 1000 + "k" + "String" + 20 = 1027 bytes.
    SendMessageRequest request;
    request.queue = "q";
    request.body = std::string(1000, 'a');
    request.attributes = { { "k", { "String", std::string(20, 'v'), "" } } };
    CHECK(f.engine.sendMessage(request).error().message.ends_with("shorter than 1024 bytes."));
}

TEST_CASE("message attributes: digests - empty values and limits", "[send]")
{
    Fixture f;
    f.create("q");
    SendMessageRequest request;
    request.queue = "q";
    request.body = "msg";
    request.attributes = { { "Foo", { "String", "Bar", "" } } };
    const auto sent = f.engine.sendMessage(request).value();
    CHECK(sent.md5OfMessageBody.hex() == "6e2baaf3b97dbeef01c0043275f9a0e7");
    CHECK(sent.md5OfMessageAttributes == "ae7155c6026991b6d54b11589678bf9c");
    CHECK(sent.sequenceNumber.empty()); // standard queues have no SequenceNumber
    const auto received = f.receive("q");
    REQUIRE(received.size() == 1);
    CHECK(received[0].md5OfMessageAttributes == "ae7155c6026991b6d54b11589678bf9c");
    CHECK(received[0].attributes == request.attributes);

    request.attributes = { { "ErrorDetails", { "String", "", "" } } };
    CHECK(f.engine.sendMessage(request).error()
        == makeError("InvalidParameterValue",
            "Message (user) attribute 'ErrorDetails' must contain a non-empty value of type 'String'."));
    request.attributes.clear();
    for (int i = 0; i < 11; ++i)
        request.attributes.push_back({ "a" + std::to_string(i), { "Number", "1", "" } });
    CHECK(f.engine.sendMessage(request).error().message
        == "Number of message attributes [11] exceeds the allowed maximum [10].");
    request.attributes = { { "b", { "Date", "1", "" } } };
    CHECK(f.engine.sendMessage(request).error().code == "InvalidParameterValue");
    CHECK(f.counters("q") == counts(0, 1, 0));
}

TEST_CASE("MessageGroupId on a standard queue (fair queues) and id formats", "[send]")
{
    Fixture f;
    f.create("q");
    const auto sent = f.send("q", "x", {}, std::string("tenant-1"));
    CHECK(sent.sequenceNumber.empty());
    const auto received = f.receive("q");
    CHECK(received.at(0).systemAttributes({ "All" }).at("MessageGroupId") == "tenant-1");
    CHECK(f.sendError("q", "x", {}, std::string(""))
        == makeError("InvalidParameterValue",
            "Value  for parameter MessageGroupId is invalid. Reason: MessageGroupId can only include alphanumeric and "
            "punctuation characters. 1 to 128 in length."));
    CHECK(f.sendError("q", "x", {}, std::string("group 123")).message.starts_with("Value group 123 for parameter"));
    CHECK(f.sendError("q", "x", {}, std::string(129, 'a')).code == "InvalidParameterValue");
}

TEST_CASE("SendMessageBatch: shape errors fail the request - entry errors fail the entry", "[send][batch]")
{
    Fixture f;
    f.create("q");
    CHECK(f.engine.sendMessageBatch("q", {}).error().code == "AWS.SimpleQueueService.EmptyBatchRequest");
    std::vector<SendMessageBatchEntry> twenty(20);
    for (size_t i = 0; i < twenty.size(); ++i)
        twenty[i] = { "e" + std::to_string(i), "body", {}, {}, {}, {}, {} };
    CHECK(f.engine.sendMessageBatch("q", twenty).error()
        == makeError("AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
            "Maximum number of entries per request are 10. You have sent 20."));
    CHECK(f.engine.sendMessageBatch("q", { { "bad.id", "b", {}, {}, {}, {}, {} } }).error()
        == makeError("AWS.SimpleQueueService.InvalidBatchEntryId",
            "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most "
            "80 letters long."));
    CHECK(f.engine.sendMessageBatch("q", { { "a", "b", {}, {}, {}, {}, {} }, { "a", "c", {}, {}, {}, {}, {} } })
              .error()
              .code
        == "AWS.SimpleQueueService.BatchEntryIdsNotDistinct");
    const std::string half(524288, 'x');
    CHECK(f.engine.sendMessageBatch("q", { { "a", half, {}, {}, {}, {}, {} }, { "b", half + "y", {}, {}, {}, {}, {} } })
              .error()
        == makeError("AWS.SimpleQueueService.BatchRequestTooLong",
            "Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes."));
    CHECK(f.engine.messageCount() == 0);

    auto r = f.engine.sendMessageBatch("q",
        { { "ok1", "one", {}, {}, {}, {}, {} }, { "late", "two", 1800, {}, {}, {}, {} },
            { "ok2", "three", 5, {}, {}, {}, {} } });
    REQUIRE(r.ok());
    REQUIRE(r->successful.size() == 2);
    CHECK(r->successful[0].first == "ok1");
    CHECK(r->successful[1].first == "ok2");
    REQUIRE(r->failed.size() == 1);
    CHECK(r->failed[0].id == "late");
    CHECK(r->failed[0].code == "InvalidParameterValue");
    CHECK(r->failed[0].message
        == "Value 1800 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900.");
    CHECK(r->failed[0].senderFault);
    CHECK(f.counters("q") == counts(1, 0, 1));
}

TEST_CASE(
    "send without an answer: the lane SendMessage would give - a refusal logged the same - nothing enqueued", "[send]")
{
    Fixture quiet;
    Fixture answered;
    for (Fixture* f : { &quiet, &answered }) {
        f->create("q", { { "DelaySeconds", "5" } });
        f->create("f.fifo", { { "FifoQueue", "true" } });
    }
    const std::vector<SendMessageRequest> requests { Fixture::sendRequest("q", "a", {}, {}, {}),
        Fixture::sendRequest("q", "b", 0, {}, {}), Fixture::sendRequest("missing", "c", {}, {}, {}),
        Fixture::sendRequest("q", "", {}, {}, {}), Fixture::sendRequest("f.fifo", "d", {}, "g", "d1"),
        Fixture::sendRequest("f.fifo", "d again", {}, "g", "d1"), Fixture::sendRequest("f.fifo", "e", {}, "g", {}) };
    std::vector<MessageIndex> lanes;
    for (const auto& request : requests) {
        lanes.push_back(quiet.engine.send(request));
        const auto result = answered.engine.sendMessage(request);
        CHECK(lanes.back() == (result ? result->lane : kNoMessage));
    }
    // The deduplicated retry answers with the first lane, as SendMessage's answer names the first message.
    CHECK(lanes == std::vector<MessageIndex> { 0, 1, kNoMessage, kNoMessage, 2, 2, kNoMessage });
    CHECK(quiet.engine.messageCount() == 3);
    CHECK(quiet.engine.message(0).state == MessageState::Delayed);
    CHECK(quiet.engine.message(1).state == MessageState::Visible);
    const auto& a = quiet.engine.log();
    const auto& b = answered.engine.log();
    REQUIRE(a.size() == b.size());
    size_t refused = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        CHECK(a[i].cause == b[i].cause);
        CHECK(a[i].message == b[i].message);
        CHECK(a[i].detail == b[i].detail);
        if (a[i].cause == Cause::RequestRefused) {
            CHECK(a.text(a[i].textIndex()) == b.text(b[i].textIndex()));
            ++refused;
        }
    }
    CHECK(refused == 3);
}
