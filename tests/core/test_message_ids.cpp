// MessageIds: a lane does not keep its id; the engine draws it from the run's seed and the lane's index, and keeps
// beside the lanes only the ids it cannot draw (a run file's, the proxy's, a message dead-lettered twice).
#include "engine_fixture.h"

#include <regex>
#include <set>

using namespace lifeline;
using namespace lifeline::test;

namespace {
std::vector<std::string> idsOfRun(uint64_t seed, int messages)
{
    Engine engine(EngineOptions { .seed = seed });
    REQUIRE(engine.createQueue("q").ok());
    std::vector<std::string> ids;
    for (int i = 0; i < messages; ++i) {
        SendMessageRequest send;
        send.queue = "q";
        send.body = "m";
        const auto sent = engine.sendMessage(send);
        REQUIRE(sent.ok());
        REQUIRE(sent->messageId == engine.messageId(sent->lane));
        ids.push_back(sent->messageId);
    }
    return ids;
}
} // namespace

TEST_CASE("message ids: version 4 UUIDs, distinct, the same for the same seed, others for another", "[ids]")
{
    const auto ids = idsOfRun(7, 20000);
    const std::regex uuid4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    for (const auto& id : ids)
        REQUIRE(std::regex_match(id, uuid4));
    CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
    CHECK(idsOfRun(7, 20000) == ids);
    const auto other = idsOfRun(8, 20000);
    std::set<std::string> both(ids.begin(), ids.end());
    both.insert(other.begin(), other.end());
    CHECK(both.size() == 40000);
}

TEST_CASE("message ids: a message dead-lettered twice keeps its id in each new lane - a redriven one gets a new one",
    "[ids][dlq]")
{
    Fixture f;
    f.create("last");
    f.create("dlq", { { "VisibilityTimeout", "0" } });
    f.create("q", { { "VisibilityTimeout", "0" } });
    REQUIRE(f.engine.setQueueAttributes("q", { { "RedrivePolicy", f.redrivePolicy("dlq", 1) } }).ok());
    REQUIRE(f.engine.setQueueAttributes("dlq", { { "RedrivePolicy", f.redrivePolicy("last", 1) } }).ok());
    const auto sent = f.send("q", "m");
    CHECK(f.receive("q").size() == 1);
    CHECK(f.receive("q").empty()); // moved to dlq: lane 1
    CHECK(f.receive("dlq").empty()); // received once already, as many as dlq allows: moved to last, lane 2
    const auto arrived = f.receive("last");
    REQUIRE(arrived.size() == 1);
    CHECK(arrived[0].lane == 2);
    CHECK(f.engine.message(1).idSource == IdSource::Origin);
    CHECK(f.engine.message(2).idSource == IdSource::Kept);
    for (MessageIndex lane : { 0u, 1u, 2u })
        CHECK(f.engine.messageId(lane) == sent.messageId);
    CHECK(arrived[0].messageId == sent.messageId);
    // Moved back from the last queue to q: a new message, a lane of its own with an id drawn for it.
    f.advanceSeconds(30); // visible again in last, which a move task moves
    REQUIRE(f.engine.startMessageMoveTask(f.arn("last"), f.arn("q"), 10).ok());
    f.advanceSeconds(1);
    REQUIRE(f.engine.messageCount() == 4);
    CHECK(f.engine.message(3).idSource == IdSource::Lane);
    CHECK(f.engine.messageId(3) != sent.messageId);
}
