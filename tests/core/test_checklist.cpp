// The behaviour checklist of sqs-semantics.md section 3, replayed on the engine in virtual time.
// Each case is named after its number there; cases 29-30 and 36 are covered in test_fifo / test_dlq_redrive / below.
#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {
const AttributeMap kFifo { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } };

Result<ReceiveOutcome> poll(
    Engine& engine, const std::string& queue, int64_t wait, int64_t max = 1, std::optional<int64_t> visibility = {})
{
    ReceiveMessageRequest request;
    request.queue = queue;
    request.waitTimeSeconds = wait;
    request.maxNumberOfMessages = max;
    request.visibilityTimeout = visibility;
    return engine.receiveMessage(request);
}
} // namespace

TEST_CASE("checklist 1: a delayed message is invisible at once - a 2 s long poll gets it", "[checklist]")
{
    Fixture f;
    f.create("q");
    f.send("q", "m", 1);
    CHECK(f.receive("q").empty());
    REQUIRE(poll(f.engine, "q", 2)->pending);
    f.advanceSeconds(1);
    CHECK(f.engine.takeCompletedPolls().at(0).messages.size() == 1);
}

TEST_CASE("checklist 2 - 6: redelivery after the timeout with a new handle - VT=0 leaves it visible", "[checklist]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "1" } });
    f.send("q", "m");
    const auto first = f.receive("q");
    CHECK(f.receive("q").empty());
    f.advanceSeconds(1);
    const auto second = f.receive("q", 1, 0);
    REQUIRE(second.size() == 1);
    CHECK(second[0].receiptHandle != first[0].receiptHandle);
    const auto third = f.receive("q");
    REQUIRE(third.size() == 1);
    CHECK(third[0].receiptHandle != second[0].receiptHandle);
}

TEST_CASE("checklist 7: extending by 2 s repeatedly keeps it hidden past the original timeout", "[checklist]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "2" } });
    f.send("q", "m");
    const auto got = f.receive("q");
    for (int i = 0; i < 5; ++i) {
        f.advanceSeconds(1);
        REQUIRE(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 2).ok());
        CHECK(f.receive("q").empty());
    }
    f.advanceSeconds(2);
    CHECK(f.receive("q").size() == 1);
}

TEST_CASE("checklist 10: after CMV(0) exactly one receive gets it", "[checklist]")
{
    Fixture f;
    f.create("q");
    f.send("q", "m");
    const auto got = f.receive("q");
    REQUIRE(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 0).ok());
    CHECK(f.receive("q").size() == 1);
    CHECK(f.receive("q").empty());
}

TEST_CASE("checklist 13: counters before and after the timeout - standard and FIFO", "[checklist]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "5" } });
    for (int i = 0; i < 6; ++i)
        f.send("q", "m" + std::to_string(i));
    f.receive("q");
    CHECK(f.counters("q") == counts(5, 1, 0));
    f.advanceSeconds(5);
    CHECK(f.counters("q") == counts(6, 0, 0));

    f.create("f.fifo", kFifo);
    for (const char* g : { "g1", "g2", "g3" })
        for (int i = 0; i < 2; ++i)
            f.send("f.fifo", std::string(g) + "-" + std::to_string(i), {}, std::string(g));
    f.receive("f.fifo");
    f.receive("f.fifo");
    CHECK(f.counters("f.fifo") == counts(4, 2, 0));
}

TEST_CASE("checklist 15: three FIFO long polls - a send into the in-flight group wakes none - a delete wakes one",
    "[checklist]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    f.send("q.fifo", "first", {}, "g");
    const auto held = f.receive("q.fifo");
    for (int i = 0; i < 3; ++i)
        REQUIRE(poll(f.engine, "q.fifo", 10)->pending);
    f.send("q.fifo", "second", {}, "g");
    CHECK(f.engine.takeCompletedPolls().empty());
    REQUIRE(f.engine.deleteMessage("q.fifo", held[0].receiptHandle).ok());
    const auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].messages.at(0).body == "second");
    f.advanceSeconds(10);
    CHECK(f.engine.takeCompletedPolls().size() == 2); // the other two end empty
}

TEST_CASE("checklist 17: receiving 2 of g1 blocks g1 - the next receive serves g2", "[checklist]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    f.send("q.fifo", "g1-a", {}, "g1");
    f.send("q.fifo", "g1-b", {}, "g1");
    f.send("q.fifo", "g1-c", {}, "g1");
    f.send("q.fifo", "g2-a", {}, "g2");
    CHECK(f.bodies(f.receive("q.fifo", 2)) == std::vector<std::string> { "g1-a", "g1-b" });
    CHECK(f.bodies(f.receive("q.fifo", 2)) == std::vector<std::string> { "g2-a" });
}

