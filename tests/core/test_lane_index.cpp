// The timeline's index over the event log, read incrementally: lane chains, states, actors' steps, refusals.
#include "engine_fixture.h"
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
    const auto first = index.sync(f.engine);
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
    const auto second = index.sync(f.engine);
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
    index.sync(f.engine);
    CHECK(index.openPollSince(kFirstActor) == 0); // still waiting: no step yet
    f.engine.advanceTo(20'000);
    index.sync(f.engine);
    CHECK(index.openPollSince(kFirstActor) == -1);
    const auto& steps = index.actorSteps(kFirstActor);
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].cause() == Cause::PollEnded);
    CHECK(steps[0].time == 20'000);
    CHECK(steps[0].lane() == 20'000); // a poll's length rides in the lane field
    CHECK(index.firstStepAt(kFirstActor, 0) == 0);
    CHECK(index.firstStepAt(kFirstActor, 20'001) == 1);
}

TEST_CASE("lane index: a refused request is a mark on its queue's row", "[timeline][lanes]")
{
    Fixture f;
    const std::string url = f.create("orders");
    f.sendError(url, "late", 901); // DelaySeconds above 15 minutes
    LaneIndex index;
    index.sync(f.engine);
    REQUIRE(index.refusals(0).size() == 1);
    CHECK(f.engine.log()[index.refusals(0)[0]].cause == Cause::RequestRefused);
    CHECK(index.refusals(7).empty());
    CHECK(index.laneCount() == 0);
}
