#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

TEST_CASE("DeleteMessage: current handle deletes - again is OK - garbage is ReceiptHandleIsInvalid", "[delete]")
{
    Fixture f;
    f.create("q");
    const auto sent = f.send("q", "a");
    const auto got = f.receive("q");
    REQUIRE(f.engine.deleteMessage("q", got[0].receiptHandle).ok());
    CHECK(f.engine.message(sent.lane).state == MessageState::Deleted);
    CHECK(f.engine.deleteMessage("q", got[0].receiptHandle).ok()); // idempotent (AWS-val)
    CHECK(f.engine.deleteMessage("q", "garbage").error()
        == makeError("ReceiptHandleIsInvalid", "The input receipt handle \"garbage\" is not a valid receipt handle."));
    std::string forged = got[0].receiptHandle;
    forged[10] = forged[10] == 'A' ? 'B' : 'A';
    CHECK(f.engine.deleteMessage("q", forged).error().code == "ReceiptHandleIsInvalid");
    CHECK(f.counters("q") == counts(0, 0, 0));
}

TEST_CASE("standard queue: a handle whose timeout expired still deletes (AWS-snap)", "[delete]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "1" } });
    f.send("q", "a");
    const auto got = f.receive("q");
    f.advanceSeconds(1.5);
    CHECK(f.counters("q") == counts(1, 0, 0));
    REQUIRE(f.engine.deleteMessage("q", got[0].receiptHandle).ok());
    CHECK(f.counters("q") == counts(0, 0, 0));
    CHECK(f.receive("q").empty());
}

TEST_CASE("standard queue: an old handle after a re-receive deletes by default - or not when configured", "[delete]")
{
    for (bool deletes : { true, false }) {
        EngineOptions options;
        options.staleHandleDeletes = deletes;
        Fixture f { Engine(options) };
        f.create("q", { { "VisibilityTimeout", "1" } });
        const auto sent = f.send("q", "a");
        const auto first = f.receive("q");
        f.advanceSeconds(1);
        REQUIRE(f.receive("q").size() == 1);
        CHECK(f.engine.deleteMessage("q", first[0].receiptHandle).ok());
        CHECK(f.engine.message(sent.lane).state == (deletes ? MessageState::Deleted : MessageState::InFlight));
    }
}

TEST_CASE("FIFO queue: an expired handle cannot delete - an extended one can (AWS-snap)", "[delete][fifo]")
{
    Fixture f;
    f.create(
        "q.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" }, { "VisibilityTimeout", "1" } });
    f.send("q.fifo", "a", {}, "g");
    auto got = f.receive("q.fifo");
    f.advanceSeconds(1.5);
    CHECK(f.engine.deleteMessage("q.fifo", got[0].receiptHandle).error()
        == makeError("InvalidParameterValue",
            "Value " + got[0].receiptHandle
                + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired."));
    got = f.receive("q.fifo");
    REQUIRE(f.engine.changeMessageVisibility("q.fifo", got[0].receiptHandle, 5).ok());
    f.advanceSeconds(1.5);
    CHECK(f.engine.deleteMessage("q.fifo", got[0].receiptHandle).ok());
    CHECK(f.counters("q.fifo") == counts(0, 0, 0));
}

TEST_CASE("ChangeMessageVisibility counts from the call - 0 ends it at once", "[visibility]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "10" } });
    const auto sent = f.send("q", "a");
    const auto got = f.receive("q");
    f.advanceSeconds(8);
    REQUIRE(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 5).ok());
    CHECK(f.engine.times(sent.lane).dueAt == 13000); // from the call, not added to the original
    f.advanceSeconds(4.999);
    CHECK(f.counters("q") == counts(0, 1, 0));
    f.advanceSeconds(0.001);
    CHECK(f.counters("q") == counts(1, 0, 0));
    const auto again = f.receive("q");
    REQUIRE(f.engine.changeMessageVisibility("q", again[0].receiptHandle, 0).ok());
    CHECK(f.counters("q") == counts(1, 0, 0));
    CHECK(f.receive("q").size() == 1); // exactly one receive gets it (AWS-val)
    CHECK(f.receive("q").empty());
}

