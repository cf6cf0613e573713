#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {
const AttributeMap kFifo { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } };
}

TEST_CASE("FIFO: a receive returns as many of one group as it can - in order - then other groups", "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    f.send("q.fifo", "g1-m1", {}, "g1");
    f.send("q.fifo", "g2-m1", {}, "g2");
    f.send("q.fifo", "g1-m2", {}, "g1");
    f.send("q.fifo", "g1-m3", {}, "g1");
    CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string> { "g1-m1", "g1-m2", "g1-m3", "g2-m1" });
}

TEST_CASE("FIFO: a group in flight blocks later messages of that group - other groups go on", "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    for (const char* body : { "g1-a", "g1-b", "g1-c", "g1-d" })
        f.send("q.fifo", body, {}, "g1");
    f.send("q.fifo", "g2-a", {}, "g2");
    f.send("q.fifo", "g3-a", {}, "g3");
    const auto first = f.receive("q.fifo", 2);
    CHECK(f.bodies(first) == std::vector<std::string> { "g1-a", "g1-b" });
    // Blocked-group messages still count as visible (AWS-val).
    CHECK(f.counters("q.fifo") == counts(4, 2, 0));
    CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string> { "g2-a", "g3-a" });
    // A send into the busy group does not unblock it.
    f.send("q.fifo", "g1-e", {}, "g1");
    CHECK(f.receive("q.fifo", 10).empty());
    // Deleting one of the two in flight leaves the group blocked.
    REQUIRE(f.engine.deleteMessage("q.fifo", first[0].receiptHandle).ok());
    CHECK(f.receive("q.fifo", 10).empty());
    // Deleting the other unblocks it at once.
    REQUIRE(f.engine.deleteMessage("q.fifo", first[1].receiptHandle).ok());
    CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string> { "g1-c", "g1-d", "g1-e" });
}

TEST_CASE("FIFO: a group is served up to its first message that is still invisible (AWS-snap - 3 positions)", "[fifo]")
{
    for (int extended = 0; extended < 3; ++extended) {
        Fixture f;
        f.create("q.fifo", kFifo);
        for (const char* body : { "foo", "bar", "baz" })
            f.send("q.fifo", body, {}, "g");
        ReceiveMessageRequest request;
        request.queue = "q.fifo";
        request.maxNumberOfMessages = 3;
        request.visibilityTimeout = 1;
        const auto got = f.engine.receiveMessage(request).value().messages;
        REQUIRE(got.size() == 3);
        REQUIRE(f.engine.changeMessageVisibility("q.fifo", got[size_t(extended)].receiptHandle, 4).ok());
        f.advanceSeconds(2.5);
        const std::vector<std::string> all { "foo", "bar", "baz" };
        INFO("extended position " << extended);
        CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string>(all.begin(), all.begin() + extended));
    }
}

TEST_CASE("FIFO: ending the head's visibility serves the head and stops at the next in flight (AWS-val)", "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    f.send("q.fifo", "g1-m1", {}, "g1");
    f.send("q.fifo", "g1-m2", {}, "g1");
    f.send("q.fifo", "g2-m1", {}, "g2");
    const auto got = f.receive("q.fifo", 2);
    REQUIRE(f.bodies(got) == std::vector<std::string> { "g1-m1", "g1-m2" });
    REQUIRE(f.engine.changeMessageVisibility("q.fifo", got[0].receiptHandle, 0).ok());
    auto again = f.bodies(f.receive("q.fifo", 3));
    std::sort(again.begin(), again.end());
    CHECK(again == std::vector<std::string> { "g1-m1", "g2-m1" });
}

TEST_CASE("FIFO: an emptied group takes new messages", "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    f.send("q.fifo", "a", {}, "g");
    const auto got = f.receive("q.fifo");
    REQUIRE(f.engine.deleteMessage("q.fifo", got[0].receiptHandle).ok());
    f.send("q.fifo", "b", {}, "g");
    CHECK(f.bodies(f.receive("q.fifo")) == std::vector<std::string> { "b" });
}