TEST_CASE("checklist 20: a partially deleted group stays blocked - draining returns the other groups", "[checklist]")
{
    Fixture f;
    f.create("q.fifo", kFifo);
    for (int i = 0; i < 4; ++i)
        f.send("q.fifo", "g1-" + std::to_string(i), {}, "g1");
    f.send("q.fifo", "g2", {}, "g2");
    f.send("q.fifo", "g3", {}, "g3");
    const auto got = f.receive("q.fifo", 2);
    REQUIRE(f.engine.deleteMessage("q.fifo", got[0].receiptHandle).ok());
    std::vector<std::string> drained;
    for (int i = 0; i < 5; ++i)
        for (const auto& b : f.bodies(f.receive("q.fifo", 10)))
            drained.push_back(b);
    std::sort(drained.begin(), drained.end());
    CHECK(drained == std::vector<std::string> { "g2", "g3" });
}

TEST_CASE("checklist 21: a FIFO queue-level delay works", "[checklist]")
{
    Fixture f;
    AttributeMap attributes = kFifo;
    attributes["DelaySeconds"] = "1";
    f.create("q.fifo", attributes);
    f.send("q.fifo", "m", {}, "g");
    CHECK(f.receive("q.fifo").empty());
    f.advanceSeconds(1);
    CHECK(f.receive("q.fifo").size() == 1);
}

TEST_CASE("checklist 23: the deduplication interval: suppressed at 5 min - accepted after 6", "[checklist]")
{
    Fixture f;
    f.create("q.fifo", { { "FifoQueue", "true" } });
    f.send("q.fifo", "a", {}, "g", std::string("id"));
    f.advanceSeconds(4 * 60);
    CHECK(f.send("q.fifo", "a", {}, "g", std::string("id")).deduplicated);
    f.advanceSeconds(2 * 60);
    CHECK_FALSE(f.send("q.fifo", "a", {}, "g", std::string("id")).deduplicated);
}

TEST_CASE(
    "checklist 28: a long poll does not wait to fill Max - the queue's wait time applies when omitted", "[checklist]")
{
    Fixture f;
    f.create("q", { { "ReceiveMessageWaitTimeSeconds", "5" } });
    f.send("q", "a");
    f.send("q", "b");
    const auto r = poll(f.engine, "q", 5, 3);
    CHECK_FALSE(r->pending);
    CHECK(r->messages.size() == 2);
    ReceiveMessageRequest request;
    request.queue = "q";
    CHECK(f.engine.receiveMessage(request)->pending); // empty queue, 5 s from the attribute
    f.advanceSeconds(5);
    CHECK(f.engine.takeCompletedPolls().size() == 1);
}

TEST_CASE("checklist 31: CMV 43200 five minutes after the receive is refused", "[checklist]")
{
    Fixture f;
    f.create("q", { { "VisibilityTimeout", "3600" } });
    f.send("q", "m");
    const auto got = f.receive("q");
    f.advanceSeconds(300);
    CHECK(f.engine.changeMessageVisibility("q", got[0].receiptHandle, 43200).error().code == "InvalidParameterValue");
}

TEST_CASE("checklist 34: the group unblocks after CMV(0) or after the timeout", "[checklist]")
{
    Fixture f;
    AttributeMap attributes = kFifo;
    attributes["VisibilityTimeout"] = "10";
    f.create("q.fifo", attributes);
    f.send("q.fifo", "a", {}, "g");
    f.send("q.fifo", "b", {}, "g");
    auto got = f.receive("q.fifo");
    REQUIRE(f.engine.changeMessageVisibility("q.fifo", got[0].receiptHandle, 0).ok());
    CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string> { "a", "b" });
    f.advanceSeconds(10);
    CHECK(f.bodies(f.receive("q.fifo", 10)) == std::vector<std::string> { "a", "b" });
}

TEST_CASE("checklist 38: statistics after receiving and deleting", "[checklist]")
{
    Fixture f;
    f.create("q");
    f.send("q", "a");
    f.send("q", "b");
    const auto got = f.receive("q");
    CHECK(f.counters("q") == counts(1, 1, 0));
    REQUIRE(f.engine.deleteMessage("q", got[0].receiptHandle).ok());
    CHECK(f.counters("q") == counts(1, 0, 0));
    const auto attributes = f.engine.getQueueAttributes("q",
        { "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible",
            "ApproximateNumberOfMessagesDelayed" });
    CHECK(attributes.value()
        == AttributeMap { { "ApproximateNumberOfMessages", "1" }, { "ApproximateNumberOfMessagesDelayed", "0" },
            { "ApproximateNumberOfMessagesNotVisible", "0" } });
}

TEST_CASE("determinism: the same calls in the same order give the same log and ids", "[checklist][determinism]")
{
    const auto run = [] {
        Fixture f;
        f.create("q", { { "VisibilityTimeout", "2" } });
        std::vector<std::string> trace;
        for (int i = 0; i < 20; ++i) {
            trace.push_back(f.send("q", "m" + std::to_string(i), i % 3).messageId);
            for (const auto& m : f.receive("q", 3))
                trace.push_back(m.receiptHandle);
            f.advanceSeconds(0.7);
        }
        for (size_t i = 0; i < f.engine.log().size(); ++i) {
            const auto& e = f.engine.log()[i];
            trace.push_back(std::to_string(e.time) + toString(e.cause) + std::to_string(e.message));
        }
        return trace;
    };
    CHECK(run() == run());
}