TEST_CASE("the 12-hour cap counts from the receive and is not reset by extending", "[visibility]")
{
    Fixture f;
    f.create("q");
    f.send("q", "a");
    const auto got = f.receive("q");
    REQUIRE(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 43200).ok()); // right after: the full 12 h
    f.advanceSeconds(300);
    CHECK(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 43200).error()
        == makeError("InvalidParameterValue",
            "Value 43200 for parameter VisibilityTimeout is invalid. Reason: Total VisibilityTimeout for the message "
            "is beyond the limit [43200 seconds]"));
    CHECK(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 42900).ok());
    CHECK(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 42901).error().code == "InvalidParameterValue");
    CHECK(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 43201).error().message
        == "Value 43201 for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided.");
}

TEST_CASE("ChangeMessageVisibility on an expired handle is OK and does nothing - on a deleted message it fails",
    "[visibility]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "1" } });
    const auto sent = f.send("q", "a");
    const auto got = f.receive("q");
    f.advanceSeconds(2);
    REQUIRE(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 100).ok());
    CHECK(f.engine.message(sent.lane).state == MessageState::Visible);
    const auto again = f.receive("q");
    REQUIRE(f.engine.deleteMessage("q", again[0].receiptHandle).ok());
    CHECK(f.engine.changeMessageVisibility("q", again[0].receiptHandle, 5).error()
        == makeError("InvalidParameterValue",
            "Value " + again[0].receiptHandle
                + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for "
                  "visibility timeout change."));
    CHECK(f.engine.changeMessageVisibility("q", "garbage", 5).error().code == "ReceiptHandleIsInvalid");
}

TEST_CASE("an older handle still changes visibility on a standard queue (AWS-val)", "[visibility]")
{
    Fixture f;
    f.create("q");
    f.send("q", "a");
    ReceiveMessageRequest request;
    request.queue = "q";
    request.visibilityTimeout = 0;
    const auto first = f.engine.receiveMessage(request).value().messages;
    request.visibilityTimeout = 3;
    const auto second = f.engine.receiveMessage(request).value().messages;
    REQUIRE(first.size() == 1);
    REQUIRE(second.size() == 1);
    CHECK(f.counters("q") == counts(0, 1, 0));
    REQUIRE(f.engine.changeMessageVisibility("q", first[0].receiptHandle, 0).ok());
    CHECK(f.counters("q") == counts(1, 0, 0));
}

TEST_CASE("batch delete and batch visibility report per entry", "[delete][visibility][batch]")
{
    Fixture f;
    f.create("q");
    f.send("q", "a");
    f.send("q", "b");
    const auto got = f.receive("q", 2);
    REQUIRE(got.size() == 2);
    auto cmv = f.engine.changeMessageVisibilityBatch(
        "q", { { "x", got[0].receiptHandle, 100 }, { "y", "garbage", 5 }, { "z", got[1].receiptHandle, 43201 } });
    REQUIRE(cmv.ok());
    CHECK(cmv->successful.size() == 1);
    REQUIRE(cmv->failed.size() == 2);
    CHECK(cmv->failed[0].id == "y");
    CHECK(cmv->failed[0].code == "ReceiptHandleIsInvalid");
    CHECK(cmv->failed[1].id == "z");
    auto del = f.engine.deleteMessageBatch("q", { { "a", got[0].receiptHandle }, { "b", "nope" } });
    REQUIRE(del.ok());
    CHECK(del->successful.size() == 1);
    CHECK(del->failed.at(0).message == "The input receipt handle \"nope\" is not a valid receipt handle.");
    CHECK(f.engine.deleteMessageBatch("q", {}).error().code == "AWS.SimpleQueueService.EmptyBatchRequest");
    std::vector<DeleteMessageBatchEntry> eleven;
    for (int i = 0; i < 11; ++i)
        eleven.push_back({ "e" + std::to_string(i), got[1].receiptHandle });
    CHECK(f.engine.deleteMessageBatch("q", eleven).error().message
        == "Maximum number of entries per request are 10. You have sent 11.");
    CHECK(f.counters("q") == counts(0, 1, 0));
}

