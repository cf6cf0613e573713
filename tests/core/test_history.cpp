// A bounded history (EngineOptions::historyMs): what ended long enough ago is forgotten, in whole chunks of 4,096
// lanes and 16,384 events, and nothing that still names a forgotten lane (a timer, a receipt, a lazy list, a FIFO
// group, a deduplication id) misreads it.
#include "engine_fixture.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/run/lane_name.h"

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace lifeline;
using namespace lifeline::test;

namespace {

EngineOptions bounded(int64_t historyMs)
{
    EngineOptions options;
    options.historyMs = historyMs;
    return options;
}

// send, receive, delete, a millisecond apart each; returns the last receipt handle
std::string cycle(Fixture& f, const std::string& queue, int count, int64_t visibility = 30)
{
    std::string handle;
    for (int i = 0; i < count; ++i) {
        f.send(queue, "job");
        const auto got = f.receive(queue, 1, visibility);
        REQUIRE(got.size() == 1);
        handle = got[0].receiptHandle;
        REQUIRE(f.engine.deleteMessage(queue, handle).ok());
        f.engine.advanceBy(1);
    }
    return handle;
}

size_t countCause(const Engine& engine, Cause cause)
{
    size_t n = 0;
    for (size_t i = engine.log().firstRetained(); i < engine.log().size(); ++i)
        n += engine.log()[i].cause == cause;
    return n;
}

} // namespace

TEST_CASE("With no history kept, deleted messages and their events are forgotten chunk by chunk")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs");
    cycle(f, url, 20000);
    f.advanceSeconds(2);
    // 20,000 lanes: chunks 0-3 (16,384 lanes) ended and are released; chunk 4 is still being filled.
    CHECK(f.engine.messageCount() == 20000);
    CHECK(f.engine.heldMessageCount() == 4096);
    CHECK(f.engine.forgotten(0));
    CHECK(f.engine.forgotten(16383));
    CHECK_FALSE(f.engine.forgotten(16384));
    CHECK(f.engine.message(0).state == MessageState::None);
    CHECK(f.engine.message(19999).state == MessageState::Deleted);
    CHECK(f.engine.extra(0) == nullptr);
    // 80,001 events (a queue created, then send, receive, the poll's end and delete a cycle): four whole chunks of
    // 16,384 happened before now.
    CHECK(f.engine.log().size() == 80001);
    CHECK(f.engine.log().firstRetained() == 4 * 16384);
    // Memory stays where it was: 20,000 more cycles hold no more than the first did, but for the 16 bytes a chunk
    // of 4,096 lanes costs in the engine's chunk table and the 8 a chunk of 16,384 events keeps for its first
    // event's time (each table's capacity at most twice its size).
    const size_t held = f.engine.bytesUsed();
    cycle(f, url, 20000);
    f.advanceSeconds(2);
    CHECK(f.engine.heldMessageCount() == 4096);
    CHECK(f.engine.bytesUsed() <= held + 5 * 16 * 2 + 5 * 8 * 2);
    CHECK(f.counters(url) == counts(0, 0, 0));
}

TEST_CASE("History is kept for as long as asked: a lane is forgotten only that long after it ended")
{
    Fixture f { Engine(bounded(60000)) };
    const auto url = f.create("jobs");
    cycle(f, url, 4096); // one whole chunk, every message deleted by about 4.1 s
    f.advanceSeconds(30);
    CHECK_FALSE(f.engine.forgotten(0));
    CHECK(f.engine.message(0).state == MessageState::Deleted);
    f.advanceSeconds(35); // 60 s after the last delete
    CHECK(f.engine.forgotten(0));
    CHECK(f.engine.forgotten(4095));
}

