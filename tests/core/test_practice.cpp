// Practice exercises: each fails as given, passes with its reference answer, and a typical wrong answer fails with
// its own why; an answer the exercise does not offer is refused by name.
#include "lifeline/sim/practice.h"

#include <catch2/catch.hpp>

using namespace lifeline;
using namespace lifeline::sim;

TEST_CASE("practice: every exercise file reads", "[practice]")
{
    CHECK(practiceExercises().size() == practiceSources().size());
    CHECK(practiceExercises().size() == 26);
    for (const auto& [file, text] : practiceSources()) {
        INFO(file);
        const auto read = readExercise(text);
        CHECK(read.ok());
    }
}

TEST_CASE(
    "practice: each exercise fails as given - passes with its solution - its wrong answer gets its why", "[practice]")
{
    for (const Exercise& exercise : practiceExercises()) {
        INFO(exercise.id);
        const auto given = checkAnswer(exercise, {});
        REQUIRE(given.ok());
        CHECK_FALSE(given->passed);
        const auto solved = checkAnswer(exercise, exercise.solution);
        REQUIRE(solved.ok());
        CHECK(solved->passed);
        CHECK(solved->why.starts_with("passed: "));
        const auto wrong = checkAnswer(exercise, exercise.wrong);
        REQUIRE(wrong.ok());
        CHECK_FALSE(wrong->passed);
        CHECK(wrong->why == exercise.wrongWhy);
    }
}

TEST_CASE("practice: the why names the figure and the moment where it went wrong", "[practice]")
{
    const Exercise* exercise = findExercise("visibility-for-the-work");
    REQUIRE(exercise != nullptr);
    const auto result = checkAnswer(*exercise, {});
    REQUIRE(result.ok());
    CHECK(result->toJson()
        == nlohmann::json { { "passed", false }, { "at", 10.0 },
            { "why", "processed twice: 2; each turned visible while a worker was still on it" } });
}

TEST_CASE("practice: a setting not offered - a value out of range - an unknown choice are refused", "[practice]")
{
    const Exercise* visibility = findExercise("visibility-for-the-work");
    REQUIRE(visibility != nullptr);
    const auto unknown = checkAnswer(*visibility, PracticeAnswer { { { "Visibility", 60 } }, "" });
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.message() == "this exercise has no setting \"Visibility\"; its settings: VisibilityTimeout");
    const auto range = checkAnswer(*visibility, PracticeAnswer { { { "VisibilityTimeout", 43201 } }, "" });
    REQUIRE_FALSE(range.ok());
    CHECK(range.message() == "VisibilityTimeout must be from 0 to 43200, got 43201");
    const Exercise* choices = findExercise("fail-fast");
    REQUIRE(choices != nullptr);
    const auto choice = checkAnswer(*choices, PracticeAnswer { {}, "D" });
    REQUIRE_FALSE(choice.ok());
    CHECK(choice.message() == "this exercise has no choice \"D\"");
    CHECK(readExercise(R"({"id": "x", "title": "t", "topic": "t", "question": "q", "hint": "h", "lesson": "nope"})")
              .message()
        == "lesson: no built-in lesson \"nope\"");
}
