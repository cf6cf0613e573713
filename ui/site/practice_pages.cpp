#include "site/practice_pages.h"

#include "export/web_export.h"
#include "lifeline/sim/simulation.h"

#include <QString>
#include <algorithm>
#include <set>

namespace lifeline::ui {

namespace {

using json = nlohmann::json;

std::string answerLabel(const teach::Exercise& exercise, const teach::PracticeAnswer& answer)
{
    for (const auto& choice : exercise.choices)
        if (choice.id == answer.choice)
            return choice.id + ". " + choice.text;
    std::string label;
    for (const auto& [name, value] : answer.settings) {
        std::string unit;
        for (const auto& control : exercise.controls)
            if (control.name == name)
                unit = control.unit.empty() ? "" : " " + control.unit;
        label += (label.empty() ? "" : ", ") + name + " = " + std::to_string(value) + unit;
    }
    return label;
}

} // namespace

std::string practicePageName(const teach::Exercise& exercise)
{
    return "practice-" + exercise.id + ".html";
}

std::vector<teach::PracticeAnswer> pageAnswers(const teach::Exercise& exercise)
{
    std::vector<teach::PracticeAnswer> answers;
    for (const auto& choice : exercise.choices)
        answers.push_back({ {}, choice.id });
    if (!exercise.choices.empty() || exercise.controls.empty())
        return answers;
    const teach::PracticeControl& control = exercise.controls.front();
    std::set<int64_t> values { control.min, control.max };
    if (exercise.right.setting == control.name) {
        values.insert(std::clamp(exercise.right.from, control.min, control.max));
        values.insert(std::clamp(exercise.right.to, control.min, control.max));
        if (exercise.right.from - 1 >= control.min)
            values.insert(exercise.right.from - 1); // just wrong, below
        if (exercise.right.to + 1 <= control.max)
            values.insert(exercise.right.to + 1); // just wrong, above
    }
    for (const teach::PracticeAnswer* declared : { &exercise.solution, &exercise.wrong })
        if (const auto it = declared->settings.find(control.name); it != declared->settings.end())
            values.insert(it->second);
    for (const int64_t value : values)
        answers.push_back({ { { control.name, value } }, {} });
    return answers;
}

Outcome<> writePracticePage(const teach::Exercise& exercise, const std::filesystem::path& dir, const json& nav)
{
    WebPageRequest request;
    request.path = QString::fromStdString((dir / practicePageName(exercise)).string());
    request.title = QString::fromStdString("Practice: " + exercise.title);
    request.claim = QString::fromStdString(exercise.topic);
    request.nav = nav;
    request.glossaryPage = "glossary.html";
    std::vector<json> runs;
    json answers = json::array();
    if (exercise.isQuestion()) { // no run: each choice with its reason, and the AWS page they come from
        for (const teach::PracticeAnswer& answer : pageAnswers(exercise)) {
            const auto verdict = teach::checkAnswer(exercise, answer);
            answers.push_back({ { "label", answerLabel(exercise, answer) }, { "run", -1 },
                { "passed", verdict && verdict->passed }, { "why", verdict ? verdict->why : verdict.message() } });
        }
        request.practice = { { "question", exercise.question }, { "hint", exercise.hint }, { "answers", answers },
            { "source", exercise.source } };
        return writeWebPage(runs, request);
    }
    // The situation as it is, then each answer's run with its verdict.
    const auto situation = teach::answeredScenario(exercise, {});
    if (!situation)
        return Failure { "exercise " + exercise.id + ": " + situation.message() };
    const auto run = [&](scenario::Scenario scenario, const QString& label) {
        const std::vector<analysis::MomentSpec> moments
            = scenario.lesson ? scenario.lesson->moments : std::vector<analysis::MomentSpec> {};
        sim::Simulation simulation(std::move(scenario));
        simulation.advanceTo(exercise.until.value_or(simulation.duration()));
        runs.push_back(webRunData(simulation.engine().run(), moments, label));
    };
    run(situation.value(), QStringLiteral("The situation"));
    for (const teach::PracticeAnswer& answer : pageAnswers(exercise)) {
        const auto scenario = teach::answeredScenario(exercise, answer);
        const auto verdict = teach::checkAnswer(exercise, answer);
        const std::string label = answerLabel(exercise, answer);
        if (!scenario || !verdict) { // an answer AWS would refuse has no run: its verdict says why
            answers.push_back({ { "label", label }, { "run", -1 }, { "passed", false },
                { "why", scenario ? verdict.message() : scenario.message() } });
            continue;
        }
        run(scenario.value(), QString::fromStdString("Your answer: " + label));
        answers.push_back(
            { { "label", label }, { "run", runs.size() - 1 }, { "passed", verdict->passed }, { "why", verdict->why } });
    }
    request.practice = { { "question", exercise.question }, { "hint", exercise.hint }, { "answers", answers } };
    return writeWebPage(runs, request);
}

} // namespace lifeline::ui
