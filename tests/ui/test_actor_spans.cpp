// An actor's row read from its steps (readActorSpans): what the window's row, its hover and the web page show.
#include "lifeline/picture/actor_spans.h"
#include "test_support.h"
#include "timeline/actor_painter.h"
#include "timeline/lane_model.h"

#include <limits>
#include <string>
#include <vector>

using namespace lifeline;
using namespace lifeline::ui;
using namespace lifeline::picture;

namespace {
// Each span as "kind from-to" in ms ("…" while it goes on); a piece of work with its messages and failures.
std::vector<std::string> spansOf(const LaneModel& model, const char* name, TimeMs viewStart, TimeMs viewEnd, TimeMs now,
    size_t most = std::numeric_limits<size_t>::max())
{
    uint32_t actor = UINT32_MAX;
    for (const uint32_t a : model.shownActors())
        if (model.actorName(a) == QLatin1String(name))
            actor = a;
    REQUIRE(actor != UINT32_MAX);
    std::vector<std::string> out;
    readActorSpans(model.lanes(), actor, viewStart, viewEnd, now, [&](const ActorSpan& s) {
        static const char* const kinds[] = { "poll", "tick", "work", "crash" };
        std::string text = std::string(kinds[s.kind]) + " " + std::to_string(s.from);
        if (s.kind != ActorSpan::Tick)
            text += "-" + std::to_string(s.to) + (s.open ? "…" : "");
        if (s.kind == ActorSpan::Work)
            text += " " + std::to_string(s.work.failed) + "/" + std::to_string(s.work.messages) + " failed"
                + (s.work.interrupted ? ", interrupted" : "");
        out.push_back(text);
        return out.size() < most;
    });
    return out;
}
} // namespace

TEST_CASE("actor spans: lesson 7's crash - the held job cut short, the crash open to now, the other worker's polls",
    "[ui][timeline]")
{
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->advanceTo(45'000);
    LaneModel model;
    model.setRun(&simulation->engine().run());
    model.sync();
    constexpr TimeMs kAll = std::numeric_limits<TimeMs>::min(), kEnd = std::numeric_limits<TimeMs>::max();
    CHECK(spansOf(model, "worker-1", kAll, kEnd, 45'000)
        == std::vector<std::string> { "tick 0", "work 0-5000 1/1 failed, interrupted", "crash 5000-45000…" });
    CHECK(spansOf(model, "worker-2", kAll, kEnd, 45'000)
        == std::vector<std::string> {
            "poll 1000-21000", "poll 21000-30000", "work 30000-40000 0/1 failed", "poll 40000-45000…" });
    // A view ending at 25 s: the poll across its end comes whole, and what is open runs to the view's end.
    CHECK(spansOf(model, "worker-2", kAll, 25'000, 45'000)
        == std::vector<std::string> { "poll 1000-21000", "poll 21000-30000" });
    CHECK(spansOf(model, "worker-1", kAll, 25'000, 45'000)
        == std::vector<std::string> { "tick 0", "work 0-5000 1/1 failed, interrupted", "crash 5000-25000…" });
    // The visitor stops the reading.
    CHECK(spansOf(model, "worker-2", kAll, kEnd, 45'000, 1) == std::vector<std::string> { "poll 1000-21000" });
}

TEST_CASE("actor spans: the hover's work at an instant (workAt) - from its start, not at its end", "[ui][timeline]")
{
    auto simulation = test::lessonSimulation("consumer-crash");
    simulation->advanceTo(45'000);
    LaneModel model;
    model.setRun(&simulation->engine().run());
    model.sync();
    uint32_t worker2 = UINT32_MAX;
    for (const uint32_t a : model.shownActors())
        if (model.actorName(a) == QLatin1String("worker-2"))
            worker2 = a;
    REQUIRE(worker2 != UINT32_MAX);
    CHECK_FALSE(workAt(model, worker2, 29'999, 45'000));
    const auto work = workAt(model, worker2, 30'000, 45'000);
    REQUIRE(work);
    CHECK((work->from == 30'000 && work->to == 40'000 && work->messages == 1 && work->failed == 0 && !work->open));
    CHECK(workAt(model, worker2, 39'999, 45'000));
    CHECK_FALSE(workAt(model, worker2, 40'000, 45'000));
}
