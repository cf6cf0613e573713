#include "lifeline/teach/practice.h"

#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "lifeline/teach/lessons.h"

#include <algorithm>
#include <stdexcept>

namespace lifeline::teach {

namespace {

using nlohmann::json;

// A problem in an exercise file: carried to readExercise's boundary, where it becomes a Failure.
struct Problem : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string textOf(const json& v, const std::string& key, bool required = true)
{
    const auto it = v.find(key);
    if (it == v.end()) {
        if (required)
            throw Problem(key + ": is required");
        return {};
    }
    if (!it->is_string())
        throw Problem(key + ": must be a string, got " + it->dump());
    return it->get<std::string>();
}

PracticeAnswer answerOf(const json& v, const std::string& path)
{
    PracticeAnswer answer;
    if (!v.is_object())
        throw Problem(path + ": must be {\"set\": {...}} or {\"choose\": \"X\"}");
    if (const auto set = v.find("set"); set != v.end()) {
        if (!set->is_object())
            throw Problem(path + ".set: must be an object of setting names and whole numbers");
        for (const auto& [name, value] : set->items()) {
            if (!value.is_number_integer())
                throw Problem(path + ".set." + name + ": must be a whole number, got " + value.dump());
            answer.settings[name] = value.get<int64_t>();
        }
    }
    if (v.contains("choose"))
        answer.choice = textOf(v, "choose");
    return answer;
}

PracticeCheck checkOf(const json& v, size_t i)
{
    const std::string path = "check[" + std::to_string(i) + "]";
    if (!v.is_object())
        throw Problem(path + ": must be an object with \"figure\", \"atMost\" or \"atLeast\", and \"why\"");
    PracticeCheck check;
    check.figure = textOf(v, "figure");
    check.why = textOf(v, "why");
    if (v.contains("atMost"))
        check.atMost = v["atMost"].get<int64_t>();
    if (v.contains("atLeast"))
        check.atLeast = v["atLeast"].get<int64_t>();
    if (!check.atMost && !check.atLeast)
        throw Problem(path + ": needs \"atMost\" or \"atLeast\"");
    return check;
}

PracticeRight rightOf(const json& v, const Exercise& e)
{
    const auto it = v.find("right");
    if (it == v.end())
        throw Problem("right: is required: the choices that are right, or the setting's range that is");
    PracticeRight right;
    if (!e.choices.empty()) {
        if (!it->contains("choose") || !(*it)["choose"].is_array() || (*it)["choose"].empty())
            throw Problem("right.choose: must list the ids of the right choices");
        for (const auto& id : (*it)["choose"]) {
            const bool known = id.is_string() && std::any_of(e.choices.begin(), e.choices.end(), [&](const auto& c) {
                return c.id == id.get<std::string>();
            });
            if (!known)
                throw Problem("right.choose: " + id.dump() + " is not one of the choices");
            right.choices.push_back(id.get<std::string>());
        }
        return right;
    }
    const auto set = it->find("set");
    if (set == it->end() || !set->is_object() || set->size() != 1)
        throw Problem("right.set: must name the setting and its right range: {\"Name\": {\"from\": a, \"to\": b}}");
    const std::string name = set->begin().key(); // not a structured binding: clang 14 cannot capture those
    const json& range = set->begin().value();
    const auto control
        = std::find_if(e.controls.begin(), e.controls.end(), [&](const PracticeControl& c) { return c.name == name; });
    if (control == e.controls.end())
        throw Problem("right.set." + name + ": the exercise has no such setting");
    if (!range.is_object() || !range.value("from", json()).is_number_integer()
        || !range.value("to", json()).is_number_integer())
        throw Problem("right.set." + name + ": must be {\"from\": a, \"to\": b} with whole numbers");
    right.setting = name;
    right.from = range["from"].get<int64_t>();
    right.to = range["to"].get<int64_t>();
    if (right.from > right.to || right.from < control->min || right.to > control->max)
        throw Problem("right.set." + name + ": must be a range inside " + std::to_string(control->min) + "-"
            + std::to_string(control->max));
    return right;
}

void readControls(const json& v, Exercise& e)
{
    for (const auto& c : v.value("controls", json::array())) {
        PracticeControl control { textOf(c, "name"), textOf(c, "path"), c.value("min", int64_t(0)),
            c.value("max", int64_t(0)), c.value("unit", std::string()) };
        if (control.max < control.min)
            throw Problem("controls." + control.name + ": max is below min");
        e.controls.push_back(std::move(control));
    }
    for (const auto& c : v.value("choices", json::array()))
        e.choices.push_back(PracticeChoice { textOf(c, "id"), textOf(c, "text"), c.value("patch", json::array()), {} });
    if (e.controls.empty() == e.choices.empty())
        throw Problem("an exercise has either \"controls\" or \"choices\"");
}

std::string practisedLesson(const json& v)
{
    const LessonEntry* lesson = findLesson(textOf(v, "practises"));
    if (!lesson)
        throw Problem("practises: no built-in lesson \"" + textOf(v, "practises") + "\"");
    return lesson->scenario.lesson->id;
}

// A question with no run: each choice says why it is right or wrong, the source says where AWS says so, and a
// wrong answer's why is its choice's own.
Exercise questionOf(const json& v, Exercise e)
{
    if (!v.contains("practises"))
        throw Problem("practises: a question names the lesson it belongs to");
    e.practises = practisedLesson(v);
    for (const char* key : { "controls", "check", "patch", "until", "passed" })
        if (v.contains(key))
            throw Problem(
                std::string(key) + ": a question has no run (give it a \"scenario\" or \"lesson\" to have one)");
    const json choices = v.value("choices", json::array());
    if (!choices.is_array() || choices.size() < 2)
        throw Problem("choices: a question lists at least two choices");
    for (size_t i = 0; i < choices.size(); ++i) {
        const json& c = choices[i];
        if (c.contains("patch"))
            throw Problem("choices[" + std::to_string(i) + "].patch: a question's choice has a why, not a patch");
        e.choices.push_back(PracticeChoice { textOf(c, "id"), textOf(c, "text"), json::array(), textOf(c, "why") });
    }
    e.source = textOf(v, "source");
    if (!e.source.starts_with("https://docs.aws.amazon.com/") && !e.source.starts_with("https://aws.amazon.com/"))
        throw Problem("source: must be an AWS page (https://docs.aws.amazon.com/...), got \"" + e.source + "\"");
    e.right = rightOf(v, e);
    e.solution = answerOf(v.value("solution", json::object()), "solution");
    if (!v.contains("wrong"))
        throw Problem("wrong: is required: a typical wrong choice");
    e.wrong = answerOf(v["wrong"], "wrong");
    e.wrongWhy = textOf(v["wrong"], "why");
    if (!e.solution.isRight(e.right))
        throw Problem("solution: is not among the right answers");
    if (e.wrong.isRight(e.right))
        throw Problem("wrong: is among the right answers");
    const auto wrongChoice = std::find_if(
        e.choices.begin(), e.choices.end(), [&](const PracticeChoice& c) { return c.id == e.wrong.choice; });
    if (wrongChoice == e.choices.end() || wrongChoice->why != e.wrongWhy)
        throw Problem("wrong.why: must be the why of the choice it names");
    return e;
}

Exercise exerciseOf(const json& v)
{
    Exercise e;
    e.id = textOf(v, "id");
    e.title = textOf(v, "title");
    e.topic = textOf(v, "topic");
    e.question = textOf(v, "question");
    e.hint = textOf(v, "hint");
    if (!v.contains("lesson") && !v.contains("scenario"))
        return questionOf(v, std::move(e));
    if (v.contains("lesson")) { // the situation is a built-in lesson as written
        const LessonEntry* lesson = findLesson(textOf(v, "lesson"));
        if (!lesson)
            throw Problem("lesson: no built-in lesson \"" + textOf(v, "lesson") + "\"");
        e.lesson = lesson->scenario.lesson->id;
        e.scenario = lesson->scenario.source;
        if (v.contains("patch")) // the situation changed a little from the lesson's
            e.scenario = e.scenario.patch(v["patch"]);
    } else {
        e.scenario = v["scenario"];
        if (!e.scenario.is_object())
            throw Problem("scenario: must be a scenario object");
    }
    // The lesson whose idea it practises: its situation's lesson, or for a scenario of its own the one it names, so
    // that every exercise has a place in the course (a block's progress counts it, a drill's score sends there).
    e.practises = e.lesson;
    if (v.contains("practises"))
        e.practises = practisedLesson(v);
    if (e.practises.empty())
        throw Problem("practises: an exercise with a scenario of its own names the lesson it practises");
    if (v.contains("until")) {
        e.until = parseDuration(textOf(v, "until"));
        if (!e.until)
            throw Problem("until: must be a duration such as \"5m\"");
    }
    readControls(v, e);
    const json checks = v.value("check", json::array());
    for (size_t i = 0; i < checks.size(); ++i)
        e.checks.push_back(checkOf(checks[i], i));
    if (e.checks.empty())
        throw Problem("check: must list at least one condition");
    e.right = rightOf(v, e);
    e.passed = textOf(v, "passed");
    e.solution = answerOf(v.value("solution", json::object()), "solution");
    e.wrong = answerOf(v.value("wrong", json::object()), "wrong");
    e.wrongWhy = v.contains("wrong") ? textOf(v["wrong"], "why") : std::string();
    if (!e.solution.isRight(e.right))
        throw Problem("solution: is not among the right answers");
    if (v.contains("wrong") && e.wrong.isRight(e.right))
        throw Problem("wrong: is among the right answers");
    return e;
}

// The figures of the consumers named NAME-1, NAME-2, ... (one spec's `count`), added up; null when there are none.
json addedUp(const json& consumers, const std::string& name)
{
    json sum;
    for (const json& consumer : consumers) {
        const std::string own = consumer.value("name", "");
        if (!own.starts_with(name + "-") || own.size() == name.size() + 1
            || own.find_first_not_of("0123456789", name.size() + 1) != std::string::npos)
            continue;
        if (sum.is_null())
            sum = json::object();
        for (const auto& [figure, value] : consumer.items())
            if (value.is_number_integer())
                sum[figure] = sum.value(figure, int64_t(0)) + value.get<int64_t>();
    }
    return sum;
}

// Where the key at `start` ends: the longest run of the name's pieces that `at` holds (names may hold dots:
// "KMS.AccessDeniedException", "orders.fifo"), else the next piece.
size_t keyEnd(const json& at, const std::string& name, size_t start)
{
    if (at.is_object())
        for (size_t end = name.size();;) {
            if (at.contains(name.substr(start, end - start)))
                return end;
            const size_t dot = name.rfind('.', end - 1);
            if (dot == std::string::npos || dot <= start)
                break;
            end = dot;
        }
    return std::min(name.find('.', start), name.size());
}

// A queue, a consumer or an error code the run does not list: nothing was sent, received or refused there.
bool countsZeroWhenAbsent(const std::string& name)
{
    return name.starts_with("queues.") || name.starts_with("consumers.") || name.starts_with("errorsByCode.");
}

int64_t figure(const analysis::RunSummary& summary, const std::string& name)
{
    if (name == "errors") {
        int64_t n = 0;
        for (const auto& [code, count] : summary.errorsByCode)
            n += count;
        return n;
    }
    if (name == "moments")
        return int64_t(summary.moments.size());
    if (name == "warnings")
        return int64_t(summary.warnings.size());
    // A summary's key, or a dotted path into it ("peakDepth.delayed"); a consumer by its name ("consumers.billing.
    // finished"). What the run does not list counts 0 (countsZeroWhenAbsent).
    const json all = summary.toJson();
    json added; // consumers NAME-1, NAME-2, ... of one spec, their figures added up
    const json* at = &all;
    for (size_t start = 0; start <= name.size();) {
        const size_t dot = keyEnd(*at, name, start);
        const std::string key = name.substr(start, dot - start);
        const json* next = nullptr;
        if (const auto it = at->is_object() ? at->find(key) : at->end(); it != at->end())
            next = &*it;
        else if (at->is_array()) {
            const auto named
                = std::find_if(at->begin(), at->end(), [&](const json& item) { return item.value("name", "") == key; });
            if (named != at->end())
                next = &*named;
            else if ((added = addedUp(*at, key)).is_object())
                next = &added;
        }
        if (!next && start > 0 && countsZeroWhenAbsent(name))
            return 0;
        if (!next)
            throw Problem("check: no figure \"" + name + "\" in a run's summary");
        at = next;
        start = dot + 1;
    }
    if (!at->is_number_integer())
        throw Problem("check: the figure \"" + name + "\" is not a number");
    return at->get<int64_t>();
}

// {value} is the check's figure; {name} any figure of the summary (figure() names what it reads). A figure in
// milliseconds (its name ends in "Ms") reads as a duration, "2 min 16 s", as a learner says it.
std::string fill(std::string text, const analysis::RunSummary& summary, std::optional<int64_t> value = std::nullopt,
    const std::string& valueName = {})
{
    for (size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open)) {
        const size_t close = text.find('}', open);
        if (close == std::string::npos)
            break;
        const std::string name = text.substr(open + 1, close - open - 1);
        const bool isValue = name == "value" && value;
        const int64_t n = isValue ? *value : figure(summary, name);
        const std::string number
            = (isValue ? valueName : name).ends_with("Ms") ? lifeline::describeDuration(n) : std::to_string(n);
        text.replace(open, close - open + 1, number);
        open += number.size();
    }
    return text;
}

} // namespace

