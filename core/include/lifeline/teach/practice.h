// Practice: exercises that check the learner's fix. Each is a situation (a scenario that shows a problem, often a
// built-in lesson's), a question, what the learner may change (named settings with ranges, or a multiple choice)
// and a check computed from the run with the learner's answer ("no message processed twice"). Exercises are data
// (resources/practice/*.json, compiled in; the format in docs/practice-format.md). A few are questions with no run:
// the exam's choices between services (SQS, SNS, EventBridge, Kinesis, Amazon MQ) that no SQS run can show, each
// choice with the reason it is right or wrong and the AWS page that says so.
#pragma once

#include "lifeline/scenario/scenario.h"
#include "lifeline/support/outcome.h"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lifeline::teach {

// A setting the learner may change: its name, where it goes in the scenario (a JSON Pointer) and its range.
struct PracticeControl {
    std::string name; // "VisibilityTimeout"
    std::string path; // "/queues/0/attributes/VisibilityTimeout"
    int64_t min = 0;
    int64_t max = 0;
    std::string unit; // "s", "receives", ""
};

struct PracticeChoice {
    std::string id; // "A"
    std::string text;
    nlohmann::json patch; // JSON Patch applied to the scenario when chosen
    std::string why; // a question's choice: why it is right or wrong (a choice with a run is judged by its checks)
};

// One condition on the run's figures (the summary's keys, "errors" for every refused request); `why` says what
// went wrong, {value} standing for the figure.
struct PracticeCheck {
    std::string figure;
    std::optional<int64_t> atMost;
    std::optional<int64_t> atLeast;
    std::string why;
};

// Which answers are right, declared apart from the checks so a test can hold the checks to it: the choices that
// are right, or for the exercise's setting the range of values that are (both ends included).
struct PracticeRight {
    std::vector<std::string> choices;
    std::string setting;
    int64_t from = 0;
    int64_t to = 0;
};

struct PracticeAnswer {
    std::map<std::string, int64_t> settings; // by control name
    std::string choice; // a choice's id
    bool empty() const { return settings.empty() && choice.empty(); }
    bool isRight(const PracticeRight& right) const;
};

struct Exercise {
    std::string id;
    std::string title;
    std::string topic;
    std::string question;
    std::string hint;
    std::string lesson; // the built-in lesson whose run is the situation; empty for a scenario of its own
    std::string practises; // the lesson whose idea it practises (its place in the course): `lesson`, or named
    nlohmann::json scenario; // the situation as a scenario file
    std::optional<TimeMs> until; // how long the check runs it (default: the scenario's duration)
    std::vector<PracticeControl> controls;
    std::vector<PracticeChoice> choices;
    std::vector<PracticeCheck> checks;
    PracticeRight right;
    std::string passed; // what a passing run shows, in the rule's words; {figure} placeholders from its summary
    PracticeAnswer solution; // the reference answer: it passes
    PracticeAnswer wrong; // a typical wrong answer: it fails, with
    std::string wrongWhy; // this why
    std::string source; // a question's: the AWS page its reasons come from
    // A question has no situation to run: its choices carry their own reasons.
    bool isQuestion() const { return scenario.is_null(); }
};

struct PracticeResult {
    bool passed = false;
    std::string why; // what went wrong, or what the passing run shows
    std::optional<TimeMs> at; // where on the timeline it went wrong (the run's first key moment), if anywhere
    std::string source; // a question's: the AWS page its reason comes from
    nlohmann::json toJson() const;
};

// Every built-in exercise, in file order (a file that does not read is a build defect: the tests check).
const std::vector<Exercise>& practiceExercises();
const Exercise* findExercise(const std::string& id);
const std::vector<std::pair<std::string, std::string>>& practiceSources();
// Reads one exercise file; a problem names its field.
Outcome<Exercise> readExercise(const std::string& jsonText);

// The scenario with the answer applied (a question has none: a Failure saying so); a setting the exercise does not
// offer, a value out of its range or an unknown choice is a Failure naming it (and nothing runs).
Outcome<scenario::Scenario> answeredScenario(const Exercise& exercise, const PracticeAnswer& answer);
// Runs the exercise with the answer and checks it.
Outcome<PracticeResult> checkAnswer(const Exercise& exercise, const PracticeAnswer& answer);

} // namespace lifeline::teach
