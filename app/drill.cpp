#include "drill.h"

#include "lifeline/teach/drill.h"
#include "lifeline/teach/glossary.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace lifeline::app {

namespace {

std::string trimmed(std::string text)
{
    const auto space = [](unsigned char c) { return std::isspace(c) != 0; };
    text.erase(text.begin(), std::find_if_not(text.begin(), text.end(), space));
    text.erase(std::find_if_not(text.rbegin(), text.rend(), space).base(), text.end());
    return text;
}

// A line from the learner; nothing at the end of input.
std::optional<std::string> readLine(std::istream& in)
{
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    return trimmed(line);
}

// The choices in the drill's order, lettered by position; the answer is the chosen one's own id.
std::optional<std::string> askChoice(const teach::DrillQuestion& question, std::istream& in, std::ostream& out)
{
    const auto& choices = question.choices;
    std::string letters;
    for (size_t i = 0; i < choices.size(); ++i) {
        out << "  " << teach::drillLetter(i) << ") " << choices[i]->text << '\n';
        letters += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + teach::drillLetter(i);
    }
    for (;;) {
        out << "Your answer (" << letters << "): " << std::flush;
        auto line = readLine(in);
        if (!line)
            return std::nullopt;
        std::transform(
            line->begin(), line->end(), line->begin(), [](unsigned char c) { return char(std::toupper(c)); });
        for (size_t i = 0; i < choices.size(); ++i)
            if (teach::drillLetter(i) == *line)
                return choices[i]->id;
        out << "Answer with " << letters << ".\n";
    }
}

std::optional<int64_t> askSetting(const teach::PracticeControl& control, std::istream& in, std::ostream& out)
{
    const std::string unit = control.unit.empty() ? "" : " " + control.unit;
    for (;;) {
        out << control.name << " (" << control.min << " to " << control.max << unit << "): " << std::flush;
        const auto line = readLine(in);
        if (!line)
            return std::nullopt;
        int64_t value = 0;
        const auto [end, error] = std::from_chars(line->data(), line->data() + line->size(), value);
        if (error == std::errc() && end == line->data() + line->size() && value >= control.min && value <= control.max)
            return value;
        out << control.name << " takes a whole number from " << control.min << " to " << control.max << unit << ".\n";
    }
}

std::optional<teach::PracticeAnswer> ask(const teach::DrillQuestion& question, std::istream& in, std::ostream& out)
{
    const teach::Exercise& e = *question.exercise;
    teach::PracticeAnswer answer;
    if (!e.choices.empty()) {
        auto choice = askChoice(question, in, out);
        if (!choice)
            return std::nullopt;
        answer.choice = *choice;
        return answer;
    }
    for (const auto& control : e.controls) {
        const auto value = askSetting(control, in, out);
        if (!value)
            return std::nullopt;
        answer.settings[control.name] = *value;
    }
    return answer;
}

// The command that runs the same answer again.
std::string replay(const teach::DrillAnswer& a)
{
    std::string command = "lifeline practice " + a.exercise->id;
    if (!a.answer.choice.empty())
        command += " --choose " + a.answer.choice;
    for (const auto& [name, value] : a.answer.settings)
        command += " --set " + name + "=" + std::to_string(value);
    return command;
}

void printScore(const std::vector<teach::DrillAnswer>& answers, size_t asked, std::ostream& out)
{
    const auto passed = std::count_if(answers.begin(), answers.end(), [](const auto& a) { return a.passed; });
    out << "\nScore: " << passed << " of " << answers.size();
    if (answers.size() < asked)
        out << " (" << asked - answers.size() << " not answered)";
    out << '\n';
    for (const auto& [topic, score] : teach::scoreByTopic(answers)) {
        out << "  " << topic << std::string(topic.size() < 22 ? 22 - topic.size() : 1, ' ') << score.passed << " of "
            << score.asked;
        // What to review for a topic missed: its lessons, each as the command that plays it.
        for (size_t i = 0; i < score.review.size(); ++i)
            out << (i == 0 ? "   review: " : ", ") << "lifeline run --lesson " << score.review[i];
        out << '\n';
    }
    if (passed == std::ptrdiff_t(answers.size()))
        return;
    out << "Missed (the window's Lessons > Practice shows each run; each command here runs your answer again, "
           "its letter as `lifeline practice` lists the choices):\n";
    for (const auto& a : answers)
        if (!a.passed)
            out << "  " << replay(a) << '\n';
}

} // namespace

int runDrill(size_t count, uint64_t seed, std::istream& in, std::ostream& out)
{
    const auto drill = teach::drawDrill(count, seed);
    out << "Exam drill: " << drill.size() << " exercises across topics (seed " << seed << ": --seed " << seed
        << " asks the same ones)\n";
    std::vector<teach::DrillAnswer> answers;
    for (size_t i = 0; i < drill.size(); ++i) {
        const teach::Exercise& e = *drill[i].exercise;
        out << "\nQuestion " << i + 1 << " of " << drill.size() << " \u00b7 " << e.topic << " \u00b7 " << e.id << '\n'
            << e.title << '\n'
            << teach::withoutLinks(e.question) << '\n';
        const auto answer = ask(drill[i], in, out);
        if (!answer) {
            out << "\n(the answers ended: the drill stops here)\n";
            break;
        }
        const auto result = teach::checkAnswer(e, *answer);
        const bool passed = result && result->passed;
        out << (passed ? "Right: " : "Not yet: ") << (result ? result->why : result.message()) << '\n';
        if (result && !result->source.empty())
            out << "Source: " << result->source << '\n';
        answers.push_back(teach::DrillAnswer { &e, *answer, passed });
    }
    printScore(answers, drill.size(), out);
    const bool all = answers.size() == drill.size()
        && std::all_of(answers.begin(), answers.end(), [](const auto& a) { return a.passed; });
    return all ? 0 : 1;
}

} // namespace lifeline::app
