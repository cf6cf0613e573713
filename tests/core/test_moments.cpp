// A lesson's moments are found in the run itself: they follow a slider's change and disappear with the fix.
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/moments.h"
#include "lifeline/sim/simulation.h"

#include <catch2/catch.hpp>
#include <memory>

using namespace lifeline;
using namespace lifeline::sim;

namespace {

Scenario lessonScenario(const std::string& id, bool fix)
{
    const LessonEntry* lesson = findLesson(id);
    REQUIRE(lesson != nullptr);
    if (!fix)
        return lesson->scenario;
    auto fixed = applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<Scenario>(fixed));
    return std::get<Scenario>(std::move(fixed));
}

std::vector<Moment> momentsOf(const Simulation& simulation)
{
    return findMoments(simulation.engine(), simulation.scenario().lesson->moments, simulation.actorNames());
}

std::string problemOf(const std::string& momentsJson)
{
    const std::string text = std::string(R"({"queues": [{"name": "q"}, {"name": "q2.fifo", "type": "fifo"}],
        "lesson": {"id": "x", "number": 99, "title": "t", "idea": "i", "watch": "w", "trap": "t", "fix": "f",
        "moments": )")
        + momentsJson + "}}";
    const auto parsed = parseScenario(text);
    REQUIRE(std::holds_alternative<ScenarioError>(parsed));
    return std::get<ScenarioError>(parsed).text();
}

} // namespace

TEST_CASE("Lesson 8's moments: visible again while worker-1 works and the two duplicate processings")
{
    Simulation simulation(lessonScenario("visibility-too-short", false));
    simulation.runToEnd();
    const auto moments = momentsOf(simulation);
    REQUIRE(moments.size() == 3);
    CHECK(moments[0].at == 10000);
    CHECK(moments[0].caption == "Visible again after 10 s while worker-1 is still on its 25 s of work");
    CHECK(simulation.engine().message(moments[0].lane).state == MessageState::Deleted);
    CHECK(moments[1].at == 10000);
    CHECK(moments[1].lane == moments[0].lane);
    CHECK(moments[1].caption == "worker-2 takes it too: processed twice");
    CHECK(moments[2].at == 75000);
    CHECK(moments[2].caption == "worker-1 takes it too: processed twice");
    CHECK(moments[2].lane != moments[0].lane);
    CHECK_FALSE(moments[0].onActorRow);

    const auto summary = simulation.summary().toJson();
    REQUIRE(summary["moments"].size() == 3);
    CHECK(summary["moments"][0]["at"] == 10.0);
    CHECK(summary["moments"][0]["lane"] == simulation.engine().messageId(moments[0].lane).substr(0, 8));
    CHECK(summary["moments"][2]["caption"] == "worker-1 takes it too: processed twice");
}

TEST_CASE("Lesson 8's fix and a slider at the start both leave no moment")
{
    Simulation fixed(lessonScenario("visibility-too-short", true));
    fixed.runToEnd();
    CHECK(momentsOf(fixed).empty());
    CHECK(fixed.summary().toJson()["moments"].empty());

    // The learner moves the visibility slider to 60 s before any message is sent: the run has no moment either.
    Simulation slid(lessonScenario("visibility-too-short", false));
    REQUIRE(slid.setQueueAttributes("reports", { { "VisibilityTimeout", "60" } }).ok());
    slid.runToEnd();
    CHECK(momentsOf(slid).empty());
}

TEST_CASE("Moments found as a live run goes are the moments of the whole run")
{
    Simulation simulation(lessonScenario("consumer-crash", false));
    MomentFinder live(simulation.scenario().lesson->moments);
    for (TimeMs t = 0; t <= simulation.duration(); t += 700) {
        simulation.advanceTo(t);
        live.advance(simulation.engine(), simulation.actorNames());
    }
    simulation.runToEnd();
    live.advance(simulation.engine(), simulation.actorNames());
    const auto whole = momentsOf(simulation);
    REQUIRE(live.moments().size() == 3);
    REQUIRE(whole.size() == 3);
    for (size_t i = 0; i < whole.size(); ++i) {
        CHECK(live.moments()[i].at == whole[i].at);
        CHECK(live.moments()[i].caption == whole[i].caption);
    }
    CHECK(whole[0].at == 5000);
    CHECK(whole[0].caption == "worker-1 crashes holding the message: nobody will delete it");
    CHECK(whole[0].onActorRow);
    CHECK(whole[1].at == 30000);
    CHECK(whole[1].caption == "The visibility timeout ends: the message worker-1 held is visible again");
    CHECK(whole[2].caption == "worker-2 receives it (#2) and finishes the job");
}

TEST_CASE("Every moment of every lesson is found in the run as written or in its fix")
{
    for (const LessonEntry& lesson : builtinLessons()) {
        const auto& specs = lesson.scenario.lesson->moments;
        INFO(lesson.file);
        CHECK_FALSE(specs.empty());
        std::vector<bool> seen(specs.size(), false);
        for (const bool fix : { false, true }) {
            Simulation simulation(lessonScenario(lesson.scenario.lesson->id, fix));
            simulation.runToEnd();
            for (const Moment& m : momentsOf(simulation)) {
                seen[m.spec] = true;
                CHECK(m.caption.find('{') == std::string::npos);
            }
        }
        for (size_t i = 0; i < specs.size(); ++i) {
            INFO("moment " << i << ": " << specs[i].caption);
            CHECK(seen[i]);
        }
    }
}

