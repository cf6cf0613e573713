#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace lifeline;

namespace {
std::string temporaryPath(const char* name)
{
    return std::string("/tmp/lifeline-test-") + name;
}

// Each actor's name and group, in the run's order.
std::vector<std::pair<std::string, std::string>> actorsOf(const RunView& run)
{
    std::vector<std::pair<std::string, std::string>> actors;
    for (uint32_t actor = 0; actor < run.actorCount(); ++actor)
        actors.emplace_back(run.actorName(actor), run.actorGroup(actor));
    return actors;
}
} // namespace

TEST_CASE("a saved run reopens equal to the original - without simulating", "[export][runfile]")
{
    auto fixed = scenario::applyFix(teach::findLesson("poison-pill")->scenario); // a DLQ, attributes, refusals none
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(fixed)));
    simulation.runToEnd();
    const RunView& original = simulation.engine().run();
    const std::string path = temporaryPath("poison.lifeline");
    REQUIRE(saveRun(original, "Lesson 10", path).ok());
    auto opened = openRun(path);
    REQUIRE(opened.ok());
    const RecordedRun& run = opened.value();
    const RunView& copy = *run.run;
    CHECK(run.title == "Lesson 10");
    CHECK(actorsOf(copy) == actorsOf(original));
    CHECK(actorsOf(copy).back() == std::pair<std::string, std::string> { "worker", "worker" });
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
        CHECK(copy.messageId(lane) == original.messageId(lane));
        CHECK(copy.message(lane).state == original.message(lane).state);
        CHECK(copy.message(lane).receiveCount == original.message(lane).receiveCount);
        CHECK(copy.message(lane).body == original.message(lane).body);
        CHECK(copy.firstLaneOf(lane) == original.firstLaneOf(lane));
    }
    REQUIRE(copy.queueCount() == original.queueCount());
    for (size_t q = 0; q < original.queueCount(); ++q) {
        const QueueInfo& was = original.queueInfo(QueueIndex(q));
        const QueueInfo& is = copy.queueInfo(QueueIndex(q));
        CHECK(is.name == was.name);
        CHECK(is.arn == was.arn);
        CHECK(is.createdAt == was.createdAt);
        CHECK(is.modifiedAt == was.modifiedAt);
        CHECK(is.counters == was.counters);
        for (const char* name : { "DelaySeconds", "VisibilityTimeout", "MessageRetentionPeriod", "MaximumMessageSize",
                 "ReceiveMessageWaitTimeSeconds", "RedrivePolicy", "FifoQueue" })
            CHECK(attributeValue(is.attributes, name) == attributeValue(was.attributes, name));
    }
    std::remove(path.c_str());
}

TEST_CASE("a damaged or foreign file gives a clear error", "[export][runfile]")
{
    sim::Simulation simulation(teach::findLesson("life-of-a-message")->scenario);
    simulation.runToEnd();
    const std::string path = temporaryPath("damaged.lifeline");
    REQUIRE(saveRun(simulation.engine().run(), "x", path).ok());
    {
        std::ifstream in(path, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << bytes.substr(0, bytes.size() / 2);
    }
    auto opened = openRun(path);
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.message() == "'" + path + "' is not a Lifeline run file (or it is damaged)");
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << "\x89PNG\r\n\x1a\n not a run";
    }
    CHECK(openRun(path).message() == "'" + path + "' is not a Lifeline run file (or it is damaged)");
    std::remove(path.c_str());
    CHECK(openRun(path).message().starts_with("cannot read '" + path + "'"));
    CHECK(saveRun(simulation.engine().run(), "x", "/nonexistent-directory/run.lifeline").message()
        == "cannot write '/nonexistent-directory/run.lifeline': No such file or directory");
}

namespace {
// A saved run as JSON, to be damaged on purpose and read back from bytes.
// Version 2's layout: every event and lane an array whose fields a test can change one by one. Its events and lanes
// go through the same checks as version 3's columns.
nlohmann::json savedRun(const sim::Simulation& simulation)
{
    std::ostringstream out;
    writeRunVersion2(simulation.engine().run(), "x", out);
    const std::string text = out.str();
    return nlohmann::json::from_cbor(std::vector<uint8_t>(text.begin(), text.end()));
}

std::string damage(const nlohmann::json& run)
{
    auto opened = readRun(nlohmann::json::to_cbor(run), "x.lifeline");
    REQUIRE_FALSE(opened.ok());
    return opened.message();
}
} // namespace

