// The timeline at scale: the lanes alive in a time window, and the density series that stands in for lanes when
// they are too many to read (its counts against the engine's own, bucket by bucket), and whose each message is.
#include "engine_fixture.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/timeline/density_series.h"
#include "lifeline/timeline/lane_index.h"
#include "lifeline/timeline/lane_tenants.h"
#include "lifeline/timeline/tenant_series.h"
#include "scenario_text.h"

#include <catch2/catch.hpp>
#include <variant>

using namespace lifeline;
using namespace lifeline::test;

namespace {

std::vector<MessageIndex> aliveIn(const LaneIndex& index, TimeMs from, TimeMs to)
{
    std::vector<MessageIndex> lanes;
    index.lanesAlive(from, to, lanes);
    return lanes;
}
} // namespace

TEST_CASE("lanes alive: a lane enters the alive list when sent and leaves it after it ends", "[timeline][density]")
{
    Fixture f;
    const std::string url = f.create("orders", { { "VisibilityTimeout", "30" } });
    f.send(url, "a"); // lane 0 at 0 s
    f.engine.advanceTo(2'000);
    f.send(url, "b"); // lane 1 at 2 s
    f.engine.advanceTo(4'000);
    const auto received = f.receive(url, 1, 30, 0, kFirstActor); // lane 0
    REQUIRE(received.size() == 1);
    REQUIRE(f.engine.deleteMessage(url, received[0].receiptHandle, kFirstActor));
    f.engine.advanceTo(6'000);
    LaneIndex index;
    index.sync(f.engine.run());

    CHECK(index.bornAt(0) == 0);
    CHECK(index.endedAt(0) == 4'000);
    CHECK(index.bornAt(1) == 2'000);
    CHECK(index.endedAt(1) == -1);
    CHECK(aliveIn(index, 0, 1'000) == std::vector<MessageIndex> { 0 }); // lane 1 not sent yet
    CHECK(aliveIn(index, 1'000, 3'000) == std::vector<MessageIndex> { 0, 1 });
    CHECK(aliveIn(index, 4'000, 5'000) == std::vector<MessageIndex> { 0, 1 }); // deleted at 4 s: its end cap
    CHECK(aliveIn(index, 4'001, 6'000) == std::vector<MessageIndex> { 1 });
    CHECK(aliveIn(index, 5'000, 4'000).empty());
}

TEST_CASE("lanes alive: whole blocks of ended lanes are skipped yet every alive lane is found", "[timeline][density]")
{
    // 2,000 lanes over 20 s, each deleted 1 s after its send except every 300th, which stays.
    Fixture f;
    const std::string url = f.create("orders", { { "VisibilityTimeout", "600" } });
    std::vector<std::string> handles;
    for (int i = 0; i < 2000; ++i) {
        f.engine.advanceTo(i * 10);
        f.send(url, "m" + std::to_string(i));
    }
    f.engine.advanceTo(30'000);
    const auto received = f.receive(url, 10, 600, 0, kFirstActor);
    LaneIndex index;
    index.sync(f.engine.run());
    std::vector<MessageIndex> expected;
    for (MessageIndex lane = 0; lane < 2000; ++lane)
        expected.push_back(lane);
    CHECK(aliveIn(index, 25'000, 26'000) == expected); // nothing ended yet

    // Delete all but every 300th; the window after the deletes holds exactly those.
    f.engine.advanceTo(31'000);
    size_t deleted = 0;
    for (int round = 0; round < 400 && deleted < 2000 - 7; ++round) {
        for (const auto& m : f.receive(url, 10, 600, 0, kFirstActor)) {
            const int n = std::stoi(m.body.substr(1));
            if (n % 300 != 0) {
                REQUIRE(f.engine.deleteMessage(url, m.receiptHandle, kFirstActor));
                ++deleted;
            }
        }
    }
    for (const auto& m : received) {
        const int n = std::stoi(m.body.substr(1));
        if (n % 300 != 0) {
            REQUIRE(f.engine.deleteMessage(url, m.receiptHandle, kFirstActor));
            ++deleted;
        }
    }
    REQUIRE(deleted == 1993);
    f.engine.advanceTo(40'000);
    index.sync(f.engine.run());
    CHECK(aliveIn(index, 32'000, 40'000) == std::vector<MessageIndex> { 0, 300, 600, 900, 1200, 1500, 1800 });
    CHECK(aliveIn(index, 0, 5) == std::vector<MessageIndex> { 0 });
}

TEST_CASE("lanes alive: every window lists exactly the lanes born by its end and not ended before its start",
    "[timeline][density]")
{
    // 30 s of 200 messages/s, some failing back after their timeout, some left in the queue: windows at every
    // 700 ms of several widths, each against the definition lane by lane (blocks whose lanes all ended inside or
    // after a window are listed without reading a lane's last event).
    sim::Simulation run(test::scenarioFrom(R"({"duration": "30s", "seed": 3,
        "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 2}}],
        "producers": [{"queue": "orders", "rate": 200}],
        "consumers": [{"name": "w", "queue": "orders", "count": 6, "maxMessages": 10,
                       "processing": {"uniform": ["20ms", "3s"]}, "failureProbability": 0.2}]})"));
    run.runToEnd();
    LaneIndex index;
    index.sync(run.engine().run());
    REQUIRE(index.laneCount() > 5000);
    for (TimeMs from = 0; from < 31'000; from += 700) {
        for (const TimeMs width : { TimeMs(0), TimeMs(450), TimeMs(4'000), TimeMs(40'000) }) {
            const TimeMs to = from + width;
            std::vector<MessageIndex> expected;
            for (MessageIndex lane = 0; lane < index.laneCount(); ++lane) {
                const TimeMs ended = index.endedAt(lane);
                if (index.lane(lane).last == kNoEvent || index.bornAt(lane) > to)
                    continue;
                if (ended == -1 || ended >= from)
                    expected.push_back(lane);
            }
            INFO("window " << from << ".." << to);
            REQUIRE(aliveIn(index, from, to) == expected);
        }
    }
}

TEST_CASE(
    "density series: every bucket's levels equal the engine's counters at that bucket's end", "[timeline][density]")
{
    // Two queues and a DLQ: sends, delays, receives, failures back after their timeout, moves to the DLQ.
    sim::Simulation run(test::scenarioFrom(R"({"duration": "60s", "seed": 7,
        "queues": [{"name": "orders", "attributes": {"VisibilityTimeout": 3, "DelaySeconds": 1},
                    "deadLetter": {"queue": "orders-dlq", "maxReceiveCount": 2}},
                   {"name": "orders-dlq"}, {"name": "audit"}],
        "producers": [{"queue": "orders", "rate": 40}, {"queue": "audit", "rate": 15, "delaySeconds": 2}],
        "consumers": [{"name": "worker", "queue": "orders", "count": 6, "processing": {"uniform": ["50ms", "400ms"]},
                       "failureProbability": 0.3},
                      {"name": "auditor", "queue": "audit", "count": 2, "processing": "100ms"}]})"));
    DensitySeries series(8192, 10);
    const std::vector<std::string> queues { "orders", "orders-dlq", "audit" };
    // The engine's counters at the last millisecond of a bucket every 250 ms (events happen on whole milliseconds,
    // so that is the bucket's end), checked as the run goes (the bucket still open) and again after it (closed).
    std::vector<std::pair<TimeMs, std::vector<QueueCounters>>> asSeen;
    for (TimeMs t = 249; t < 20'000; t += 250) {
        run.advanceTo(t);
        series.sync(run.engine().run());
        REQUIRE(series.bucketMs() == 10);
        std::vector<QueueCounters> counters;
        for (QueueIndex q = 0; q < 3; ++q) {
            counters.push_back(run.engine().counters(queues[q]).value());
            const auto& buckets = series.queue(q);
            REQUIRE(buckets.size() == series.bucketOf(t) + 1);
            CHECK(buckets.back().visible == counters.back().visible);
        }
        asSeen.emplace_back(t, counters);
    }
    run.advanceTo(20'000);
    series.sync(run.engine().run());
    size_t checked = 0;
    for (const auto& [t, counters] : asSeen) {
        for (QueueIndex q = 0; q < 3; ++q) {
            const QueueDensity& at = series.queue(q)[series.bucketOf(t)];
            CHECK(at.visible == counters[q].visible);
            CHECK(at.inFlight == counters[q].inFlight);
            CHECK(at.delayed == counters[q].delayed);
            ++checked;
        }
    }
    CHECK(checked == 240);
    CHECK(series.queue(1).back().visible == run.engine().counters("orders-dlq").value().visible);
    // Flows add up to the run's: every message sent to orders, those moved out, and those that arrived in the DLQ.
    int32_t sent = 0, moved = 0, arrived = 0;
    for (const QueueDensity& b : series.queue(0)) {
        sent += b.sent;
        moved += b.deadLettered;
    }
    for (const QueueDensity& b : series.queue(1))
        arrived += b.sent;
    CHECK(sent == 801); // 40 a second for 20 s, from 0 s to 20 s both included
    CHECK(moved > 0);
    CHECK(arrived == moved);
}

TEST_CASE("density series: halving keeps the later level and adds the counts", "[timeline][density]")
{
    Fixture f;
    const std::string url = f.create("orders");
    DensitySeries series(4, 100); // four buckets of 100 ms
    f.send(url, "a"); // at 0
    f.engine.advanceTo(150);
    f.send(url, "b"); // at 150
    series.sync(f.engine.run());
    REQUIRE(series.bucketCount() == 2);
    CHECK(series.queue(0)[0].visible == 1);
    CHECK(series.queue(0)[1].visible == 2);
    f.engine.advanceTo(450); // bucket 4 does not fit: 200 ms buckets
    f.send(url, "c");
    series.sync(f.engine.run());
    CHECK(series.bucketMs() == 200);
    REQUIRE(series.bucketCount() == 3);
    CHECK(series.queue(0)[0].visible == 2); // at 200 ms
    CHECK(series.queue(0)[0].sent == 2);
    CHECK(series.queue(0)[1].visible == 2);
    CHECK(series.queue(0)[1].sent == 0);
    CHECK(series.queue(0)[2].visible == 3);
    CHECK(series.queue(0)[2].sent == 1);
}

TEST_CASE("density series: consumer groups share their polling and working milliseconds", "[timeline][density]")
{
    // Two workers long-poll an empty queue from 0 s; one message at 5 s is worked on for 2 s.
    sim::Simulation run(test::scenarioFrom(R"({"duration": "10s", "queues": [{"name": "q"}],
        "producers": [{"queue": "q", "messages": [{"at": "5s", "body": "x"}]}],
        "consumers": [{"name": "worker", "queue": "q", "count": 2, "processing": "2s"}]})"));
    run.advanceTo(10'000);
    DensitySeries series(8192, 1000);
    series.sync(run.engine().run());
    REQUIRE(series.groupCount() == 1);
    CHECK(series.groupName(0) == "worker");
    CHECK(series.groupActors(0) == 2);
    const auto& activity = series.groupActivity(0);
    REQUIRE(activity.size() == 11); // 0..10 s; the last bucket starts at 10 s
    CHECK(activity[0].pollingMs == 2000); // both waiting
    CHECK(activity[0].workingMs == 0);
    CHECK(activity[5].workingMs == 1000); // one working, the other still waiting
    CHECK(activity[5].pollingMs == 1000);
    CHECK(activity[6].workingMs == 1000);
    CHECK(activity[7].workingMs == 0);
    CHECK(activity[7].pollingMs == 2000);
}

TEST_CASE("density series: a consumer's group is its spec, whatever its name looks like", "[timeline][density]")
{
    // "blue-2" is one consumer, not the second of "blue"; "batch-7" has two workers, batch-7-1 and batch-7-2.
    sim::Simulation run(test::scenarioFrom(R"({"duration": "2s", "queues": [{"name": "q"}],
        "consumers": [{"name": "blue-2", "queue": "q", "processing": "1s"},
                      {"name": "batch-7", "queue": "q", "count": 2, "processing": "1s"}]})"));
    run.advanceTo(2000);
    DensitySeries series(8192, 1000);
    series.sync(run.engine().run());
    REQUIRE(series.groupCount() == 2);
    CHECK(series.groupName(0) == "blue-2");
    CHECK(series.groupActors(0) == 1);
    CHECK(series.groupName(1) == "batch-7");
    CHECK(series.groupActors(1) == 2);
    const auto consumers = run.consumers();
    REQUIRE(consumers.size() == 3);
    CHECK(consumers[2].name == "batch-7-2");
    CHECK(consumers[2].group == "batch-7");
}

TEST_CASE("lane tenants: a standard queue's MessageGroupId, else the sender - a FIFO queue's groups are not tenants",
    "[density][tenants]")
{
    sim::Simulation run(test::scenarioFrom(R"({"duration": "5s",
        "queues": [{"name": "jobs"}, {"name": "orders.fifo", "type": "fifo",
                    "attributes": {"ContentBasedDeduplication": "true"}}],
        "producers": [{"name": "acme", "queue": "jobs", "bursts": [{"at": "1s", "count": 2}], "groupId": "tenant-a"},
                      {"name": "bistro", "queue": "jobs", "bursts": [{"at": "2s", "count": 1}]},
                      {"name": "shop", "queue": "orders.fifo", "bursts": [{"at": "3s", "count": 2}],
                       "groupId": "order-1"}],
        "script": [{"at": "4s", "call": "SendMessage", "queue": "jobs", "body": "scripted"}]})"));
    run.runToEnd();
    const RunView& view = run.engine().run();
    LaneTenants tenants;
    tenants.sync(view);
    REQUIRE(view.messageCount() == 6);
    const auto nameOf = [&](MessageIndex lane) {
        const uint32_t t = tenants.tenantOf(lane);
        return t == LaneTenants::kNone ? std::string("none") : tenants.name(t);
    };
    CHECK(nameOf(0) == "tenant-a");
    CHECK(nameOf(1) == "tenant-a");
    CHECK(nameOf(2) == "bistro");
    CHECK(nameOf(3) == "shop"); // its group keeps order; its sender is the tenant
    CHECK(nameOf(4) == "shop");
    CHECK(nameOf(5) == "script"); // a script's client is a sender like a producer
    CHECK(tenants.tenantsOfQueue(0) == 3);
    CHECK(tenants.tenantsOfQueue(1) == 1);
    CHECK(tenants.tenantCount() == 4);
    // Read again from where it stopped: nothing new, nothing counted twice.
    tenants.sync(view);
    CHECK(tenants.tenantsOfQueue(0) == 3);
}

TEST_CASE("tenant series: a bounded history that forgot unread events - no forgotten wait climbs, counts from the run",
    "[density][tenants]")
{
    // Two tenants at 200 a second each for 10 minutes, kept for 10 s: the log releases chunks long before the end.
    sim::Simulation run(test::scenarioFrom(R"({"duration": "10m", "queues": [{"name": "jobs"}],
        "producers": [{"name": "a", "queue": "jobs", "rate": 200, "groupId": "a"},
                      {"name": "b", "queue": "jobs", "rate": 200, "groupId": "b"}],
        "consumers": [{"name": "w", "queue": "jobs", "count": 10, "maxMessages": 10, "processing": "10ms"}]})"),
        std::nullopt, 10'000);
    TenantSeries series;
    run.advanceTo(5'000);
    series.sync(run.engine().run());
    run.runToEnd(); // read nothing in between: the events of minutes 1 to 9 are forgotten
    run.forgetHistory(); // as the window's driver does
    REQUIRE(run.engine().run().log().firstRetained() > series.eventsRead());
    series.sync(run.engine().run());
    CHECK(series.eventsRead() == run.engine().run().log().size());
    // Every message waits milliseconds: after the gap no line climbs from a wait whose receive was never read.
    for (size_t line = 0; line < series.dwell().size(); ++line)
        CHECK(series.dwell()[line].back() < 1'000);
    const QueueCounters& counters = run.engine().run().queueInfo(0).counters;
    CHECK(series.current().quietVisible + series.current().quietInFlight + series.current().quietDelayed
        == counters.visible + counters.inFlight + counters.delayed);
}