TEST_CASE("FIFO send rules: group id required - dedup id or content-based required", "[fifo][send]")
{
    Fixture f;
    f.create("plain.fifo", { { "FifoQueue", "true" } });
    CHECK(f.sendError("plain.fifo", "x")
        == makeError("MissingParameter", "The request must contain the parameter MessageGroupId."));
    CHECK(f.sendError("plain.fifo", "x", {}, "g")
        == makeError("InvalidParameterValue",
            "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided "
            "explicitly"));
    CHECK(f.sendError("plain.fifo", "x", {}, "g", std::string("has space"))
        == makeError("InvalidParameterValue",
            "Value has space for parameter MessageDeduplicationId is invalid. Reason: MessageDeduplicationId can only "
            "include alphanumeric and punctuation characters. 1 to 128 in length."));
    const auto a = f.send("plain.fifo", "x", {}, "g", std::string("d1"));
    const auto b = f.send("plain.fifo", "y", {}, "g", std::string("d2"));
    CHECK(a.sequenceNumber.size() == 20);
    CHECK(b.sequenceNumber > a.sequenceNumber);
    // In a batch, a missing group id fails the whole request with InvalidParameterValue (AWS-snap).
    auto batch = f.engine.sendMessageBatch("plain.fifo",
        { { "a", "x", {}, {}, std::string("g"), std::string("d3"), {} },
            { "b", "y", {}, {}, {}, std::string("d4"), {} } });
    CHECK(
        batch.error() == makeError("InvalidParameterValue", "The request must contain the parameter MessageGroupId."));
    batch = f.engine.sendMessageBatch("plain.fifo", { { "a", "x", {}, {}, std::string("g"), {}, {} } });
    CHECK(batch.error().message
        == "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided "
           "explicitly");
    CHECK(f.counters("plain.fifo") == counts(2, 0, 0));
}

TEST_CASE("FIFO deduplication: 5-minute window - survives delete - purge clears it", "[fifo][dedup]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    const auto first = f.send("q.fifo", "same", {}, "g");
    const auto duplicate = f.send("q.fifo", "same", {}, "g");
    CHECK(duplicate.deduplicated);
    CHECK(duplicate.messageId == first.messageId);
    CHECK(f.counters("q.fifo") == counts(1, 0, 0));
    const auto got = f.receive("q.fifo");
    REQUIRE(f.engine.deleteMessage("q.fifo", got[0].receiptHandle).ok());
    f.advanceSeconds(60);
    CHECK(f.send("q.fifo", "same", {}, "g").deduplicated); // still remembered after delete (AWS-snap)
    CHECK(f.counters("q.fifo") == counts(0, 0, 0));
    f.advanceSeconds(239.999);
    CHECK(f.send("q.fifo", "same", {}, "g").deduplicated);
    f.advanceSeconds(0.001); // 5 minutes after the first send
    CHECK_FALSE(f.send("q.fifo", "same", {}, "g").deduplicated);
    CHECK(f.counters("q.fifo") == counts(1, 0, 0));
    REQUIRE(f.engine.purgeQueue("q.fifo").ok());
    CHECK_FALSE(f.send("q.fifo", "same", {}, "g").deduplicated); // purge clears the cache (AWS-val)
}

TEST_CASE("FIFO deduplication scope: queue-wide by default - per group with messageGroup - fixed at creation",
    "[fifo][dedup]")
{
    Fixture f;
    f.create("q.fifo", { { "FifoQueue", "true" } });
    f.create("g.fifo", { { "FifoQueue", "true" }, { "DeduplicationScope", "messageGroup" } });
    f.send("q.fifo", "a", {}, "g1", std::string("id"));
    CHECK(f.send("q.fifo", "b", {}, "g2", std::string("id")).deduplicated);
    f.send("g.fifo", "a", {}, "g1", std::string("id"));
    CHECK_FALSE(f.send("g.fifo", "b", {}, "g2", std::string("id")).deduplicated);
    CHECK(f.send("g.fifo", "c", {}, "g2", std::string("id")).deduplicated);
    // Changing the scope later has no effect (AWS-snap).
    REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "DeduplicationScope", "messageGroup" } }).ok());
    CHECK(f.send("q.fifo", "c", {}, "g3", std::string("id")).deduplicated);
}

