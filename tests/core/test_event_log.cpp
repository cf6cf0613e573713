// The event log keeps an event in 8 bytes: whatever goes in comes out the same, packed or kept whole.
#include "lifeline/engine/engine.h"
#include "lifeline/run/event_log.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <tuple>

using namespace lifeline;

namespace {
auto fields(const Event& e)
{
    return std::tuple(e.time, e.message, e.actor, e.detail, e.queue, e.from, e.to, e.cause);
}

// What fits beside what does not, event by event; `fits` says which the log should pack.
struct Case {
    Event event;
    bool fits;
};
} // namespace

// The traffic below cycles through this many causes (with nine states: 90 kinds, which fit the log's table of
// kinds): a fixed number, so that appending a new cause does not change what this test packs.
constexpr uint32_t kTrafficCauses = 30;
static_assert(uint32_t(Cause::Count) >= kTrafficCauses);

TEST_CASE("event log: every event reads back as appended - packed or kept whole", "[events]")
{
    // Across three chunks of 16,384, a regular traffic (90 kinds of event, every eleventh with a large growing
    // detail as a poll's number, messages near each other), and at the start of each of 13 groups one limit: the
    // last value that fits, then the first that does not.
    std::vector<Event> appended;
    EventLog log;
    TimeMs time = 5;
    size_t expectedWhole = 0;
    for (uint32_t i = 0; i < 40000; ++i) {
        time += i % 7 == 0 ? 1 : 0;
        Event e { time, i % 5 == 0 ? kNoMessage : 100000 + i / 3, i % 40, i % 11 == 0 ? 3000000000u + i : i % 50,
            QueueIndex(i % 4 == 0 ? kNoQueue : i % 3), MessageState(i % 9), MessageState((i + 4) % 9),
            Cause(i % kTrafficCauses) };
        // Limits tried at event 1 and 2 of group g; its event 0 sets its bases (message 100000 + 256g/3, detail
        // 3000000000 + 256g).
        const uint32_t group = i >> 8, at = i & 255;
        const uint32_t messageBase = 100000 + (group << 8) / 3;
        const uint32_t detailBase = 3000000000u + (group << 8);
        const TimeMs groupTime = at == 0 ? time : appended[group << 8].time;
        if (at == 0) {
            e.message = messageBase;
            e.detail = detailBase;
        }
        bool fits = true;
        if (at == 1 || at == 2) {
            const bool first = at == 1; // the last value that fits; then the first that does not
            switch (group) {
            case 1:
                e.actor = first ? 2047 : 2048;
                break;
            case 2:
                e.queue = first ? 30 : 31;
                break;
            case 3:
                e.detail = first ? 1023 : detailBase + 1023; // as it is; as far from the base as fits: both fit
                break;
            case 4:
                e.detail = first ? detailBase + 1024 : detailBase - 1; // too far; below the base
                fits = false;
                break;
            case 5:
                e.message = first ? messageBase + 32766 : messageBase + 32767;
                break;
            case 6:
                e.message = first ? messageBase - 32768 : messageBase - 32769;
                break;
            case 7:
                e.time = groupTime + (first ? 16383 : 16384); // 16 s after its group's first event
                break;
            case 8:
                e.time = first ? time : groupTime - 1; // before its group's first event
                break;
            case 9:
                e.cause = first ? Cause(kCauseCapacity - 1) : Cause(kCauseCapacity); // numbered while it fits
                break;
            case 10:
                e.to = first ? MessageState(15) : MessageState(16);
                break;
            case 11:
                e.from = first ? MessageState(15) : MessageState(200);
                break;
            case 12:
                e.actor = first ? 0 : UINT32_MAX;
                break;
            case 13:
                e.message = first ? kNoMessage : messageBase - 0x8000 + 0xffff; // the offset that means none
                break;
            default:
                break;
            }
            if (group >= 1 && group <= 13 && group != 3 && group != 4)
                fits = first;
        }
        if (i == 32767) // the last of the second chunk, far from its group's first; the next group starts from it
            e.time = time += 60LL * 24 * 3600 * 1000, fits = false;
        if (i == 32768 + 5)
            e.time = time + 60LL * 24 * 3600 * 1000 * 2, fits = false; // far from its group's first
        expectedWhole += fits ? 0 : 1;
        appended.push_back(e);
        log.append(e);
    }
    CHECK(log.keptWhole() == expectedWhole);
    CHECK(expectedWhole == 15);
    REQUIRE(log.size() == appended.size());
    for (size_t i = 0; i < appended.size(); ++i) {
        INFO("event " << i);
        REQUIRE(fields(log[i]) == fields(appended[i]));
    }
    // 8 bytes an event in chunks of 16,384, those kept whole in one chunk of 1,024, and 157 groups of 256 in
    // chunks of 64 (24 bytes each: a time, two bases, whether each is set).
    CHECK(log.eventBytes() == size_t(3 * 16384 * 8) + 1024 * sizeof(Event) + size_t(3 * 64 * 24));
}

