#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

TEST_CASE("DLQ: the move happens on the receive after maxReceiveCount - not when the timeout ends", "[dlq]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "5" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 2) } }).ok());
    const auto sent = f.send("q", "poison");
    CHECK(f.receive("q").size() == 1); // receive #1
    f.advanceSeconds(5);
    CHECK(f.receive("q").size() == 1); // receive #2
    f.advanceSeconds(5);
    f.advanceSeconds(3600); // nobody receives: it stays in the source queue
    CHECK(f.engine.message(sent.lane).state == MessageState::Visible);
    CHECK(f.counters("q") == counts(1, 0, 0));
    CHECK(f.counters("dlq") == counts(0, 0, 0));
    CHECK(f.receive("q").empty()); // this receive moves it and returns nothing
    CHECK(f.engine.message(sent.lane).state == MessageState::DeadLettered);
    CHECK(f.counters("q") == counts(0, 0, 0));
    CHECK(f.counters("dlq") == counts(1, 0, 0));
    const auto fromDlq = f.receive("dlq");
    REQUIRE(fromDlq.size() == 1);
    CHECK(fromDlq[0].messageId == sent.messageId); // same MessageId
    CHECK(fromDlq[0].approximateReceiveCount == 3); // not reset
    CHECK(fromDlq[0].deadLetterQueueSourceArn == f.arn("q"));
    CHECK(f.engine.extra(fromDlq[0].lane)->origin == sent.lane); // the lane continues in the DLQ
}

TEST_CASE("DLQ with maxReceiveCount 1 and a zero visibility timeout (AWS-val)", "[dlq]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "0" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    SendMessageRequest request;
    request.queue = "q";
    request.body = "m";
    request.attributes = { { "a", { "String", "v", "" } } };
    const auto sent = f.engine.sendMessage(request).value();
    CHECK(f.receive("q").size() == 1);
    CHECK(f.receive("q").empty());
    const auto moved = f.receive("dlq");
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].messageId == sent.messageId);
    CHECK(moved[0].approximateReceiveCount == 2);
    CHECK(moved[0].attributes == request.attributes);
    CHECK(moved[0].sentTimestamp == f.engine.options().epochMs);
    const auto attributes = moved[0].systemAttributes({ "All" });
    CHECK(attributes.at("DeadLetterQueueSourceArn") == "arn:aws:sqs:us-east-1:000000000000:q");
}

TEST_CASE("DLQ move wakes a long poll on the DLQ - the source's poll keeps waiting", "[dlq][longpoll]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "1" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    f.send("q", "m");
    REQUIRE(f.receive("q").size() == 1);
    ReceiveMessageRequest request;
    request.queue = "dlq";
    request.waitTimeSeconds = 20;
    REQUIRE(f.engine.receiveMessage(request)->pending);
    request.queue = "q";
    REQUIRE(f.engine.receiveMessage(request)->pending);
    f.advanceSeconds(1); // visible again: the source poll's receive moves it instead of returning it
    const auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].messages.at(0).body == "m");
    CHECK(f.engine.pendingPollCount() == 1);
}

TEST_CASE("FIFO DLQ: moved after 3 receives - the group keeps working", "[dlq][fifo]")
{
    Fixture f;
    const AttributeMap fifo { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } };
    f.create("dlq.fifo", fifo);
    AttributeMap source = fifo;
    source["VisibilityTimeout"] = "0";
    f.create("q.fifo", source);
    REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "RedrivePolicy", f.redrivePolicy("dlq.fifo", 3) } }).ok());
    const auto sent = f.send("q.fifo", "poison", {}, "g");
    for (int i = 0; i < 3; ++i)
        CHECK(f.receive("q.fifo").size() == 1);
    f.send("q.fifo", "next", {}, "g");
    CHECK(f.bodies(f.receive("q.fifo")) == std::vector<std::string> { "next" });
    const auto moved = f.receive("dlq.fifo");
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].messageGroupId == "g");
    CHECK(moved[0].messageDeduplicationId == sent.messageId); // replaced with the message id (AWS-doc)
}

