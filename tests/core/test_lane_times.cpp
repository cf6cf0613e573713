// A lane's times in 24 bytes: four as 32-bit offsets from the enqueue, and the lanes they do not fit kept whole,
// never clamped. A FIFO message dead-lettered twice is the engine's own way past the offsets' 24.8 days.
#include "engine_fixture.h"
#include "lifeline/io/run_file.h"

#include <catch2/catch.hpp>
#include <limits>
#include <sstream>

using namespace lifeline;
using namespace lifeline::test;

namespace Catch {
template <> struct StringMaker<lifeline::LaneTimes> {
    static std::string convert(const lifeline::LaneTimes& t)
    {
        return "{sent " + std::to_string(t.sentAt) + ", enqueued " + std::to_string(t.enqueuedAt) + ", due "
            + std::to_string(t.dueAt) + ", first receive " + std::to_string(t.firstReceiveAt) + ", received "
            + std::to_string(t.receivedAt) + "}";
    }
};
} // namespace Catch

namespace {
constexpr TimeMs kReach = 2147483647; // INT32_MAX: the furthest an offset reaches either way
constexpr TimeMs kDayMs = 86400000;
} // namespace

TEST_CASE("lane times: a lane record is 56 bytes, its times 24", "[lanetimes]")
{
    CHECK(sizeof(PackedLaneTimes) == 24);
    CHECK(sizeof(MessageRecord) == 56);
}

TEST_CASE("lane times: offsets pack up to 2^31 - 1 ms either way - one further is kept whole", "[lanetimes]")
{
    const TimeMs e = 5 * kDayMs;
    PackedLaneTimes packed;
    const LaneTimes farthest { e - kReach, e, e + kReach, e - kReach, e + kReach };
    REQUIRE(packed.pack(farthest));
    CHECK_FALSE(packed.wide());
    CHECK(packed.unpack() == farthest);
    CHECK(packed.enqueuedAt() == e);

    const LaneTimes neverReceived { e - 1, e, e + 900000, -1, e };
    REQUIRE(packed.pack(neverReceived));
    CHECK(packed.unpack() == neverReceived);
    CHECK(packed.unpack().firstReceiveAt == -1);

    // Each of the four one step past the reach: wide, and the enqueue still reads whole.
    for (int field = 0; field < 4; ++field) {
        LaneTimes times = farthest;
        TimeMs* fields[] = { &times.sentAt, &times.dueAt, &times.firstReceiveAt, &times.receivedAt };
        *fields[field] += *fields[field] < e ? -1 : 1;
        INFO("field " << field);
        CHECK_FALSE(packed.pack(times));
        CHECK(packed.wide());
        CHECK(packed.enqueuedAt() == e);
    }
    // Packing again what fits is no longer wide.
    REQUIRE(packed.pack(farthest));
    CHECK(packed.unpack() == farthest);
}

TEST_CASE("lane times: any int64 a run file may hold packs or goes wide - no overflow", "[lanetimes]")
{
    constexpr TimeMs lo = std::numeric_limits<TimeMs>::min();
    constexpr TimeMs hi = std::numeric_limits<TimeMs>::max();
    PackedLaneTimes packed;
    CHECK_FALSE(packed.pack(LaneTimes { lo, hi, hi, -1, hi }));
    CHECK(packed.enqueuedAt() == hi);
    CHECK_FALSE(packed.pack(LaneTimes { hi, lo, lo, -1, lo }));
    CHECK(packed.enqueuedAt() == lo);
    const LaneTimes nearTop { hi - 7, hi - 5, hi, hi - 4, hi - 1 };
    REQUIRE(packed.pack(nearTop));
    CHECK(packed.unpack() == nearTop);
    const LaneTimes nearBottom { lo, lo + 3, lo + 9, lo + 1, lo + 2 };
    REQUIRE(packed.pack(nearBottom));
    CHECK(packed.unpack() == nearBottom);
}

TEST_CASE(
    "lane times: a FIFO message dead-lettered twice, 26 days after its send, keeps every time", "[lanetimes][dlq]")
{
    Fixture f;
    const AttributeMap fifo { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" },
        { "MessageRetentionPeriod", "1209600" }, { "VisibilityTimeout", "0" } };
    f.create("last.fifo", fifo);
    f.create("first-dlq.fifo", fifo);
    f.create("q.fifo", fifo);
    REQUIRE(
        f.engine.setQueueAttributes("first-dlq.fifo", { { "RedrivePolicy", f.redrivePolicy("last.fifo", 1) } }).ok());
    REQUIRE(f.engine.setQueueAttributes("q.fifo", { { "RedrivePolicy", f.redrivePolicy("first-dlq.fifo", 1) } }).ok());
    f.advanceSeconds(60);
    f.send("q.fifo", "m", {}, std::string("g"));
    REQUIRE(f.receive("q.fifo").size() == 1); // first received a minute into the run
    f.advanceSeconds(13 * 86400.0);
    REQUIRE(f.receive("q.fifo").empty()); // moved: retention restarts in first-dlq.fifo
    f.advanceSeconds(13 * 86400.0);
    REQUIRE(f.receive("first-dlq.fifo").empty()); // moved again, 26 days after the send
    REQUIRE(f.engine.messageCount() == 3);

    const TimeMs sent = 60000;
    const TimeMs secondMove = sent + 26 * kDayMs;
    CHECK_FALSE(f.engine.message(0).packedTimes.wide());
    CHECK_FALSE(f.engine.message(1).packedTimes.wide()); // 13 days back from its enqueue: within reach
    CHECK(f.engine.message(2).packedTimes.wide()); // 26 days back: kept whole
    // The due time is the first receive's visibility end (0 s), carried along with the record.
    CHECK(f.engine.times(1) == LaneTimes { sent, sent + 13 * kDayMs, sent, sent, sent });
    CHECK(f.engine.times(2) == LaneTimes { sent, secondMove, sent, sent, sent });

    const auto received = f.receive("last.fifo", 1, 30);
    REQUIRE(received.size() == 1);
    CHECK(received[0].sentTimestamp == f.engine.options().epochMs + sent);
    CHECK(received[0].approximateFirstReceiveTimestamp == f.engine.options().epochMs + sent);
    CHECK(received[0].approximateReceiveCount == 2); // the count moves with it; the moving receives add none
    CHECK(f.engine.times(2) == LaneTimes { sent, secondMove, secondMove + 30000, sent, secondMove });
    CHECK(f.engine.message(2).packedTimes.wide());

    // Reopened from a run file, the lane's times are the same and kept whole again.
    std::ostringstream out;
    writeRun(f.engine.run(), "twice dead-lettered", out);
    const std::string text = out.str();
    auto reopened = readRun(std::vector<uint8_t>(text.begin(), text.end()), "memory");
    REQUIRE(reopened.ok());
    const RunView& copy = *reopened.value().run;
    for (MessageIndex lane = 0; lane < 3; ++lane) {
        INFO("lane " << lane);
        CHECK(copy.times(lane) == f.engine.times(lane));
        CHECK(copy.message(lane).packedTimes.wide() == (lane == 2));
    }

    // Its retention counts from the second move, read whole from the packed record: 14 days, not fewer.
    f.advanceSeconds(14 * 86400.0 - 1);
    CHECK(f.counters("last.fifo").visible == 1);
    f.advanceSeconds(1);
    CHECK(f.counters("last.fifo").visible == 0);
    CHECK(f.engine.message(2).state == MessageState::Expired);
}