TEST_CASE("a crafted run file is refused field by field - never a loop or an out-of-bounds read", "[runfile]")
{
    sim::Simulation simulation(
        std::get<scenario::Scenario>(scenario::applyFix(teach::findLesson("poison-pill")->scenario)));
    simulation.runToEnd();
    const nlohmann::json run = savedRun(simulation);
    const std::string prefix = "'x.lifeline' is not a Lifeline run file (or it is damaged): ";
    REQUIRE(readRun(nlohmann::json::to_cbor(run), "x.lifeline").ok());

    // The DLQ arrival's origin pointed at itself: following firstLaneOf would never end.
    auto loop = run;
    size_t dlqLane = 0;
    for (size_t lane = 0; lane < loop["messages"].size(); ++lane) {
        const auto extra = loop["messages"][lane][11].get<uint32_t>();
        if (extra != UINT32_MAX && loop["extras"][extra]["origin"].get<uint32_t>() != kNoMessage) {
            dlqLane = lane;
            loop["extras"][extra]["origin"] = lane;
        }
    }
    REQUIRE(dlqLane > 0);
    CHECK(damage(loop) == prefix + "lane " + std::to_string(dlqLane) + " continues a later lane");

    size_t withLane = 0;
    while (run["events"][withLane][1].get<uint32_t>() == kNoMessage)
        ++withLane;
    auto lane = run;
    lane["events"][withLane][1] = run["messages"].size();
    CHECK(damage(lane) == prefix + "event " + std::to_string(withLane) + " refers to a lane the file lacks");

    auto time = run;
    time["events"][3][0] = -5;
    CHECK(damage(time) == prefix + "event 3 is out of time order");

    auto actor = run;
    actor["events"][withLane][2] = 4000000000u;
    CHECK(damage(actor) == prefix + "event " + std::to_string(withLane) + " refers to an actor the file lacks");

    auto cause = run;
    cause["events"][0][7] = 200;
    CHECK(damage(cause) == prefix + "event 0 has no known cause");

    auto type = run;
    type["now"] = "later";
    CHECK(damage(type) == prefix + "type must be number, but is string");

    auto version = run;
    version["version"] = 99;
    CHECK(damage(version) == "'x.lifeline' is a run file of another version (99)");
}

TEST_CASE("a version 1 run file opens with SQS and the operator told apart", "[runfile]")
{
    sim::Simulation simulation(
        std::get<scenario::Scenario>(scenario::applyFix(teach::findLesson("poison-pill")->scenario)));
    simulation.runToEnd();
    nlohmann::json run = savedRun(simulation);
    // Version 1: one actor 0 for SQS and the operator, every other actor one lower.
    run["version"] = 1;
    run["actors"].erase(0);
    for (auto& e : run["events"])
        e[2] = e[2].get<uint32_t>() <= kOperatorActor ? 0u : e[2].get<uint32_t>() - 1;
    auto opened = readRun(nlohmann::json::to_cbor(run), "old.lifeline");
    REQUIRE(opened.ok());
    const RecordedRun& recorded = opened.value();
    // Files before groups were kept: a consumer's group is its name without the "-N" its count added.
    CHECK(actorsOf(*recorded.run) == actorsOf(simulation.engine().run()));
    const EventLog& original = simulation.engine().log();
    const EventLog& migrated = recorded.run->log();
    REQUIRE(migrated.size() == original.size());
    for (size_t i = 0; i < original.size(); ++i) {
        INFO("event " << i << " " << toString(original[i].cause));
        CHECK(migrated[i].actor == original[i].actor);
    }
}

TEST_CASE("run files: deep nesting and absurd sizes in the CBOR are refused, not followed", "[runfile]")
{
    const std::string notOurs = "'x.lifeline' is not a Lifeline run file (or it is damaged)";
    // An array that claims 2^64-1 elements (it used to throw out of the reader with exceptions off).
    const std::vector<uint8_t> huge { 0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00 };
    CHECK(readRun(huge, "x.lifeline").message() == notOurs);
    // A million arrays of one, each inside the last: the reader would recurse a million times.
    std::vector<uint8_t> deep(1000000, 0x81);
    deep.push_back(0x00);
    CHECK(readRun(deep, "x.lifeline").message() == notOurs);
    // A string that claims to be longer than the file.
    const std::vector<uint8_t> longString { 0x7A, 0x7F, 0xFF, 0xFF, 0xFF, 'a' };
    CHECK(readRun(longString, "x.lifeline").message() == notOurs);
}

TEST_CASE("run files: a lane's event without its queue is refused (the trace writer indexed by it)", "[runfile]")
{
    sim::Simulation simulation(teach::findLesson("life-of-a-message")->scenario);
    simulation.runToEnd();
    nlohmann::json run = savedRun(simulation);
    size_t withLane = 0;
    while (run["events"][withLane][1].get<uint32_t>() == kNoMessage)
        ++withLane;
    run["events"][withLane][4] = kNoQueue;
    CHECK(damage(run)
        == "'x.lifeline' is not a Lifeline run file (or it is damaged): event " + std::to_string(withLane)
            + " names a lane but no queue");
}

TEST_CASE("run file version 2: written as it is read - the bytes of the whole map encoded at once", "[runfile]")
{
    // The writer streams each event and lane; the file must be exactly what nlohmann encodes from the same document
    // (so every file reads as before): decoded and encoded again, every lesson's run comes back byte for byte.
    for (const auto& lesson : teach::builtinLessons()) {
        sim::Simulation simulation(lesson.scenario);
        simulation.advanceTo(60000);
        std::ostringstream out;
        writeRunVersion2(simulation.engine().run(), lesson.scenario.name, out);
        const std::string text = out.str();
        const std::vector<uint8_t> bytes(text.begin(), text.end());
        const auto decoded = nlohmann::json::from_cbor(bytes);
        CHECK(nlohmann::json::to_cbor(decoded) == bytes);
        CHECK(decoded.at("events").size() == simulation.engine().log().size());
        auto reopened = readRun(bytes, "memory");
        REQUIRE(reopened);
        CHECK(reopened->run->log().size() == simulation.engine().log().size());
    }
}