TEST_CASE("bodies of ended messages: released by default - kept when short with keepEndedBodies", "[delete]")
{
    Fixture released;
    released.create("q");
    const auto sent = released.send("q", "body");
    REQUIRE(released.engine.deleteMessage("q", released.receive("q").at(0).receiptHandle).ok());
    CHECK(released.engine.message(sent.lane).body.empty());

    EngineOptions options;
    options.keepEndedBodies = true;
    Fixture f { Engine(options) };
    f.create("q");
    const auto small = f.send("q", std::string(kKeptBodyBytes, 's'));
    const auto large = f.send("q", std::string(kKeptBodyBytes + 1, 'l'));
    for (const auto& m : f.receive("q", 2))
        REQUIRE(f.engine.deleteMessage("q", m.receiptHandle).ok());
    CHECK(f.engine.message(small.lane).body.size() == kKeptBodyBytes);
    CHECK(f.engine.message(large.lane).body.empty());
}

TEST_CASE("receipts without handle strings: delete and change visibility as their handles do", "[delete][visibility]")
{
    EngineOptions options;
    options.idStrings = false; // as a simulation runs the engine
    Fixture f { Engine(options) };
    f.create("q", { { "VisibilityTimeout", "10" } });
    f.create("other");
    const auto a = f.send("q", "a");
    const auto b = f.send("q", "b");
    const auto got = f.receive("q", 2);
    REQUIRE(got.size() == 2);
    CHECK(got[0].receiptHandle.empty());
    CHECK(got[0].receipt.lane == a.lane);
    CHECK(got[0].receipt.receiveCount == 1);
    // The string a client would have had parses back to the same receipt: the two paths are one.
    const std::string handle = f.engine.receiptHandle(got[0].receipt);
    CHECK(handle.starts_with("AQEB"));
    CHECK(handle.size() == 26);
    // Another queue's receipt: SQS's error, quoting the handle the receipt stands for.
    CHECK(f.engine.deleteMessage("other", got[0].receipt).error()
        == makeError(
            "ReceiptHandleIsInvalid", "The input receipt handle \"" + handle + "\" is not a valid receipt handle."));
    CHECK(f.engine.message(a.lane).state == MessageState::InFlight);
    // A receipt the engine never gave out (a receive that has not happened) is refused, not trusted.
    Receipt future = got[1].receipt;
    future.receiveCount = 2;
    CHECK(f.engine.deleteMessage("q", future).error().code == "ReceiptHandleIsInvalid");
    CHECK(f.engine.changeMessageVisibility("q", future, 5).error().code == "ReceiptHandleIsInvalid");
    CHECK(f.engine.message(b.lane).state == MessageState::InFlight);

    REQUIRE(f.engine.changeMessageVisibility("q", got[1].receipt, 0).ok());
    CHECK(f.engine.message(b.lane).state == MessageState::Visible);
    REQUIRE(f.engine.changeMessageVisibility("q", got[0].receipt, 30).ok());
    CHECK(f.engine.times(a.lane).dueAt == 30000);
    CHECK(f.engine.changeMessageVisibility("q", got[0].receipt, 43201).error()
        == makeError("InvalidParameterValue",
            "Value 43201 for parameter VisibilityTimeout is invalid. Reason: Must be >= 0 and <= 43200, if provided."));
    REQUIRE(f.engine.deleteMessage("q", got[0].receipt).ok());
    CHECK(f.engine.message(a.lane).state == MessageState::Deleted);
    CHECK(f.counters("q") == counts(1, 0, 0));
}

TEST_CASE("FIFO: an expired receipt is refused with the handle it stands for in the text", "[delete][fifo]")
{
    EngineOptions options;
    options.idStrings = false;
    Fixture f { Engine(options) };
    f.create(
        "q.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" }, { "VisibilityTimeout", "1" } });
    const auto sent = f.send("q.fifo", "a", {}, "g");
    const auto got = f.receive("q.fifo");
    REQUIRE(got.size() == 1);
    f.advanceSeconds(1.5);
    CHECK(f.engine.deleteMessage("q.fifo", got[0].receipt).error()
        == makeError("InvalidParameterValue",
            "Value " + f.engine.receiptHandle(got[0].receipt)
                + " for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired."));
    CHECK(f.engine.message(sent.lane).state == MessageState::Visible);
}