bool PracticeAnswer::isRight(const PracticeRight& right) const
{
    if (!right.choices.empty())
        return std::find(right.choices.begin(), right.choices.end(), choice) != right.choices.end();
    const auto value = settings.find(right.setting);
    return value != settings.end() && value->second >= right.from && value->second <= right.to;
}

json PracticeResult::toJson() const
{
    json out { { "passed", passed }, { "why", why } };
    if (at)
        out["at"] = double(*at) / 1000.0;
    if (!source.empty())
        out["source"] = source;
    return out;
}

Outcome<Exercise> readExercise(const std::string& jsonText)
{
    try {
        return exerciseOf(json::parse(jsonText));
    } catch (const Problem& problem) {
        return Failure { problem.what() };
    } catch (const json::exception& e) { // not JSON, a patch that does not apply, a value of the wrong type
        return Failure { std::string("cannot be read: ") + e.what() };
    }
}

const std::vector<Exercise>& practiceExercises()
{
    static const std::vector<Exercise> exercises = [] {
        std::vector<Exercise> out;
        for (const auto& [file, text] : practiceSources())
            if (auto exercise = readExercise(text))
                out.push_back(std::move(exercise.value()));
        return out;
    }();
    return exercises;
}

const Exercise* findExercise(const std::string& id)
{
    const auto& all = practiceExercises();
    const auto it = std::find_if(all.begin(), all.end(), [&](const Exercise& e) { return e.id == id; });
    return it == all.end() ? nullptr : &*it;
}