TEST_CASE("DLQ retention: standard keeps the original enqueue time - FIFO restarts it", "[dlq][retention]")
{
    for (bool fifo : { false, true }) {
        Fixture f;
        AttributeMap attrs { { "MessageRetentionPeriod", "600" } };
        if (fifo) {
            attrs["FifoQueue"] = "true";
            attrs["ContentBasedDeduplication"] = "true";
        }
        const std::string dlq = fifo ? "dlq.fifo" : "dlq";
        const std::string q = fifo ? "q.fifo" : "q";
        f.create(dlq, attrs);
        attrs["VisibilityTimeout"] = "0";
        f.create(q, attrs);
        REQUIRE(f.engine.setQueueAttributes(q, { { "RedrivePolicy", f.redrivePolicy(dlq, 1) } }).ok());
        f.send(q, "m", {}, fifo ? std::optional<std::string>("g") : std::nullopt);
        REQUIRE(f.receive(q).size() == 1);
        f.advanceSeconds(300);
        REQUIRE(f.receive(q).empty()); // moved at 300 s
        f.advanceSeconds(300); // 600 s after the send
        INFO(dlq);
        CHECK(f.counters(dlq).visible == (fifo ? 1 : 0));
        f.advanceSeconds(300);
        CHECK(f.counters(dlq).visible == 0);
    }
}

TEST_CASE("move task: back to the original source - as new messages", "[redrive]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "0" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    const auto a = f.send("q", "a");
    f.send("q", "b");
    REQUIRE(f.receive("q", 10).size() == 2);
    REQUIRE(f.receive("q", 10).empty());
    REQUIRE(f.counters("dlq") == counts(2, 0, 0));
    const auto handle = f.engine.startMessageMoveTask(f.arn("dlq"), std::nullopt, std::nullopt);
    REQUIRE(handle.ok());
    CHECK(f.counters("dlq") == counts(0, 0, 0));
    CHECK(f.counters("q") == counts(2, 0, 0));
    const auto tasks = f.engine.listMessageMoveTasks(f.arn("dlq")).value();
    REQUIRE(tasks.size() == 1);
    CHECK(tasks[0].status == "COMPLETED");
    CHECK(tasks[0].approximateNumberOfMessagesMoved == 2);
    CHECK(tasks[0].approximateNumberOfMessagesToMove == 2);
    CHECK(tasks[0].taskHandle.empty());
    CHECK(tasks[0].destinationArn.empty());
    const auto back = f.receive("q", 10);
    REQUIRE(back.size() == 2);
    CHECK(back[0].body == "a");
    CHECK(back[0].messageId != a.messageId); // a new message
    CHECK(back[0].approximateReceiveCount == 1); // its count starts again (floci #900)
}

TEST_CASE("move task: rate limit - listing while running - cancel", "[redrive]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "0" } });
    f.create("elsewhere");
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    for (int i = 0; i < 10; ++i)
        f.send("q", "m" + std::to_string(i));
    REQUIRE(f.receive("q", 10).size() == 10);
    REQUIRE(f.receive("q", 10).empty());
    const auto handle = f.engine.startMessageMoveTask(f.arn("dlq"), f.arn("elsewhere"), 1).value();
    CHECK(f.engine.startMessageMoveTask(f.arn("dlq"), std::nullopt, std::nullopt).error()
        == makeError("InvalidParameterValue",
            "There is already a task running. Only one active task is allowed for a source queue arn at a given "
            "time."));
    f.advanceSeconds(1);
    auto tasks = f.engine.listMessageMoveTasks(f.arn("dlq")).value();
    CHECK(tasks.at(0).status == "RUNNING");
    CHECK(tasks.at(0).approximateNumberOfMessagesMoved == 2);
    CHECK(tasks.at(0).taskHandle == handle);
    CHECK(tasks.at(0).maxNumberOfMessagesPerSecond == 1);
    CHECK(f.engine.cancelMessageMoveTask(handle).value() == 2);
    f.advanceSeconds(10);
    tasks = f.engine.listMessageMoveTasks(f.arn("dlq")).value();
    CHECK(tasks.at(0).status == "CANCELLED");
    CHECK(f.counters("elsewhere") == counts(2, 0, 0));
    CHECK(f.counters("dlq") == counts(8, 0, 0));
}

