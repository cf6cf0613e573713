// The timeline's index over the event log, read incrementally: lane chains, states, actors' steps, refusals.
#include "engine_fixture.h"
#include "lifeline/scenario/scenario.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/timeline/lane_index.h"

using namespace lifeline;
using namespace lifeline::test;

namespace {
std::vector<Cause> causesOf(const Engine& engine, const LaneIndex& index, MessageIndex lane)
{
    std::vector<Cause> causes;
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev))
        causes.push_back(engine.log()[ev].cause);
    return causes;
}
} // namespace

TEST_CASE("lane index: each lane chains its own events in order and keeps its state", "[timeline][lanes]")
{
    Fixture f;
    const std::string url = f.create("orders");
    f.send(url, "a");
    f.send(url, "b", 5);
    LaneIndex index;
    const auto first = index.sync(f.engine.run());
    CHECK(first.firstNewLane == 0);
    CHECK(index.laneCount() == 2);
    CHECK(first.changedLanes.empty());
    CHECK(index.lane(0).state == MessageState::Visible);
    CHECK(index.lane(1).state == MessageState::Delayed);

    // Lane 0 is received (by actor 2) and its visibility ends; lane 1's delay ends. Only events since the last
    // sync are read, and both old lanes are reported changed.
    const auto received = f.receive(url, 1, 10, 0, kFirstActor);
    REQUIRE(received.size() == 1);
    f.engine.advanceTo(11'000);
    const auto second = index.sync(f.engine.run());
    CHECK(second.firstNewLane == 2);
    CHECK(second.changedLanes == std::vector<MessageIndex> { 0, 1 });
    CHECK(index.eventsRead() == f.engine.log().size());
    CHECK(index.lane(0).state == MessageState::Visible);
    CHECK(index.lane(1).state == MessageState::Visible);
    CHECK(causesOf(f.engine, index, 0) == std::vector<Cause> { Cause::Send, Cause::Receive, Cause::VisibilityTimeout });
    CHECK(causesOf(f.engine, index, 1) == std::vector<Cause> { Cause::Send, Cause::DelayEnded });
    CHECK(f.engine.log()[index.lane(0).last].cause == Cause::VisibilityTimeout);
}

TEST_CASE("lane index: an actor's receive is one step with its length, found by binary search", "[timeline][lanes]")
{
    Fixture f;
    const std::string url = f.create("orders");
    ReceiveMessageRequest request;
    request.queue = url;
    request.waitTimeSeconds = 20;
    request.actor = kFirstActor;
    REQUIRE(f.engine.receiveMessage(request)->pending);
    LaneIndex index;
    index.sync(f.engine.run());
    CHECK(index.openPollSince(kFirstActor) == 0); // still waiting: no step yet
    f.engine.advanceTo(20'000);
    index.sync(f.engine.run());
    CHECK(index.openPollSince(kFirstActor) == -1);
    const auto& steps = index.actorSteps(kFirstActor);
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].cause() == Cause::PollEnded);
    CHECK(steps[0].time == 20'000);
    CHECK(steps[0].lane() == 20'000); // a poll's length rides in the lane field
    CHECK(index.firstStepAt(kFirstActor, 0) == 0);
    CHECK(index.firstStepAt(kFirstActor, 20'001) == 1);
}

TEST_CASE("lane index: an actor step keeps each of its causes and the highest lane", "[timeline][lanes]")
{
    for (const Cause cause : ActorStep::kCauses) {
        INFO(toString(cause));
        const ActorStep step(90000, ActorStep::kNoLane - 1, cause);
        CHECK(step.cause() == cause);
        CHECK(step.lane() == ActorStep::kNoLane - 1);
        CHECK(step.time == 90000);
        CHECK(LaneIndex::isActorWork(cause));
    }
    CHECK(ActorStep(1, kNoMessage, Cause::ConsumerRestarted).lane() == kNoMessage);
    CHECK(LaneIndex::isActorWork(Cause::PollStarted));
    CHECK_FALSE(LaneIndex::isActorWork(Cause::Receive));
    CHECK_FALSE(LaneIndex::isActorWork(Cause::Warning));
}

TEST_CASE("lane index: a refused request is a mark on its queue's row", "[timeline][lanes]")
{
    Fixture f;
    const std::string url = f.create("orders");
    f.sendError(url, "late", 901); // DelaySeconds above 15 minutes
    LaneIndex index;
    index.sync(f.engine.run());
    REQUIRE(index.refusals(0).size() == 1);
    CHECK(f.engine.log()[index.refusals(0)[0]].cause == Cause::RequestRefused);
    CHECK(index.refusals(7).empty());
    CHECK(index.laneCount() == 0);
}

TEST_CASE("lane index: a Lambda poller's function timeout and its timed-out invocations", "[timeline][lanes]")
{
    auto parsed = scenario::parseScenario(std::string(R"({
        "name": "slow function", "duration": "2m",
        "queues": [ { "name": "jobs", "attributes": { "VisibilityTimeout": 60 } } ],
        "producers": [ { "name": "p", "queue": "jobs", "bursts": [ { "at": "0s", "count": 3 } ] } ],
        "lambdas": [ { "name": "slow", "queue": "jobs", "timeout": "1s", "processing": "2s", "concurrency": 1,
                       "pollers": 1 } ] })"));
    REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(parsed)));
    simulation.advanceTo(10'000);
    LaneIndex index;
    index.sync(simulation.engine().run());
    uint32_t poller = 0;
    for (uint32_t actor = 0; actor < index.actorCount(); ++actor)
        if (index.functionTimeout(actor) > 0)
            poller = actor;
    REQUIRE(poller >= kFirstActor);
    CHECK(index.functionTimeout(poller) == 1000);
    CHECK(index.timedOutAt(poller, 1000)); // invoked at 0 s with three messages, stopped at 1 s
    CHECK_FALSE(index.timedOutAt(poller, 2000));
    // The three starts carry the timeout; a consumer's start carries none.
    int starts = 0;
    for (size_t i = 0; i < simulation.engine().log().size(); ++i) {
        const Event& e = simulation.engine().log()[i];
        if (e.cause == Cause::ProcessingStarted) {
            ++starts;
            CHECK(e.functionTimeout() == 1000);
            CHECK_FALSE(e.duplicate());
        }
    }
    CHECK(starts == 3);
}

TEST_CASE("events: a processing start written before the function timeout was logged still reads", "[timeline][lanes]")
{
    Event e {};
    e.cause = Cause::ProcessingStarted;
    e.detail = 1; // a duplicate start in an older run file
    CHECK(e.duplicate());
    CHECK(e.functionTimeout() == 0);
    e.detail = Event::processingStart(true, 900'000); // Lambda's longest timeout
    CHECK(e.duplicate());
    CHECK(e.functionTimeout() == 900'000);
}

TEST_CASE("lane index: the maxReceiveCount in force when a lane was received - a DLQ turned on later changes none",
    "[timeline][lanes]")
{
    auto parsed = scenario::parseScenario(std::string(R"({"queues": [{"name": "orders"}, {"name": "orders-dlq"}],
        "producers": [{"name": "p", "queue": "orders", "messages": [{"at": "0s", "body": "a"}]}],
        "consumers": [{"name": "c", "queue": "orders", "processing": "1s"}]})"));
    REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(parsed)));
    simulation.advanceTo(30000);
    LaneIndex index;
    index.sync(simulation.engine().run());
    CHECK_FALSE(index.maxReceiveCountAt(0, 1000).has_value()); // no change logged: the current policy holds
    const std::string arn = simulation.engine().getQueueArn("orders-dlq").value();
    REQUIRE(simulation
                .setQueueAttributes("orders",
                    { { "RedrivePolicy", R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":"5"})" } })
                .ok());
    simulation.advanceTo(40000);
    REQUIRE(simulation.setQueueAttributes("orders", { { "RedrivePolicy", "" } }).ok());
    index.sync(simulation.engine().run());
    CHECK(index.maxReceiveCountAt(0, 1000) == 0u); // received at 0 s, before the DLQ
    CHECK(index.maxReceiveCountAt(0, 30000) == 5u);
    CHECK(index.maxReceiveCountAt(0, 35000) == 5u);
    CHECK(index.maxReceiveCountAt(0, 40000) == 0u); // removed again
    CHECK_FALSE(index.maxReceiveCountAt(1, 35000).has_value()); // the DLQ itself never had a policy
}

namespace {
// A run that forgets when asked (the window's way): history of one minute.
EngineOptions forgettingWhenAsked()
{
    EngineOptions options;
    options.historyMs = 60'000;
    options.forgetsOnItsOwn = false;
    return options;
}

// send, receive, delete, a millisecond apart each (4 events a cycle: send, the poll's end, receive, delete)
void cycles(Fixture& f, const std::string& queue, int count)
{
    for (int i = 0; i < count; ++i) {
        f.send(queue, "job");
        const auto got = f.receive(queue, 1, 30, 0, kFirstActor);
        REQUIRE(got.size() == 1);
        REQUIRE(f.engine.deleteMessage(queue, got[0].receiptHandle).ok());
        f.engine.advanceBy(1);
    }
}
} // namespace

TEST_CASE("lane index: a run that forgets its history is forgotten by the index too, chains start where the log "
          "does",
    "[timeline][lanes][history]")
{
    Fixture f { Engine(forgettingWhenAsked()) };
    const std::string waiting = f.create("waiting");
    const std::string jobs = f.create("jobs");
    f.send(waiting, "nobody receives it"); // lane 0: visible for the whole run, no event after its send
    f.send(waiting, "received late"); // lane 1: received after its send is forgotten
    cycles(f, jobs, 20000); // lanes 2..20001, ended within 21 s
    LaneIndex index;
    index.sync(f.engine.run());
    // Two minutes on, asked to forget: the first 4 chunks of events went (80,001 + 2 sends: 16,384 each).
    f.engine.advanceTo(140'000);
    const auto late = f.receive(waiting, 1, 600, 0, kFirstActor);
    REQUIRE(late.size() == 1);
    REQUIRE(late[0].lane == 0); // the oldest visible message first
    f.engine.forgetHistory();
    REQUIRE(f.engine.log().firstRetained() == 4 * 16384);
    index.sync(f.engine.run());
    CHECK(index.firstEventHeld() == 4 * 16384);
    CHECK(index.forgottenUntil() == f.engine.log()[4 * 16384].time);

    // Lane 0 was received now: its chain is the poll's receive alone, and before it it was visible.
    CHECK(index.stateBefore(0) == MessageState::Visible);
    CHECK(causesOf(f.engine, index, 0) == std::vector { Cause::Receive });
    CHECK(index.bornAt(0) == index.forgottenUntil());
    // Lane 1 is still visible and every event of it is forgotten: alive, with no chain.
    CHECK(index.lane(1).first == kNoEvent);
    CHECK(index.lane(1).last == kForgottenEvents);
    CHECK(index.lane(1).state == MessageState::Visible);
    CHECK(index.stateBefore(1) == MessageState::Visible);
    CHECK_FALSE(index.cleared(1));
    // The jobs whose events are all forgotten are cleared; the others chain only held events, from their first.
    size_t cleared = 0;
    for (MessageIndex lane = 2; lane < 20002; ++lane) {
        if (index.cleared(lane)) {
            ++cleared;
            continue;
        }
        for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            REQUIRE(ev >= index.firstEventHeld());
            REQUIRE(f.engine.log()[ev].message == lane);
        }
    }
    // The 65,536 events forgotten were the queues' creation, the two sends and 16,383 whole cycles (4 events each):
    // their lanes are cleared; the first held event is the next cycle's send, whose lane started there.
    CHECK(cleared == 16383);
    CHECK(index.clearedCount() == 16383);
    CHECK(f.engine.log()[index.firstEventHeld()].cause == Cause::Send);
    CHECK(index.stateBefore(16385) == MessageState::None);
    // A window over the whole run lists only what is held: the two waiting lanes and the jobs not cleared.
    std::vector<MessageIndex> alive;
    index.lanesAlive(0, f.engine.now(), alive);
    CHECK(alive.size() == 2 + (20000 - 16383));
    CHECK(alive[0] == 0);
    CHECK(alive[1] == 1);
    CHECK(alive[2] == 16385);
    // The consumer's steps before the boundary are released in whole chunks of 4,096.
    CHECK(index.firstStepHeld(kFirstActor) > 0);
    CHECK(index.firstStepHeld(kFirstActor) % 4096 == 0);
    CHECK(index.firstStepAt(kFirstActor, 0) == index.firstStepHeld(kFirstActor));
}

TEST_CASE("lane index: forgetting keeps the index's memory bounded over a long run", "[timeline][lanes][history]")
{
    Fixture f { Engine(forgettingWhenAsked()) };
    const std::string jobs = f.create("jobs");
    const std::string parked = f.create("parked"); // one message a second left there: it outlives every chunk
    LaneIndex index;
    const auto minute = [&] {
        for (int second = 0; second < 60; ++second) {
            f.send(parked, "left");
            cycles(f, jobs, 200);
            f.engine.advanceBy(1000 - 200);
            f.engine.forgetHistory();
            index.sync(f.engine.run());
        }
    };
    for (int i = 0; i < 3; ++i)
        minute();
    const size_t afterThree = index.bytesUsed();
    for (int i = 0; i < 6; ++i)
        minute();
    // 108,000 more lanes and 432,000 more events: the index holds what the last minute and a chunk hold, and the
    // 360 more messages left in their queue (a lane's chain head and state beside its released chunk, 60 bytes).
    CHECK(index.laneCount() == 108'540);
    CHECK(index.bytesUsed() <= afterThree + afterThree / 10 + 360 * 60);
    CHECK(index.clearedCount() > 80'000);
    std::vector<MessageIndex> alive;
    index.lanesAlive(f.engine.now() - 1000, f.engine.now(), alive);
    CHECK(std::count_if(alive.begin(), alive.end(), [&](MessageIndex lane) {
        return index.lane(lane).state == MessageState::Visible;
    }) == 540);
    // The run keeps them too, beside their released chunks.
    CHECK(f.counters(parked) == counts(540, 0, 0));
    CHECK(f.engine.heldMessageCount() < 30'000);
}

TEST_CASE("A simulation that forgets its history runs the same run, event for event, duplicates and DLQ included",
    "[sim][history]")
{
    // Processing longer than the visibility timeout now and then (duplicates), a poison message every 50 (the DLQ
    // keeps them for days: survivors), for 20 minutes, forgetting everything older than 2 minutes once a second.
    const std::string text = R"({"duration": "20m",
        "queues": [{"name": "jobs", "attributes": {"VisibilityTimeout": 2},
                    "deadLetter": {"queue": "jobs-dlq", "maxReceiveCount": 2}},
                   {"name": "jobs-dlq"}],
        "producers": [{"queue": "jobs", "rate": 40, "poisonEvery": 50}],
        "consumers": [{"name": "w", "queue": "jobs", "count": 80, "processing": {"uniform": ["50ms", "2500ms"]}}]})";
    auto parsed = scenario::parseScenario(text);
    if (!std::holds_alternative<scenario::Scenario>(parsed))
        FAIL(std::get<scenario::ScenarioError>(parsed).text());
    const scenario::Scenario scenario = std::get<scenario::Scenario>(parsed);
    sim::Simulation whole(scenario);
    sim::Simulation forgetting(scenario, std::nullopt, 120'000);
    LaneIndex index;
    for (TimeMs t = 1000; t <= 20 * 60'000; t += 1000) {
        whole.advanceTo(t);
        forgetting.advanceTo(t);
        forgetting.forgetHistory();
        index.sync(forgetting.engine().run());
    }
    const EventLog& all = whole.engine().log();
    const EventLog& held = forgetting.engine().log();
    REQUIRE(held.size() == all.size());
    REQUIRE(held.firstRetained() > 0);
    for (size_t i = held.firstRetained(); i < held.size(); ++i) {
        const Event a = all[i], b = held[i];
        REQUIRE(std::tie(a.time, a.message, a.actor, a.detail, a.queue, a.from, a.to, a.cause)
            == std::tie(b.time, b.message, b.actor, b.detail, b.queue, b.from, b.to, b.cause));
    }
    CHECK(forgetting.duplicateProcessings() == whole.duplicateProcessings());
    CHECK(whole.duplicateProcessings() > 0);
    // The dead-lettered messages are all still there, in the DLQ, though their chunks were released.
    const auto dlq = forgetting.engine().queueIndex("jobs-dlq");
    REQUIRE(dlq);
    CHECK(forgetting.engine().run().queueInfo(*dlq).counters.visible
        == whole.engine().run().queueInfo(*dlq).counters.visible);
    CHECK(forgetting.engine().run().queueInfo(*dlq).counters.visible > 100);
    CHECK(forgetting.engine().heldMessageCount() < whole.engine().heldMessageCount() / 4);
}