Outcome<scenario::Scenario> answeredScenario(const Exercise& exercise, const PracticeAnswer& answer)
{
    if (exercise.isQuestion())
        return Failure { "exercise " + exercise.id + " is a question: it has no run" };
    json scenario = exercise.scenario;
    for (const auto& setting : answer.settings) { // not a structured binding: clang 14 cannot capture those
        const std::string& name = setting.first;
        const int64_t value = setting.second;
        const auto control = std::find_if(exercise.controls.begin(), exercise.controls.end(),
            [&](const PracticeControl& c) { return c.name == name; });
        if (control == exercise.controls.end()) {
            std::string known;
            for (const auto& c : exercise.controls)
                known += (known.empty() ? "" : ", ") + c.name;
            return Failure { "this exercise has no setting \"" + name + "\""
                + (known.empty() ? "" : "; its settings: " + known) };
        }
        if (value < control->min || value > control->max)
            return Failure { name + " must be from " + std::to_string(control->min) + " to "
                + std::to_string(control->max) + ", got " + std::to_string(value) };
        try {
            scenario
                = scenario.patch(json::array({ { { "op", "add" }, { "path", control->path }, { "value", value } } }));
        } catch (const json::exception& e) {
            return Failure { "the setting " + name + " does not apply to this exercise's scenario: " + e.what() };
        }
    }
    if (!answer.choice.empty()) {
        const auto choice = std::find_if(exercise.choices.begin(), exercise.choices.end(),
            [&](const PracticeChoice& c) { return c.id == answer.choice; });
        if (choice == exercise.choices.end())
            return Failure { "this exercise has no choice \"" + answer.choice + "\"" };
        scenario = scenario.patch(choice->patch);
    }
    auto parsed = scenario::parseScenario(scenario);
    if (auto* error = std::get_if<scenario::ScenarioError>(&parsed))
        return Failure { "the answer makes a scenario that does not load: " + error->text() };
    return std::get<scenario::Scenario>(std::move(parsed));
}