TEST_CASE("move task errors with AWS's texts", "[redrive]")
{
    Fixture f;
    f.create("plain");
    f.create("dlq");
    f.create("q");
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    CHECK(f.engine.startMessageMoveTask(f.arn("plain"), std::nullopt, std::nullopt).error()
        == makeError("InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue."));
    const auto missing = f.engine.startMessageMoveTask(
        f.arn("dlq"), std::string("arn:aws:sqs:us-east-1:000000000000:gone"), std::nullopt);
    CHECK(missing.error()
        == makeError("ResourceNotFoundException",
            "The resource that you specified for the DestinationArn parameter doesn't exist.", 404));
    // A destination of the other type: AWS requires the same (its text is not recorded; Lifeline's names the rule).
    f.create("other.fifo", { { "FifoQueue", "true" } });
    CHECK(f.engine.startMessageMoveTask(f.arn("dlq"), f.arn("other.fifo"), std::nullopt).error()
        == makeError("InvalidParameterValue",
            "Value arn:aws:sqs:us-east-1:000000000000:other.fifo for parameter DestinationArn is invalid. Reason: The "
            "destination queue must be the same type as the source queue."));
    CHECK(f.engine.listMessageMoveTasks(f.arn("dlq")).value().empty()); // nothing started
    CHECK(f.engine.cancelMessageMoveTask("not-a-handle").error()
        == makeError("InvalidParameterValue", "Value for parameter TaskHandle is invalid."));
    // {"taskId":"x","sourceArn":"arn:aws:sqs:us-east-1:000000000000:dlq"}
    const std::string unknownTask
        = "eyJ0YXNrSWQiOiJ4Iiwic291cmNlQXJuIjoiYXJuOmF3czpzcXM6dXMtZWFzdC0xOjAwMDAwMDAwMDAwMDpkbHEifQ==";
    CHECK(f.engine.cancelMessageMoveTask(unknownTask).error()
        == makeError("ResourceNotFoundException", "Task does not exist.", 404));
}

TEST_CASE("move task fails when its destination is deleted while running", "[redrive]")
{
    Fixture f;
    f.create("dlq");
    f.create("q", { { "VisibilityTimeout", "0" } });
    f.create("dest");
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    for (int i = 0; i < 5; ++i)
        f.send("q", "m");
    REQUIRE(f.receive("q", 10).size() == 5);
    REQUIRE(f.receive("q", 10).empty());
    REQUIRE(f.engine.startMessageMoveTask(f.arn("dlq"), f.arn("dest"), 1).ok());
    f.advanceSeconds(2);
    REQUIRE(f.engine.deleteQueue("dest").ok());
    f.advanceSeconds(5);
    const auto tasks = f.engine.listMessageMoveTasks(f.arn("dlq")).value();
    CHECK(tasks.at(0).status == "FAILED");
    CHECK(tasks.at(0).failureReason == "AWS.SimpleQueueService.NonExistentQueue");
    CHECK(tasks.at(0).approximateNumberOfMessagesMoved == 3);
}

TEST_CASE("DLQ: a queue named as its own dead-letter queue is refused and changes nothing", "[dlq]")
{
    Fixture f;
    f.create("orders.fifo", { { "FifoQueue", "true" } });
    f.create("q", { { "VisibilityTimeout", "0" } });
    for (const std::string name : { "orders.fifo", "q" }) {
        const std::string policy = f.redrivePolicy(name, 3);
        const auto refused = f.engine.setQueueAttributes(name, { { "RedrivePolicy", policy } });
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.error().code == "InvalidParameterValue");
        CHECK(refused.error().message
            == "Value " + policy
                + " for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own dead-letter queue.");
        const auto attributes = f.engine.getQueueAttributes(name, { "All" }).value();
        CHECK(attributes.count("RedrivePolicy") == 0);
    }
    // The message keeps being delivered, one lane, whatever the receive count.
    const auto sent = f.send("q", "poison");
    for (int i = 0; i < 5; ++i)
        CHECK(f.receive("q").size() == 1);
    CHECK(f.engine.messageCount() == 1);
    CHECK(f.engine.message(sent.lane).receiveCount == 5);
}

TEST_CASE("DLQ: one of the other type is refused with AWS's text", "[dlq]")
{
    Fixture f;
    f.create("orders.fifo", { { "FifoQueue", "true" } });
    f.create("dlq");
    const std::string policy = f.redrivePolicy("dlq", 3);
    const auto refused = f.engine.setQueueAttributes("orders.fifo", { { "RedrivePolicy", policy } });
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == "InvalidParameterValue");
    CHECK(refused.error().message
        == "Value " + policy
            + " for parameter RedrivePolicy is invalid. Reason: Dead-letter queue must be same type of queue as the "
              "source.");
}