TEST_CASE("A message still in the queue does not hold its chunk: it is kept beside it until it ends and its hold "
          "passes")
{
    Fixture f { Engine(bounded(1000)) };
    const auto url = f.create("jobs");
    const auto other = f.create("other");
    f.send(other, "stays");
    cycle(f, url, 3 * 4096);
    f.advanceSeconds(2);
    // Chunk 0 (lane 0 and 4,095 ended jobs) is released but for lane 0, which stays whole: its state, body, times.
    CHECK_FALSE(f.engine.forgotten(0));
    CHECK(f.engine.forgotten(1));
    CHECK(f.engine.forgotten(4095));
    CHECK(f.engine.forgotten(8191));
    CHECK(f.engine.message(0).state == MessageState::Visible);
    CHECK(f.engine.heldMessageCount() == 4096 + 1); // the chunk being filled, and lane 0
    const auto got = f.receive(other, 1, 30);
    REQUIRE(got.size() == 1);
    CHECK(got[0].lane == 0);
    CHECK(got[0].body == "stays");
    CHECK(got[0].approximateReceiveCount == 1);
    CHECK(f.engine.times(0).dueAt == f.engine.now() + 30'000);
    // Deleted, it is held for the history kept (a second), then forgotten like its chunk.
    REQUIRE(f.engine.deleteMessage(other, got[0].receiptHandle).ok());
    f.engine.advanceBy(500);
    CHECK_FALSE(f.engine.forgotten(0));
    CHECK(f.engine.message(0).state == MessageState::Deleted);
    f.engine.advanceBy(750);
    CHECK(f.engine.forgotten(0));
    CHECK(f.engine.heldMessageCount() == 4096);
    CHECK(f.counters(other) == counts(0, 0, 0));
}

TEST_CASE("A receipt handle of a forgotten message: deleting it again succeeds, changing its visibility is refused")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs");
    f.send(url, "first");
    const auto first = f.receive(url, 1);
    REQUIRE(first.size() == 1);
    const std::string handle = first[0].receiptHandle;
    REQUIRE(f.engine.deleteMessage(url, handle).ok());
    cycle(f, url, 4096);
    f.advanceSeconds(2);
    REQUIRE(f.engine.forgotten(first[0].lane));

    const size_t before = countCause(f.engine, Cause::NoEffect);
    CHECK(f.engine.deleteMessage(url, handle).ok());
    CHECK(countCause(f.engine, Cause::NoEffect) == before + 1);
    const auto changed = f.engine.changeMessageVisibility(url, handle, 10);
    REQUIRE_FALSE(changed.ok());
    CHECK(changed.error().code == "InvalidParameterValue");
    CHECK(changed.error().message
        == "Value " + handle
            + " for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for "
              "visibility timeout change.");
}

TEST_CASE("A visibility timer of a forgotten message fires without touching it")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs");
    cycle(f, url, 4096, 600); // each received for 600 s, deleted at once: 4,096 timers outlive their lanes
    f.advanceSeconds(2);
    REQUIRE(f.engine.forgotten(0));
    f.advanceSeconds(600);
    CHECK(f.counters(url) == counts(0, 0, 0));
    f.send(url, "after");
    const auto got = f.receive(url, 1);
    REQUIRE(got.size() == 1);
    CHECK(got[0].body == "after");
}

TEST_CASE("Purged and expired messages are forgotten and leave the queue working")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs", { { "MessageRetentionPeriod", "60" } });
    for (int i = 0; i < 4096; ++i)
        f.send(url, "old");
    f.advanceSeconds(61); // all expire
    for (int i = 0; i < 4096; ++i)
        f.send(url, "purged");
    REQUIRE(f.engine.purgeQueue(url).ok());
    f.advanceSeconds(2);
    CHECK(f.engine.forgotten(0));
    CHECK(f.engine.forgotten(8191));
    f.send(url, "fresh");
    const auto got = f.receive(url, 10);
    REQUIRE(got.size() == 1);
    CHECK(got[0].body == "fresh");
    CHECK(f.counters(url) == counts(0, 1, 0));
}

TEST_CASE("Dead-letter arrivals and a redrive work after their source lanes are forgotten")
{
    Fixture f { Engine(bounded(0)) };
    const auto dlq = f.create("jobs-dlq");
    const auto url = f.create("jobs");
    REQUIRE(f.engine.setQueueAttributes(url, { { "RedrivePolicy", f.redrivePolicy(dlq, 1) } }).ok());
    for (int i = 0; i < 4096; ++i)
        f.send(url, "poison");
    for (int i = 0; i < 4096; ++i)
        REQUIRE(f.receive(url, 1, 0).size() == 1); // visible again at once
    CHECK(f.receive(url, 10).empty()); // the second receive moves all 4,096 to the DLQ
    CHECK(f.counters(dlq) == counts(4096, 0, 0));
    f.advanceSeconds(2);
    CHECK(f.engine.forgotten(0)); // the source lanes ended in the move
    const MessageIndex arrival = 4096;
    CHECK_FALSE(f.engine.forgotten(arrival));
    CHECK(f.engine.firstLaneOf(arrival) == 0); // its origin, forgotten: still the lane it came from
    REQUIRE(f.engine.startMessageMoveTask(f.arn(dlq), std::nullopt, 500).ok());
    f.advanceSeconds(10);
    CHECK(f.counters(dlq) == counts(0, 0, 0));
    CHECK(f.counters(url) == counts(4096, 0, 0));
    const auto back = f.receive(url, 10);
    CHECK(back.size() == 10);
    CHECK(back[0].body == "poison");
}