TEST_CASE("Filters: a receive number, a body, an age, the state a send leads to")
{
    Simulation poison(lessonScenario("poison-pill", false));
    poison.runToEnd();
    const auto moments = momentsOf(poison);
    REQUIRE(moments.size() == 2);
    CHECK(moments[0].caption == "The poison order fails and is not deleted: it comes back after 5 seconds");
    CHECK(moments[1].caption == "Received a 5th time: with no dead-letter queue the poison order never leaves");
    CHECK(moments[1].lane == moments[0].lane);
    CHECK(moments[1].at == 31000);

    Simulation timer(lessonScenario("message-timer", true));
    timer.runToEnd();
    const auto timed = momentsOf(timer);
    REQUIRE(timed.size() == 1);
    CHECK(timed[0].at == 60000);
    CHECK(timer.engine().message(timed[0].lane).body == "retry job 7");
}

TEST_CASE("A lesson's moments that do not read are load errors naming the field")
{
    CHECK(problemOf(R"([{"when": "visible-while-workin", "caption": "c"}])")
        == "lesson.moments[0].when: unknown pattern; did you mean \"visible-while-working\"?");
    CHECK(problemOf(R"([{"when": "crash", "caption": "{consumr} crashed"}])")
        == "lesson.moments[0].caption: unknown placeholder {consumr}; known are {consumer}, {queue}, {receive}");
    CHECK(problemOf(R"([{"when": "crash", "caption": "c", "receive": 2}])")
        == "lesson.moments[0].receive: applies to \"when\": \"receive\" only");
    CHECK(problemOf(R"([{"when": "failed", "caption": "c", "failure": "boom"}])")
        == "lesson.moments[0].failure: must be one of threw, poison, timed-out, throttled");
    CHECK(problemOf(R"([{"when": "receive", "caption": "c", "limit": 0}])")
        == "lesson.moments[0].limit: must be a whole number from 1 to 20, got 0");
    CHECK(problemOf(R"([{"when": "expired", "caption": "c", "minAge": "soon"}])")
        == "lesson.moments[0].minAge: must be a duration such as \"15s\" or \"2m\", got \"soon\"");
    CHECK(problemOf(R"([{"when": "expired", "caption": "c", "queue": "qq"}])").find("lesson.moments[0].queue: ") == 0);
    CHECK(problemOf(R"({"when": "expired"})") == "lesson.moments: must be a list of moments");
    // A FIFO twin is accepted: a lesson's fix may turn the queue FIFO (the moment then finds nothing).
    const auto twin = parseScenario(std::string(R"({"queues": [{"name": "q"}],
        "lesson": {"id": "x", "number": 99, "title": "t", "idea": "i", "watch": "w", "trap": "t", "fix": "f",
        "moments": [{"when": "expired", "caption": "c", "queue": "q.fifo"}]}})"));
    CHECK(std::holds_alternative<Scenario>(twin));
}

TEST_CASE("A lesson against its fix: the figures that differ - lessons 8 - 11 and 21")
{
    const auto changes = [](const std::string& id) {
        Simulation written(lessonScenario(id, false));
        Simulation fixed(lessonScenario(id, true));
        written.runToEnd();
        fixed.runToEnd();
        std::vector<std::string> texts;
        for (const auto& change : compareSummaries(written.summary(), fixed.summary()))
            texts.push_back(change.text());
        return texts;
    };
    CHECK(changes("visibility-too-short")
        == std::vector<std::string> { "duplicate processings 2 \u2192 0", "receives 7 \u2192 5",
            "empty receives 14 \u2192 17", "key moments 3 \u2192 0" });
    CHECK(changes("short-vs-long-polling") == std::vector<std::string> { "empty receives 580 \u2192 20" });
    CHECK(changes("lambda-partial-batch")
        == std::vector<std::string> {
            "moved to a DLQ 10 \u2192 1", "receives 30 \u2192 12", "deleted 0 \u2192 9", "key moments 3 \u2192 2" });

    Simulation written(lessonScenario("short-vs-long-polling", false));
    Simulation fixed(lessonScenario("short-vs-long-polling", true));
    written.runToEnd();
    fixed.runToEnd();
    const auto json = comparisonJson(written.summary(), fixed.summary());
    CHECK(json["asWritten"]["emptyReceives"] == 580);
    CHECK(json["fixed"]["emptyReceives"] == 20);
    CHECK(json["differences"]
        == nlohmann::json::parse(R"([{"figure": "emptyReceives", "asWritten": 580, "fixed": 20}])"));
}

TEST_CASE("A run's claim in words - for an image's caption line")
{
    const auto claimOf = [](const std::string& id) {
        Simulation simulation(lessonScenario(id, false));
        simulation.runToEnd();
        return simulation.summary().claim();
    };
    CHECK(claimOf("visibility-too-short") == "2 duplicate processings");
    CHECK(claimOf("short-vs-long-polling") == "580 empty receives");
    CHECK(claimOf("lambda-partial-batch") == "10 moved to a DLQ");
    CHECK(claimOf("retention") == "3 expired");
    CHECK(claimOf("fifo-refuses-timers") == "3 refused requests");
    CHECK(claimOf("consumer-crash") == "1 deleted, none twice");
}
