// ReceiveMessageRequest::deliveriesOnly: the simulation's consumers receive a lane and a receipt, nothing else. The
// receive itself (state, timers, counts, the log) must be the one a full receive makes.
#include "engine_fixture.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {

Result<ReceiveOutcome> receive(Engine& engine, bool deliveriesOnly, int64_t max, int64_t wait)
{
    ReceiveMessageRequest request;
    request.queue = "q";
    request.maxNumberOfMessages = max;
    request.waitTimeSeconds = wait;
    request.actor = 7;
    request.deliveriesOnly = deliveriesOnly;
    return engine.receiveMessage(request);
}

// Every field of every event, as text: two logs compare equal when the runs were the same event for event.
std::vector<std::string> logOf(const Engine& engine)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < engine.log().size(); ++i) {
        const Event e = engine.log()[i];
        out.push_back(std::to_string(e.time) + " " + std::to_string(e.message) + " " + std::to_string(e.actor) + " "
            + std::to_string(e.detail) + " " + std::to_string(e.queue) + " " + std::to_string(int(e.from)) + " "
            + std::to_string(int(e.to)) + " " + std::to_string(int(e.cause)));
    }
    return out;
}

// Sends, short receives, a long poll that a send wakes and one that times out, deletes by receipt: the same script
// with either kind of answer. Returns the receipts in the order they were received.
std::vector<Receipt> script(Engine& engine, bool deliveriesOnly)
{
    std::vector<Receipt> receipts;
    const auto take = [&](const Result<ReceiveOutcome>& got) {
        REQUIRE(got.ok());
        if (deliveriesOnly) {
            CHECK(got->messages.empty());
            for (const Delivery& d : got->deliveries)
                receipts.push_back(d.receipt);
        } else {
            CHECK(got->deliveries.empty());
            for (const ReceivedMessage& m : got->messages)
                receipts.push_back(m.receipt);
        }
    };
    REQUIRE(engine.createQueue("q", { { "VisibilityTimeout", "5" } }).ok());
    for (int i = 0; i < 3; ++i)
        REQUIRE(engine.sendMessage(Fixture::sendRequest("q", "m" + std::to_string(i), {}, {}, {})).ok());
    take(receive(engine, deliveriesOnly, 2, 0));
    engine.advanceBy(1000);
    take(receive(engine, deliveriesOnly, 10, 0));
    REQUIRE(receive(engine, deliveriesOnly, 10, 20)->pending); // woken by the next send
    engine.advanceBy(500);
    REQUIRE(engine.sendMessage(Fixture::sendRequest("q", "late", {}, {}, {})).ok());
    for (const CompletedPoll& done : engine.takeCompletedPolls()) {
        CHECK(done.actor == 7);
        if (deliveriesOnly) {
            CHECK(done.messages.empty());
            for (const Delivery& d : done.deliveries)
                receipts.push_back(d.receipt);
        } else {
            CHECK(done.deliveries.empty());
            for (const ReceivedMessage& m : done.messages)
                receipts.push_back(m.receipt);
        }
    }
    REQUIRE(engine.deleteMessage("q", receipts.at(0)).ok());
    REQUIRE(receive(engine, deliveriesOnly, 1, 2)->pending); // nothing visible: times out empty
    engine.advanceBy(6000); // the others' visibility ends too
    (void)engine.takeCompletedPolls();
    take(receive(engine, deliveriesOnly, 10, 0));
    return receipts;
}

} // namespace

TEST_CASE("a receive for deliveries only answers each message's lane and receipt", "[receive][deliveries]")
{
    Fixture f;
    f.create("q");
    f.send("q", "first");
    f.send("q", "second");
    const auto got = receive(f.engine, true, 10, 0);
    REQUIRE(got.ok());
    CHECK(got->messages.empty());
    REQUIRE(got->deliveries.size() == 2);
    CHECK(got->deliveries[0].lane == 0);
    CHECK(got->deliveries[1].lane == 1);
    CHECK(got->deliveries[1].receipt.lane == 1);
    CHECK(got->deliveries[1].receipt.receiveCount == 1);
    CHECK(f.counters("q") == counts(0, 2, 0));
    // The log says how many the receive returned.
    const Event ended = f.engine.log()[f.engine.log().size() - 1];
    CHECK(ended.cause == Cause::PollEnded);
    CHECK(ended.messagesReturned() == 2);
    // The receipt deletes the message, as a handle would.
    REQUIRE(f.engine.deleteMessage("q", got->deliveries[0].receipt).ok());
    CHECK(f.counters("q") == counts(0, 1, 0));
}

TEST_CASE("a long poll for deliveries only is answered with them when a message arrives", "[receive][deliveries]")
{
    Fixture f;
    f.create("q");
    const auto waiting = receive(f.engine, true, 10, 20);
    REQUIRE(waiting->pending);
    f.advanceSeconds(3);
    f.send("q", "wake");
    auto done = f.engine.takeCompletedPolls();
    REQUIRE(done.size() == 1);
    CHECK(done[0].poll == waiting->poll);
    CHECK(done[0].messages.empty());
    REQUIRE(done[0].deliveries.size() == 1);
    CHECK(done[0].deliveries[0].lane == 0);
    CHECK(done[0].deliveries[0].receipt.receiveCount == 1);
    CHECK(f.engine.times(0).receivedAt == 3000);
    CHECK(f.engine.times(0).dueAt == 33000);
}

TEST_CASE("deliveries only and full messages make the same run - event for event", "[receive][deliveries]")
{
    Engine full;
    Engine lean;
    const auto fullReceipts = script(full, false);
    const auto leanReceipts = script(lean, true);
    REQUIRE(fullReceipts.size() == 7); // 2, 1, the woken poll's 1, then the 3 not deleted after their timeout
    REQUIRE(leanReceipts.size() == fullReceipts.size());
    for (size_t i = 0; i < fullReceipts.size(); ++i) {
        CHECK(leanReceipts[i].lane == fullReceipts[i].lane);
        CHECK(leanReceipts[i].receiveCount == fullReceipts[i].receiveCount);
        CHECK(leanReceipts[i].queueUid == fullReceipts[i].queueUid);
    }
    CHECK(leanReceipts[6].lane == 3);
    CHECK(leanReceipts[6].receiveCount == 2);
    CHECK(logOf(lean) == logOf(full));
    CHECK(lean.counters("q").value() == full.counters("q").value());
}

TEST_CASE("a delivery list copies the deliveries it holds and no more", "[deliveries]")
{
    DeliveryList list;
    CHECK(list.empty());
    for (uint32_t i = 0; i < 3; ++i)
        list.push_back(Delivery { 10 + i, Receipt { 10 + i, i + 1, 7 } });
    DeliveryList copy(list);
    REQUIRE(copy.size() == 3);
    CHECK(copy[2].lane == 12);
    CHECK(copy[2].receipt.receiveCount == 3);
    CHECK(copy[2].receipt.queueUid == 7);
    DeliveryList assigned;
    assigned.push_back(Delivery { 99, Receipt { 99, 1, 1 } });
    assigned = copy;
    REQUIRE(assigned.size() == 3);
    CHECK(assigned[0].lane == 10);
    size_t lanes = 0;
    for (const Delivery& d : assigned)
        lanes += d.lane;
    CHECK(lanes == 33);
    assigned = DeliveryList();
    CHECK(assigned.empty());
}