TEST_CASE("A FIFO lane is kept for its deduplication window: a duplicate still names the first message")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs.fifo", { { "FifoQueue", "true" } });
    const auto first = f.send(url, "order-1", {}, "g", "d-1");
    auto got = f.receive(url, 1);
    REQUIRE(got.size() == 1);
    REQUIRE(f.engine.deleteMessage(url, got[0].receiptHandle).ok());
    for (int i = 0; i < 4096; ++i) { // unique groups: each emptied group is dropped and its slot reused
        f.send(url, "x", {}, "group-" + std::to_string(i), "x-" + std::to_string(i));
        got = f.receive(url, 1);
        REQUIRE(got.size() == 1);
        REQUIRE(f.engine.deleteMessage(url, got[0].receiptHandle).ok());
    }
    f.advanceSeconds(60);
    CHECK_FALSE(f.engine.forgotten(first.lane));
    const auto duplicate = f.send(url, "order-1", {}, "g", "d-1");
    CHECK(duplicate.deduplicated);
    CHECK(duplicate.messageId == first.messageId);
    f.advanceSeconds(300); // the window has passed
    CHECK(f.engine.forgotten(first.lane));
    const auto again = f.send(url, "order-1", {}, "g", "d-1");
    CHECK_FALSE(again.deduplicated);
    CHECK(again.messageId != first.messageId);
    // Groups created after the old ones were dropped keep their order.
    f.send(url, "order-2", {}, "g", "d-2");
    f.send(url, "other", {}, "group-7", "d-3");
    got = f.receive(url, 10);
    REQUIRE(got.size() == 3);
    CHECK(f.bodies(got) == std::vector<std::string> { "order-1", "order-2", "other" });
}

TEST_CASE("Refusal texts are forgotten with the events that name them")
{
    Fixture f { Engine(bounded(0)) };
    f.create("jobs");
    for (int i = 0; i < 20000; ++i) {
        REQUIRE_FALSE(f.engine.sendMessage(Fixture::sendRequest("missing", "x", {}, {}, {})).ok());
        f.engine.advanceBy(1);
    }
    f.advanceSeconds(2);
    CHECK(f.engine.log().firstRetained() == 16384);
    CHECK(f.engine.log().text(0).empty());
    const size_t last = f.engine.log().size() - 1;
    CHECK(f.engine.log().text(f.engine.log()[last].textIndex()).starts_with("AWS.SimpleQueueService.NonExistentQueue"));
}

TEST_CASE("Without a bound the engine forgets nothing")
{
    Fixture f;
    const auto url = f.create("jobs");
    cycle(f, url, 5000);
    f.advanceSeconds(3600);
    CHECK(f.engine.heldMessageCount() == 8192);
    CHECK_FALSE(f.engine.forgotten(0));
    CHECK(f.engine.log().firstRetained() == 0);
}

namespace {
// What bytesUsed() counts for bodies, walked lane by lane: a long body's heap block and malloc's header.
size_t walkedBodyBytes(const RunView& engine)
{
    size_t bytes = 0;
    for (MessageIndex lane = 0; lane < engine.messageCount(); ++lane)
        if (const size_t heap = engine.message(lane).body.heapBytes())
            bytes += heap + 16;
    return bytes;
}
} // namespace