TEST_CASE("event log: 127 kinds of event are numbered, the rest kept whole", "[events]")
{
    EventLog log;
    std::vector<Event> appended;
    for (uint32_t cause = 0; cause < 16; ++cause)
        for (uint32_t to = 0; to < 9; ++to) {
            appended.push_back(
                Event { TimeMs(cause), 7, kFirstActor, to, 0, MessageState::Visible, MessageState(to), Cause(cause) });
            log.append(appended.back());
        }
    // 144 kinds: the first 127 met are packed, the 17 after them are not.
    CHECK(log.keptWhole() == 144 - 127);
    for (size_t i = 0; i < appended.size(); ++i) {
        INFO("event " << i);
        REQUIRE(fields(log[i]) == fields(appended[i]));
    }
    // A kind already numbered is packed again.
    log.append(appended[3]);
    CHECK(log.keptWhole() == 17);
    CHECK(fields(log[144]) == fields(appended[3]));
}

TEST_CASE("event log: a cause numbered up to the capacity is packed, one past it is kept whole", "[events]")
{
    EventLog log;
    // Causes no engine writes yet: 40 and the capacity's last, then the first past it.
    const std::vector<Event> appended { Event { 5, 7, kFirstActor, 3, 0, MessageState::Visible, MessageState::InFlight,
                                            Cause(40) },
        Event { 6, 8, kFirstActor, 4, 1, MessageState::None, MessageState::Visible, Cause(kCauseCapacity - 1) },
        Event { 7, 9, kFirstActor, 5, 1, MessageState::None, MessageState::Visible, Cause(kCauseCapacity) } };
    for (const Event& e : appended)
        log.append(e);
    CHECK(log.keptWhole() == 1); // the cause past the capacity
    for (size_t i = 0; i < appended.size(); ++i) {
        INFO("event " << i);
        CHECK(fields(log[i]) == fields(appended[i]));
    }
}

TEST_CASE("event log: released chunks go, what is held still reads back", "[events]")
{
    EventLog log;
    for (uint32_t i = 0; i < 50000; ++i)
        log.append(Event { TimeMs(i), i, kFirstActor, 0, 0, MessageState::None, MessageState::Visible, Cause::Send });
    log.releaseBefore(40000);
    // Chunks 0 and 1 (events 0-32,767) all happened before 40,000; chunk 2 reaches 49,151.
    CHECK(log.firstRetained() == 32768);
    CHECK(log[32768].time == 32768);
    CHECK(log[49999].message == 49999);
    CHECK(log.eventBytes() == size_t(2 * 16384 * 8 + 2 * 64 * 24)); // chunks 2 and 3 of 4, with their groups
}

namespace {
// Reads a run's log back and holds it against the engine's own records of the same run: times never go back, each
// lane's state changes chain (from is the state before), every lane ends in the state its record holds, and every
// message, queue and actor named exists. A misread message base, time or kind breaks one of these.
void checkAgainstRecords(const sim::Simulation& simulation)
{
    const Engine& engine = simulation.engine();
    const EventLog& log = engine.log();
    std::vector<MessageState> state(engine.messageCount(), MessageState::None);
    TimeMs last = 0;
    for (size_t i = 0; i < log.size(); ++i) {
        const Event e = log[i];
        INFO("event " << i << ": " << toString(e.cause));
        REQUIRE(e.time >= last);
        last = e.time;
        REQUIRE(e.time <= engine.now());
        REQUIRE((e.queue == kNoQueue || e.queue < engine.queueCount()));
        REQUIRE(e.actor < simulation.engine().run().actorCount());
        if (e.message == kNoMessage)
            continue;
        REQUIRE(e.message < engine.messageCount());
        if (e.from == e.to)
            continue;
        REQUIRE(e.from == state[e.message]);
        state[e.message] = e.to;
    }
    for (MessageIndex lane = 0; lane < engine.messageCount(); ++lane) {
        INFO("lane " << lane);
        REQUIRE(state[lane] == engine.message(lane).state);
    }
}
} // namespace

TEST_CASE("event log: every lesson's run and busy runs read back as the engine recorded them", "[events]")
{
    for (const auto& lesson : teach::builtinLessons()) {
        INFO(lesson.file);
        sim::Simulation simulation(lesson.scenario);
        simulation.runToEnd();
        // A lesson's events are seconds apart: most of a group of 256 is past its 16 s and kept whole, which costs a
        // lesson a few kilobytes.
        checkAgainstRecords(simulation);
    }
    // Busy runs with random processing, failures and a dead-letter queue, three seeds: every event fits.
    for (const int seed : { 1, 2, 3 }) {
        INFO("seed " << seed);
        auto parsed = scenario::parseScenario(R"({"duration": "40s", "seed": )" + std::to_string(seed) + R"(,
            "queues": [{"name": "dlq"}, {"name": "work", "attributes": {"VisibilityTimeout": 2},
                "deadLetter": {"queue": "dlq", "maxReceiveCount": 3}}],
            "producers": [{"queue": "work", "rate": 400}],
            "consumers": [{"name": "w", "queue": "work", "count": 30, "waitTimeSeconds": 5, "maxMessages": 10,
                           "processing": {"uniform": ["5ms", "3s"]}, "failureProbability": 0.2}]})");
        REQUIRE(std::holds_alternative<scenario::Scenario>(parsed));
        sim::Simulation simulation(std::get<scenario::Scenario>(std::move(parsed)));
        simulation.runToEnd();
        CHECK(simulation.engine().messageCount() > 15000);
        checkAgainstRecords(simulation);
        CHECK(simulation.engine().log().keptWhole() == 0);
    }
}
