// A lesson's view while its story plays: the frame grows in steps with the story and ends on the whole of it, so the
// action fills the width at every key moment of every lesson.
#include "lifeline/picture/story_frame.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lesson_story.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using picture::storyFrame;
using picture::StoryProgress;
using picture::TimeSpan;

TEST_CASE("story frame: steps of 1.6 from the first key moment, then the whole story with its margin", "[story-frame]")
{
    const TimeSpan script { 1000, 61000 };
    // The first step puts the first key moment (4 s into the story) at 70 %: 5,714 ms, a twentieth of it each side.
    CHECK(storyFrame({ script, 5000, 5000, 5000 }) == TimeSpan { 715, 6999 });
    // Past four fifths of it, the next is 1.6 times as long.
    CHECK(storyFrame({ script, 5000, 6000, 6000 }) == TimeSpan { 543, 10599 });
    // A step that reaches the script's last change gives the whole story: a twentieth of 60 s each side.
    CHECK(storyFrame({ script, 5000, 50000, 50000 }) == TimeSpan { 0, 64000 });
    CHECK(storyFrame({ script, 5000, 61000, 64000 }) == TimeSpan { 0, 64000 });
    // The clock past the whole (an idle tail before the script ends) and a story the user extends grow on in steps.
    CHECK(storyFrame({ script, 5000, 61000, 70000 }) == TimeSpan { 0, 101648 });
    CHECK(storyFrame({ script, 5000, 62000, 62000 }) == TimeSpan { 0, 101648 });
    // A first key moment at the first send: the first step is two seconds.
    CHECK(storyFrame({ script, 1000, 1000, 1000 }) == TimeSpan { 900, 3100 });
    // Nothing sent yet: from 0.
    CHECK(storyFrame({ TimeSpan {}, 0, 0, 0 }) == TimeSpan { 0, 2100 });
    // A stop on a moment at the first send waits until the story fills 40 % of its frame (its first step, 2,200 ms
    // wide with its margins); one further on is shown when it happens.
    CHECK(picture::storyStopAt(script, 1000, 1000) == 1880);
    CHECK(picture::storyStopAt(script, 5000, 5000) == 5000);
}

TEST_CASE("story frame: at every key moment of every lesson the story so far spans at least 40 % of the frame",
    "[story-frame][lessons]")
{
    for (const auto& entry : teach::builtinLessons()) {
        INFO(entry.file);
        const teach::LessonStory story = teach::lessonStory(entry.scenario);
        REQUIRE_FALSE(story.script.empty());
        REQUIRE_FALSE(story.moments.empty());
        sim::Simulation run(entry.scenario);
        for (const analysis::Moment& moment : story.moments) {
            const TimeMs stop = picture::storyStopAt(story.script, story.firstMoment(), moment.at);
            INFO(moment.caption << " at " << moment.at << " ms, shown at " << stop << " ms");
            CHECK(stop - moment.at <= 1000); // a stop waits at most a second for its lanes
            run.advanceTo(std::max(run.now(), stop));
            const TimeSpan told = picture::storySpan(run.engine().run());
            const TimeSpan frame = storyFrame({ story.script, story.firstMoment(), told.to, stop });
            INFO("frame " << frame.from << ".." << frame.to << ", story " << story.script.from << ".."
                          << story.script.to);
            CHECK(frame.from <= moment.at);
            CHECK(stop <= frame.to);
            const TimeMs coloured = std::min(frame.to, stop) - std::max(frame.from, story.script.from);
            CHECK(double(coloured) >= 0.4 * double(frame.to - frame.from));
        }
        run.runToEnd();
        CHECK(picture::storySpan(run.engine().run()) == story.script); // the run the learner watches is this one
    }
}

TEST_CASE("story: an alarm's change after the last message moved ends the story there - lesson 32's alarm is framed",
    "[story-frame]")
{
    const teach::LessonEntry* lesson = teach::findLesson("cloudwatch-dlq-alarm");
    REQUIRE(lesson != nullptr);
    auto fixed = scenario::applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<scenario::Scenario>(fixed));
    sim::Simulation run(std::get<scenario::Scenario>(std::move(fixed)));
    run.runToEnd();
    // The last lane changes at 101 s; the alarm goes to ALARM when its second minute ends.
    CHECK(picture::storySpan(run.engine().run()) == TimeSpan { 2000, 120000 });
    sim::Simulation asWritten(lesson->scenario);
    asWritten.runToEnd();
    CHECK(picture::storySpan(asWritten.engine().run()).to == 101000); // its alarm turned OK at 60 s, inside the story
}