namespace {

// A question's answer: its choice's own reason, right or wrong; no answer is not yet right.
Outcome<PracticeResult> judgeQuestion(const Exercise& exercise, const PracticeAnswer& answer)
{
    if (!answer.settings.empty())
        return Failure { "this exercise has no setting \"" + answer.settings.begin()->first
            + "\": it is a question, answered with a choice" };
    PracticeResult result;
    result.source = exercise.source;
    if (answer.choice.empty()) {
        result.why = "no choice yet: choose the service that fits";
        return result;
    }
    const auto choice = std::find_if(exercise.choices.begin(), exercise.choices.end(),
        [&](const PracticeChoice& c) { return c.id == answer.choice; });
    if (choice == exercise.choices.end())
        return Failure { "this exercise has no choice \"" + answer.choice + "\"" };
    result.passed = answer.isRight(exercise.right);
    result.why = result.passed ? "passed: " + choice->why : choice->why;
    return result;
}

} // namespace

Outcome<PracticeResult> checkAnswer(const Exercise& exercise, const PracticeAnswer& answer)
{
    if (exercise.isQuestion())
        return judgeQuestion(exercise, answer);
    auto scenario = answeredScenario(exercise, answer);
    if (!scenario)
        return scenario.error();
    sim::Simulation run(std::move(scenario.value()));
    run.advanceTo(exercise.until.value_or(run.duration()));
    if (run.stall())
        return Failure { "this answer's run makes no progress: " + *run.stall() };
    const analysis::RunSummary summary = run.summary();
    PracticeResult result;
    try {
        for (const PracticeCheck& check : exercise.checks) {
            const int64_t value = figure(summary, check.figure);
            if ((check.atMost && value > *check.atMost) || (check.atLeast && value < *check.atLeast)) {
                result.why = fill(check.why, summary, value, check.figure);
                if (!summary.moments.empty())
                    result.at = summary.moments.front().at;
                return result;
            }
        }
        result.passed = true;
        result.why = "passed: " + fill(exercise.passed, summary);
    } catch (const Problem& problem) {
        return Failure { problem.what() };
    }
    return result;
}

} // namespace lifeline::teach
