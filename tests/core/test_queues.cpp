#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

TEST_CASE("CreateQueue is idempotent with the same attributes - refused with different ones", "[queues]")
{
    Fixture f;
    CHECK(f.engine.createQueue("q", { { "DelaySeconds", "5" } }).value() == "q");
    CHECK(f.engine.createQueue("q", { { "DelaySeconds", "5" } }).value() == "q");
    auto r = f.engine.createQueue("q", { { "DelaySeconds", "6" } });
    CHECK(r.error()
        == makeError("QueueAlreadyExists",
            "A queue already exists with the same name and a different value for attribute DelaySeconds"));
    CHECK(f.engine.listQueues() == std::vector<std::string> { "q" });
}

TEST_CASE("queue names", "[queues]")
{
    Fixture f;
    const SqsError badName = makeError("InvalidParameterValue",
        "Can only include alphanumeric characters, hyphens, or underscores. 1 to 80 in length");
    CHECK(f.engine.createQueue("").error() == badName);
    CHECK(f.engine.createQueue("has space").error() == badName);
    CHECK(f.engine.createQueue(std::string(81, 'a')).error() == badName);
    CHECK(f.engine.createQueue(std::string(80, 'a')).ok());
    CHECK(f.engine.createQueue(std::string(75, 'b') + ".fifo", { { "FifoQueue", "true" } }).ok());
    CHECK(f.engine.createQueue(std::string(76, 'b') + ".fifo", { { "FifoQueue", "true" } }).error() == badName);
    CHECK(f.engine.createQueue("x.fifo").error().code == "InvalidParameterValue"); // suffix without FifoQueue
    CHECK(f.engine.createQueue("x", { { "FifoQueue", "true" } }).error().code == "InvalidParameterValue");
}

TEST_CASE("an unknown queue gives NonExistentQueue everywhere", "[queues]")
{
    Fixture f;
    const SqsError missing
        = makeError("AWS.SimpleQueueService.NonExistentQueue", "The specified queue does not exist.");
    CHECK(f.engine.getQueueAttributes("nope", { "All" }).error() == missing);
    CHECK(f.engine.setQueueAttributes("nope", {}).error() == missing);
    CHECK(f.engine.purgeQueue("nope").error() == missing);
    CHECK(f.engine.deleteQueue("nope").error() == missing);
    CHECK(f.sendError("nope", "x") == missing);
    ReceiveMessageRequest receive;
    receive.queue = "nope";
    CHECK(f.engine.receiveMessage(receive).error() == missing);
    CHECK(f.engine.deleteMessage("nope", "x").error() == missing);
    CHECK(f.engine.changeMessageVisibility("nope", "x", 1).error() == missing);
}

TEST_CASE("DeleteQueue: messages end - the name is blocked for 60 s", "[queues]")
{
    Fixture f;
    f.create("q");
    const auto sent = f.send("q", "a");
    REQUIRE(f.engine.deleteQueue("q").ok());
    CHECK(f.engine.message(sent.lane).state == MessageState::Purged);
    CHECK(f.engine.listQueues().empty());
    f.advanceSeconds(59.999);
    CHECK(f.engine.createQueue("q").error()
        == makeError("AWS.SimpleQueueService.QueueDeletedRecently",
            "You must wait 60 seconds after deleting a queue before you can create another with the same name."));
    f.advanceSeconds(0.001);
    CHECK(f.engine.createQueue("q").ok());
    CHECK(f.counters("q") == counts(0, 0, 0));
}

TEST_CASE("PurgeQueue deletes visible - in-flight and delayed messages - again within 60 s is refused", "[queues]")
{
    Fixture f;
    f.create("q");
    const auto visible = f.send("q", "v");
    const auto delayed = f.send("q", "d", 100);
    const auto inFlight = f.send("q", "i");
    REQUIRE(f.receive("q", 1).size() == 1); // takes "v" (the oldest visible)
    CHECK(f.counters("q") == counts(1, 1, 1));
    REQUIRE(f.engine.purgeQueue("q").ok());
    CHECK(f.counters("q") == counts(0, 0, 0));
    for (auto lane : { visible.lane, delayed.lane, inFlight.lane })
        CHECK(f.engine.message(lane).state == MessageState::Purged);
    f.advanceSeconds(59);
    const auto refused = f.engine.purgeQueue("q");
    CHECK(refused.error()
        == makeError("AWS.SimpleQueueService.PurgeQueueInProgress",
            "Only one PurgeQueue operation on q is allowed every 60 seconds.", 403));
    CHECK(refused.error().httpStatus == 403);
    f.advanceSeconds(1);
    CHECK(f.engine.purgeQueue("q").ok());
    // A message sent after a purge is kept.
    f.send("q", "after");
    CHECK(f.counters("q") == counts(1, 0, 0));
}

TEST_CASE("ListQueues by prefix and tags", "[queues]")
{
    Fixture f;
    f.create("orders");
    f.create("orders-dlq");
    f.create("payments");
    CHECK(f.engine.listQueues("ord") == std::vector<std::string> { "orders", "orders-dlq" });
    CHECK(f.engine.listQueues().size() == 3);
    REQUIRE(f.engine.tagQueue("orders", { { "team", "a" }, { "env", "dev" } }).ok());
    REQUIRE(f.engine.untagQueue("orders", { "env" }).ok());
    CHECK(f.engine.listQueueTags("orders").value() == std::map<std::string, std::string> { { "team", "a" } });
    // Tags and TagKeys are required: none is SQS's MissingParameter, and the tags stay as they were.
    const auto noTags = f.engine.tagQueue("orders", {});
    REQUIRE_FALSE(noTags.ok());
    CHECK(noTags.error().code == "MissingParameter");
    CHECK(noTags.error().message == "The request must contain the parameter Tags.");
    const auto noKeys = f.engine.untagQueue("orders", {});
    REQUIRE_FALSE(noKeys.ok());
    CHECK(noKeys.error().message == "The request must contain the parameter TagKeys.");
    CHECK(f.engine.listQueueTags("orders").value() == std::map<std::string, std::string> { { "team", "a" } });
    // More than 50 is "not recommended" by the API reference, not refused.
    std::map<std::string, std::string> many;
    for (int i = 0; i < 60; ++i)
        many["k" + std::to_string(i)] = "v";
    CHECK(f.engine.tagQueue("orders", many).ok());
    CHECK(f.engine.listQueueTags("orders").value().size() == 61);
}

TEST_CASE("queue events are logged", "[queues][log]")
{
    Fixture f;
    f.create("q");
    REQUIRE(f.engine.setQueueAttributes("q", { { "VisibilityTimeout", "5" } }).ok());
    const auto& log = f.engine.log();
    REQUIRE(log.size() == 2);
    CHECK(log[0].cause == Cause::QueueCreated);
    CHECK(log[1].cause == Cause::AttributesChanged);
    CHECK(log.text(log[1].detail) == "VisibilityTimeout=5");
}
