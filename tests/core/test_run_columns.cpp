// Run file version 3: the events and lanes as compressed columns. Every run comes back exactly, and a damaged or
// crafted table is refused with what is wrong, never decoded into nonsense or gigabytes.
#include "io/run_columns.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace lifeline;

namespace {
std::vector<uint8_t> written(const sim::Simulation& simulation, const std::string& title)
{
    std::ostringstream out;
    writeRun(simulation.engine().run(), title, out);
    const std::string text = out.str();
    return { text.begin(), text.end() };
}

// Everything a viewer reads of the run: every event's fields, every lane's record, the texts and the queues.
void requireSameRun(const RunView& original, const RunView& copy)
{
    REQUIRE(copy.now() == original.now());
    REQUIRE(copy.log().size() == original.log().size());
    for (size_t i = 0; i < original.log().size(); ++i) {
        const Event& a = original.log()[i];
        const Event& b = copy.log()[i];
        INFO("event " << i);
        REQUIRE(std::tie(a.time, a.message, a.actor, a.detail, a.queue, a.from, a.to, a.cause)
            == std::tie(b.time, b.message, b.actor, b.detail, b.queue, b.from, b.to, b.cause));
    }
    REQUIRE(copy.log().textCount() == original.log().textCount());
    for (uint32_t i = 0; i < original.log().textCount(); ++i)
        REQUIRE(copy.log().text(i) == original.log().text(i));
    REQUIRE(copy.messageCount() == original.messageCount());
    for (MessageIndex lane = 0; lane < original.messageCount(); ++lane) {
        const MessageRecord& a = original.message(lane);
        const MessageRecord& b = copy.message(lane);
        INFO("lane " << lane);
        REQUIRE(copy.messageIdParts(lane) == original.messageIdParts(lane));
        REQUIRE(copy.times(lane) == original.times(lane));
        REQUIRE(std::tie(a.body, a.receiveCount, a.extra, a.queue, a.state)
            == std::tie(b.body, b.receiveCount, b.extra, b.queue, b.state));
        REQUIRE(copy.firstLaneOf(lane) == original.firstLaneOf(lane));
    }
    REQUIRE(copy.queueCount() == original.queueCount());
    for (size_t q = 0; q < original.queueCount(); ++q)
        if (const QueueInfo& queue = original.queueInfo(QueueIndex(q)); queue.alive)
            REQUIRE(copy.queueInfo(QueueIndex(q)).counters == queue.counters);
}

std::string refusal(const nlohmann::json& run)
{
    auto opened = readRun(nlohmann::json::to_cbor(run), "x.lifeline");
    REQUIRE_FALSE(opened.ok());
    return opened.message();
}

const std::string kPrefix = "'x.lifeline' is not a Lifeline run file (or it is damaged): ";
} // namespace

TEST_CASE("run file version 3: every lesson's run and a busy run reopen the same, event for event", "[runfile]")
{
    for (const auto& lesson : teach::builtinLessons()) {
        INFO(lesson.file);
        sim::Simulation simulation(lesson.scenario);
        simulation.advanceTo(90000);
        const auto bytes = written(simulation, lesson.scenario.name);
        // What says which file it is comes first: a map of 13, then "format" and "version".
        REQUIRE(bytes.size() > 30);
        CHECK(std::string(bytes.begin(), bytes.begin() + 29)
            == "\xad\x66"
               "format\x6clifeline-run\x67version");
        CHECK(bytes[29] == 3);
        auto reopened = readRun(bytes, "memory");
        INFO((reopened ? std::string() : reopened.message()));
        REQUIRE(reopened);
        CHECK(reopened->title == lesson.scenario.name);
        REQUIRE(reopened->run->actorCount() == simulation.engine().run().actorCount());
        for (uint32_t actor = 0; actor < reopened->run->actorCount(); ++actor) {
            CHECK(reopened->run->actorName(actor) == simulation.engine().run().actorName(actor));
            CHECK(reopened->run->actorGroup(actor) == simulation.engine().run().actorGroup(actor));
        }
        requireSameRun(simulation.engine().run(), *reopened->run);
    }
    // More than one block of each table (16,384 items): 100 consumers on 1,000 messages/s for 30 s.
    auto busy = scenario::parseScenario(std::string(R"({"duration": "30s", "seed": 7,
        "queues": [{"name": "work", "attributes": {"VisibilityTimeout": 1}}],
        "producers": [{"queue": "work", "rate": 1000, "body": "order"}],
        "consumers": [{"name": "w", "queue": "work", "count": 100, "waitTimeSeconds": 20, "maxMessages": 10,
                       "processing": {"uniform": ["5ms", "1500ms"]}, "failureProbability": 0.05}]})"));
    sim::Simulation simulation(std::get<scenario::Scenario>(std::move(busy)));
    simulation.runToEnd();
    REQUIRE(simulation.engine().messageCount() > 20000);
    const auto bytes = written(simulation, "busy");
    auto reopened = readRun(bytes, "memory");
    REQUIRE(reopened);
    requireSameRun(simulation.engine().run(), *reopened->run);
}

