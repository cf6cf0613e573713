#include "lifeline/export/run_file.h"
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

using namespace lifeline;

namespace {
std::string temporaryPath(const char* name)
{
    return std::string("/tmp/lifeline-test-") + name;
}
} // namespace

TEST_CASE("a saved run reopens equal to the original - without simulating", "[export][runfile]")
{
    auto fixed = sim::applyFix(sim::findLesson("poison-pill")->scenario); // a DLQ, attributes, refusals none
    sim::Simulation simulation(std::get<sim::Scenario>(std::move(fixed)));
    simulation.runToEnd();
    const Engine& original = simulation.engine();
    const std::string path = temporaryPath("poison.lifeline");
    REQUIRE(saveRun(original, simulation.actorNames(), "Lesson 10", path).empty());
    auto opened = openRun(path);
    REQUIRE(std::holds_alternative<RecordedRun>(opened));
    const RecordedRun& run = std::get<RecordedRun>(opened);
    const Engine& copy = *run.engine;
    CHECK(run.title == "Lesson 10");
    CHECK(run.actorNames == simulation.actorNames());
    CHECK(copy.now() == original.now());
    REQUIRE(copy.log().size() == original.log().size());
    for (size_t i = 0; i < original.log().size(); ++i) {
        const Event& a = original.log()[i];
        const Event& b = copy.log()[i];
        REQUIRE(std::tie(a.time, a.message, a.actor, a.detail, a.queue, a.from, a.to, a.cause)
            == std::tie(b.time, b.message, b.actor, b.detail, b.queue, b.from, b.to, b.cause));
    }
    REQUIRE(copy.messageCount() == original.messageCount());
    for (MessageIndex lane = 0; lane < original.messageCount(); ++lane) {
        CHECK(copy.message(lane).messageId() == original.message(lane).messageId());
        CHECK(copy.message(lane).state == original.message(lane).state);
        CHECK(copy.message(lane).receiveCount == original.message(lane).receiveCount);
        CHECK(copy.message(lane).body == original.message(lane).body);
        CHECK(copy.firstLaneOf(lane) == original.firstLaneOf(lane));
    }
    for (const char* queue : { "orders", "orders-dlq" })
        CHECK(copy.counters(queue).value() == original.counters(queue).value());
    CHECK(copy.getQueueAttributes("orders", { "All" }).value()
        == original.getQueueAttributes("orders", { "All" }).value());
    std::remove(path.c_str());
}

TEST_CASE("a damaged or foreign file gives a clear error", "[export][runfile]")
{
    sim::Simulation simulation(sim::findLesson("life-of-a-message")->scenario);
    simulation.runToEnd();
    const std::string path = temporaryPath("damaged.lifeline");
    REQUIRE(saveRun(simulation.engine(), {}, "x", path).empty());
    {
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes.substr(0, bytes.size() / 2);
    }
    auto opened = openRun(path);
    REQUIRE(std::holds_alternative<std::string>(opened));
    CHECK(std::get<std::string>(opened) == "'" + path + "' is not a Lifeline run file (or it is damaged)");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "\x89PNG\r\n\x1a\n not a run";
    }
    CHECK(std::get<std::string>(openRun(path)) == "'" + path + "' is not a Lifeline run file (or it is damaged)");
    std::remove(path.c_str());
    CHECK(std::get<std::string>(openRun(path)).starts_with("cannot read '" + path + "'"));
    CHECK(saveRun(simulation.engine(), {}, "x", "/nonexistent-directory/run.lifeline")
        == "cannot write '/nonexistent-directory/run.lifeline': No such file or directory");
}