TEST_CASE("The bodies' heap is counted as bodies come and go: sends, moves, redrives, ends, forgetting, run files")
{
    for (const bool keepEnded : { false, true }) {
        INFO("keepEndedBodies " << keepEnded);
        EngineOptions options = bounded(0);
        options.keepEndedBodies = keepEnded;
        Fixture f { Engine(options) };
        const auto dlq = f.create("jobs-dlq");
        const auto url = f.create("jobs");
        REQUIRE(f.engine.setQueueAttributes(url, { { "RedrivePolicy", f.redrivePolicy(dlq, 1) } }).ok());
        const std::string body(40, 'b'); // on the heap: 40 + 16 bytes a lane
        for (int i = 0; i < 5000; ++i)
            f.send(url, i % 2 ? body : "short");
        CHECK(f.engine.bodyHeapBytes() == 2500 * 56);
        CHECK(f.engine.bodyHeapBytes() == walkedBodyBytes(f.engine.run()));
        for (int i = 0; i < 5000; ++i)
            REQUIRE(f.receive(url, 1, 0).size() == 1);
        CHECK(f.receive(url, 10).empty()); // all moved to the DLQ: the arrivals hold the bodies
        CHECK(f.engine.bodyHeapBytes() == walkedBodyBytes(f.engine.run()));
        CHECK(f.engine.bodyHeapBytes() == (keepEnded ? 2 : 1) * 2500 * 56);
        f.advanceSeconds(2); // the ended source lanes are forgotten (the first chunk of 4,096)
        CHECK(f.engine.forgotten(0));
        CHECK(f.engine.bodyHeapBytes() == walkedBodyBytes(f.engine.run()));
        REQUIRE(f.engine.startMessageMoveTask(f.arn(dlq), std::nullopt, 500).ok());
        f.advanceSeconds(20);
        CHECK(f.counters(url) == counts(5000, 0, 0));
        CHECK(f.engine.bodyHeapBytes() == walkedBodyBytes(f.engine.run()));
    }
    // A run file's lanes (a run with all its history: only the window saves runs) are counted as they are read.
    Fixture f;
    const auto url = f.create("jobs");
    for (int i = 0; i < 300; ++i)
        f.send(url, std::string(20 + i % 7, 'x'));
    REQUIRE(f.receive(url, 10).size() == 10);
    std::ostringstream out;
    writeRun(f.engine.run(), "bodies", out);
    const std::string bytes = out.str();
    auto opened = readRun(std::vector<uint8_t>(bytes.begin(), bytes.end()), "bodies.lifeline");
    REQUIRE(opened.ok());
    CHECK(opened.value().run->bodyHeapBytes() == f.engine.bodyHeapBytes());
    CHECK(opened.value().run->bodyHeapBytes() == walkedBodyBytes(*opened.value().run));
}

TEST_CASE("A run that forgot its start is not saved as a run file, with the reason, and its CSV holds what is held")
{
    Fixture f { Engine(bounded(0)) };
    const auto url = f.create("jobs");
    cycle(f, url, 20000); // 20,000 ms of cycles
    f.advanceSeconds(2);
    REQUIRE(f.engine.log().firstRetained() == 4 * 16384);
    const std::string path = "/tmp/lifeline-test-forgotten.lifeline";
    const auto saved = saveRun(f.engine.run(), "forgotten", path);
    REQUIRE_FALSE(saved);
    // The first held event is a send at 16,383 ms (one cycle a millisecond, from 0).
    CHECK(saved.message()
        == "the run has forgotten its first 16.383 s (it keeps a bounded history), and a run file holds a whole run");
    CHECK_FALSE(std::ifstream(path).good());
    CHECK_FALSE(std::ifstream(path + ".part").good());
    std::ostringstream csv;
    writeEventsCsv(f.engine.run(), csv);
    const std::string text = csv.str();
    CHECK(size_t(std::count(text.begin(), text.end(), '\n')) == 1 + f.engine.log().size() - 4 * 16384);
}

TEST_CASE("A message's body freed at its end: its lane keeps the name the body gave it while the run is kept")
{
    // A headless server frees each body when its message ends; a test's failure picture drawn later (the pytest
    // plugin keeps a day) named its JSON orders by their MessageIds.
    for (const int64_t history : { int64_t(86400000), int64_t(-1), int64_t(0) }) {
        INFO("history " << history);
        Fixture f { Engine(bounded(history)) };
        const auto url = f.create("orders");
        f.send(url, R"({"id": 17, "kind": "charge", "lines": [1, 2]})");
        f.send(url, "refund order 9 for the customer who wrote twice");
        for (const auto& got : f.receive(url, 10, 30))
            REQUIRE(f.engine.deleteMessage(url, got.receiptHandle).ok());
        REQUIRE(f.engine.message(0).body.view().empty()); // freed
        if (history == 0) { // nothing kept to draw: no name worked out either
            CHECK(laneName(f.engine.run(), 0) == f.engine.run().messageId(0).substr(0, 8));
            continue;
        }
        CHECK(laneName(f.engine.run(), 0) == "id 17, kind charge");
        CHECK(laneName(f.engine.run(), 1) == "refund order 9 for the…");
    }
}
