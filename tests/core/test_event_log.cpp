// The event log keeps an event in 12 bytes: whatever goes in comes out the same, packed or kept whole.
#include "lifeline/event_log.h"

#include <catch2/catch.hpp>
#include <tuple>

using namespace lifeline;

namespace {
auto fields(const Event& e)
{
    return std::tuple(e.time, e.message, e.actor, e.detail, e.queue, e.from, e.to, e.cause);
}
} // namespace

TEST_CASE("event log: every event reads back as appended - packed or kept whole", "[events]")
{
    // Across three chunks of 16,384, with what does not fit among what does: an actor above 2,047, a queue above
    // 254, a jump of 60 days, a time before its group's first, a minute and more without events inside a group,
    // details far from their group's base, a cause and a state no engine writes. Every eleventh event carries a
    // large growing detail (a poll's number), the others a small one.
    std::vector<Event> appended;
    EventLog log;
    TimeMs time = 5;
    size_t wide = 0;
    for (uint32_t i = 0; i < 40000; ++i) {
        time += i % 7 == 0 ? 1 : 0;
        Event e { time, i % 5 == 0 ? kNoMessage : i / 3, i % 40, i % 11 == 0 ? 3000000000u + i : i % 50,
            QueueIndex(i % 4 == 0 ? kNoQueue : i % 3), MessageState(i % 9), MessageState((i + 4) % 9),
            Cause(i % uint32_t(Cause::Count)) };
        bool keptWhole = true;
        switch (i) {
        case 100:
            e.actor = 2047; // the last actor that fits
            keptWhole = false;
            break;
        case 101:
            e.actor = 2048;
            break;
        case 102:
            e.queue = 254; // the last queue that fits
            keptWhole = false;
            break;
        case 103:
            e.queue = 255;
            break;
        case 104:
            e.detail = 0x7fff; // the last detail kept as it is
            keptWhole = false;
            break;
        case 105:
            e.detail = 3000000000u + 0x7fff; // the farthest from the group's base (event 0's) that fits
            keptWhole = false;
            break;
        case 106:
            e.detail = 3000000000u + 0x8000;
            break;
        case 107:
            e.detail = 3000000000u - 1; // below the base
            break;
        case 108:
            e.detail = 0xffffffffu;
            break;
        case 510: // the end of the second group: 65,535 ms past its first event still fits, one more does not
            time += 65535 - (time - appended[256].time);
            e.time = time;
            keptWhole = false;
            break;
        case 511:
            time += 1;
            e.time = time;
            break;
        case 32767: // the last of the second chunk: the next group starts from its time
            time += 60LL * 24 * 3600 * 1000;
            e.time = time;
            break;
        case 32769:
            e.time = 0; // before the group's first event
            break;
        case 32770:
            e.cause = Cause(31);
            break;
        case 32771:
            e.to = MessageState(200);
            break;
        default:
            keptWhole = false;
            break;
        }
        wide += keptWhole ? 1 : 0;
        appended.push_back(e);
        log.append(e);
    }
    REQUIRE(wide == 10);
    REQUIRE(log.size() == appended.size());
    for (size_t i = 0; i < appended.size(); ++i) {
        INFO("event " << i);
        REQUIRE(fields(log[i]) == fields(appended[i]));
    }
    // 12 bytes an event in chunks of 16,384, the ten kept whole in one chunk of 1,024, and 157 groups of 256 in
    // chunks of 64 (16 bytes each: a time, a base, whether it is set).
    CHECK(log.eventBytes() == size_t(3 * 16384 * 12) + 1024 * sizeof(Event) + size_t(3 * 64 * 16));
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
    CHECK(log.eventBytes() == 2 * 16384 * 12 + 2 * 64 * 16); // chunks 2 and 3 of 4, with their groups
}