TEST_CASE("run file version 3: a damaged table says what is wrong with it", "[runfile]")
{
    sim::Simulation simulation(
        std::get<scenario::Scenario>(scenario::applyFix(teach::findLesson("poison-pill")->scenario)));
    simulation.runToEnd();
    const nlohmann::json run = nlohmann::json::from_cbor(written(simulation, "x"));
    REQUIRE(run["version"] == 3);
    REQUIRE(readRun(nlohmann::json::to_cbor(run), "x.lifeline").ok());
    const auto& events = run["events"].get_binary();

    auto cut = run;
    cut["events"] = nlohmann::json::binary(std::vector<uint8_t>(events.begin(), events.end() - 8));
    CHECK(refusal(cut) == kPrefix + "the events table ends early");

    auto more = run;
    more["eventCount"] = run["eventCount"].get<size_t>() + 1;
    CHECK(refusal(more) == kPrefix + "the events table ends early");

    auto fewer = run;
    fewer["eventCount"] = run["eventCount"].get<size_t>() - 1;
    CHECK(refusal(fewer) == kPrefix + "the events table has a block of a wrong size");

    auto absurd = run; // decoded as the bytes come, so the claim costs nothing before it is found out
    absurd["laneCount"] = 4000000000u;
    CHECK(refusal(absurd) == kPrefix + "the lanes table ends early");

    auto garbage = run;
    garbage["lanes"] = nlohmann::json::binary(std::vector<uint8_t>(64, 0x5a));
    CHECK(refusal(garbage) == kPrefix + "the lanes table is not a checksummed zstd frame");

    // A changed bit: in the checksum (the frame's last 4 bytes) the checksum finds it; anywhere else what it
    // decodes into is refused, by the codec, a column or the checks of what an event refers to.
    auto checksum = run;
    auto bytes = events;
    bytes.back() ^= 0x10;
    checksum["events"] = nlohmann::json::binary(bytes);
    CHECK(refusal(checksum) == kPrefix + "the events table is damaged (Restored data doesn't match checksum)");
    for (size_t at = 6; at + 4 < events.size(); at += 7) {
        auto flipped = run;
        bytes = events;
        bytes[at] ^= 0x01;
        flipped["events"] = nlohmann::json::binary(bytes);
        CHECK(refusal(flipped).starts_with(kPrefix));
    }

    auto twice = run;
    std::vector<uint8_t> doubled(events.begin(), events.end());
    doubled.insert(doubled.end(), events.begin(), events.end());
    twice["events"] = nlohmann::json::binary(doubled);
    CHECK(refusal(twice) == kPrefix + "the events table goes on past its items");

    auto array = run;
    array["lanes"] = nlohmann::json::array();
    CHECK(refusal(array) == kPrefix + "its events or lanes are not columns");
}

TEST_CASE("run file version 3: decoded events are checked as version 2's are", "[runfile]")
{
    sim::Simulation simulation(teach::findLesson("life-of-a-message")->scenario);
    simulation.runToEnd();
    nlohmann::json run = nlohmann::json::from_cbor(written(simulation, "x"));
    const auto lanes = run["laneCount"].get<MessageIndex>();
    // Columns written from a log of one's own making: what the file's columns can say that the run cannot hold.
    const auto withEvents = [&](std::initializer_list<Event> events) {
        EventLog log;
        for (const Event& e : events)
            log.append(e);
        std::ostringstream out;
        run_columns::writeEvents(log, out);
        const std::string text = out.str();
        auto crafted = run;
        crafted["events"] = nlohmann::json::from_cbor(std::vector<uint8_t>(text.begin(), text.end()));
        crafted["eventCount"] = events.size();
        return refusal(crafted);
    };
    const auto send = [](TimeMs time, MessageIndex lane) {
        return Event { time, lane, kOperatorActor, 0, 0, MessageState::None, MessageState::Visible, Cause::Send };
    };
    CHECK(withEvents({ send(0, 0), send(5, lanes) }) == kPrefix + "event 1 refers to a lane the file lacks");
    CHECK(withEvents({ send(10, 0), send(5, 1) }) == kPrefix + "event 1 is out of time order");
    Event unknown = send(0, 0);
    unknown.cause = Cause(77);
    CHECK(withEvents({ unknown }) == kPrefix + "event 0 has no known cause");
    Event state = send(0, 0);
    state.to = MessageState(12);
    CHECK(withEvents({ state }) == kPrefix + "event 0 has no known state");
}
