// The event log keeps an event in 16 bytes: whatever goes in comes out the same, packed or kept whole.
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
    // 254, a jump of 60 days, a time before its chunk's first, a cause and a state no engine writes.
    std::vector<Event> appended;
    EventLog log;
    TimeMs time = 5;
    for (uint32_t i = 0; i < 40000; ++i) {
        time += i % 7 == 0 ? 1 : 0;
        Event e { time, i % 5 == 0 ? kNoMessage : i / 3, i % 40, i * 2654435761u,
            QueueIndex(i % 4 == 0 ? kNoQueue : i % 3), MessageState(i % 9), MessageState((i + 4) % 9),
            Cause(i % uint32_t(Cause::Count)) };
        switch (i) {
        case 100:
            e.actor = 2047; // the last actor that fits
            break;
        case 101:
            e.actor = 2048;
            break;
        case 102:
            e.queue = 254; // the last queue that fits
            break;
        case 103:
            e.queue = 255;
            break;
        case 32767: // the last of the second chunk: the next one starts from its time
            time += 60LL * 24 * 3600 * 1000;
            e.time = time;
            break;
        case 32769:
            e.time = 0; // before the chunk's first event
            break;
        case 32770:
            e.cause = Cause(31);
            break;
        case 32771:
            e.to = MessageState(200);
            break;
        default:
            break;
        }
        appended.push_back(e);
        log.append(e);
    }
    REQUIRE(log.size() == appended.size());
    for (size_t i = 0; i < appended.size(); ++i) {
        INFO("event " << i);
        REQUIRE(fields(log[i]) == fields(appended[i]));
    }
    // 16 bytes an event in chunks of 16,384, the six kept whole in one chunk of 1,024, and each chunk's first time
    // (a vector of 3, room for 4).
    CHECK(log.eventBytes() == 3 * 16384 * 16 + 1024 * sizeof(Event) + 4 * sizeof(TimeMs));
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
    CHECK(log.eventBytes() == 2 * 16384 * 16 + 4 * sizeof(TimeMs)); // chunks 2 and 3 of 4
}