TEST_CASE("content-based deduplication hashes the body only - an explicit id equal to an earlier hash is a duplicate",
    "[fifo][dedup]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    SendMessageRequest request;
    request.queue = "q.fifo";
    request.body = "abc";
    request.messageGroupId = "g";
    request.attributes = { { "k", { "String", "1", "" } } };
    REQUIRE_FALSE(f.engine.sendMessage(request)->deduplicated);
    request.attributes = { { "k", { "String", "2", "" } } };
    CHECK(f.engine.sendMessage(request)->deduplicated);
    CHECK(f.send("q.fifo", "other", {}, "g",
               std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
              .deduplicated);
}

TEST_CASE("FIFO receive attributes", "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    const auto sent = f.send("q.fifo", "abc", {}, "g");
    const auto got = f.receive("q.fifo");
    const auto attributes = got.at(0).systemAttributes({ "All" });
    CHECK(attributes.at("MessageGroupId") == "g");
    CHECK(
        attributes.at("MessageDeduplicationId") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(attributes.at("SequenceNumber") == sent.sequenceNumber);
    CHECK(attributes.size() == 7);
}

TEST_CASE("FIFO: a receive retried with its ReceiveRequestAttemptId within 5 minutes gets the same messages and "
          "handles - until one changes",
    "[fifo]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    for (const char* body : { "a", "b", "c" })
        f.send("q.fifo", body, {}, "g1");
    ReceiveMessageRequest request;
    request.queue = "q.fifo";
    request.maxNumberOfMessages = 2;
    request.waitTimeSeconds = 0;
    request.visibilityTimeout = 30;
    request.receiveRequestAttemptId = "attempt-1";
    const auto first = f.engine.receiveMessage(request).value().messages;
    REQUIRE(f.bodies(first) == std::vector<std::string> { "a", "b" });
    // 20 s on, the answer lost: the same id gets the same two, the same handles, the same receive count, and their
    // visibility timeouts start again (30 s from now).
    f.engine.advanceTo(20000);
    const auto retried = f.engine.receiveMessage(request).value().messages;
    REQUIRE(retried.size() == 2);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(retried[i].messageId == first[i].messageId);
        CHECK(retried[i].receiptHandle == first[i].receiptHandle);
        CHECK(retried[i].approximateReceiveCount == 1);
        CHECK(f.engine.times(first[i].lane).dueAt == 50000);
    }
    // Another id is a new receive: the group is in flight, so nothing.
    request.receiveRequestAttemptId = "attempt-2";
    CHECK(f.engine.receiveMessage(request).value().messages.empty());
    // Once one of them is changed (deleted), the id no longer replays: a new receive, which gets nothing yet.
    request.receiveRequestAttemptId = "attempt-1";
    REQUIRE(f.engine.deleteMessage("q.fifo", first[0].receiptHandle).ok());
    CHECK(f.engine.receiveMessage(request).value().messages.empty());
    // After their timeout: "b" comes back (receive 2) with "c", and the id now names that answer.
    f.engine.advanceTo(50000);
    const auto again = f.engine.receiveMessage(request).value().messages;
    CHECK(f.bodies(again) == std::vector<std::string> { "b", "c" });
    CHECK(again[0].approximateReceiveCount == 2);
    CHECK(f.engine.receiveMessage(request).value().messages[0].receiptHandle == again[0].receiptHandle);
    // More than 5 minutes after it, the id is a new receive: their timeouts have ended, so they are received again.
    f.engine.advanceTo(50000 + 5 * 60000);
    const auto late = f.engine.receiveMessage(request).value().messages;
    REQUIRE(late.size() == 2);
    CHECK(late[0].approximateReceiveCount == 3);
    CHECK(late[0].receiptHandle != again[0].receiptHandle);
}
