#include "practice.h"

#include "command_line.h"
#include "drill.h"
#include "lifeline/teach/practice.h"

#include <charconv>
#include <chrono>
#include <iostream>
#include <optional>
#include <ostream>

namespace lifeline::app {

namespace {

constexpr const char* kPracticeHelp
    = "Usage: lifeline practice                       list the exercises (ID  title, one a line)\n"
      "       lifeline practice ID [--set NAME=VALUE]... [--choose X] [--solution]\n"
      "       lifeline practice --drill N [--seed S]\n"
      "Runs an exercise with your answer and prints {\"passed\": true|false, \"why\": \"...\"}. With no answer it runs "
      "the\n"
      "exercise as given (which fails); --solution runs its reference answer.\n"
      "\n"
      "  --set NAME=VALUE   one of the exercise's settings, a whole number (repeatable)\n"
      "  --choose X         one of the exercise's choices (its id: A, B, ...)\n"
      "  --solution         the exercise's own answer\n"
      "  --drill N          an exam drill: N exercises (1 to 100) drawn across topics, asked in a row (an answer a\n"
      "                     line on standard input), then the score by topic; exit 0 when every answer passed\n"
      "  --seed S           with --drill: the same S asks the same exercises (default: from the clock)\n"
      "  --help             this text\n"
      "\n"
      "Exit status: 0 passed, 1 not passed, 2 bad arguments (an unknown exercise, setting or value).\n"
      "\n"
      "Example:\n"
      "  lifeline practice\n"
      "  lifeline practice visibility-for-the-work --set VisibilityTimeout=60\n";

// A whole number from `text`, between low and high; nothing when it is not one.
std::optional<uint64_t> wholeNumber(const std::string& text, uint64_t low, uint64_t high)
{
    uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < low || value > high)
        return std::nullopt;
    return value;
}

// An answer's options: the solution, a setting, a choice.
OptionTable<teach::PracticeAnswer> answerOptions(const teach::Exercise& exercise)
{
    OptionTable<teach::PracticeAnswer> table { "practice",
        { { "--choose",
              [](teach::PracticeAnswer& answer, const std::string& value) -> std::optional<std::string> {
                  answer.choice = value;
                  return std::nullopt;
              } },
            { "--set",
                [](teach::PracticeAnswer& answer, const std::string& value) -> std::optional<std::string> {
                    // A whole number, negative too: the exercise's check says what SQS says of it.
                    const size_t eq = value.find('=');
                    int64_t number = 0;
                    const char* end = value.data() + value.size();
                    if (eq == std::string::npos || eq == 0
                        || std::from_chars(value.data() + eq + 1, end, number)
                            != std::from_chars_result { end, std::errc() })
                        return "--set takes NAME=VALUE with a whole number, such as VisibilityTimeout=60, got '" + value
                            + "'";
                    answer.settings[value.substr(0, eq)] = number;
                    return std::nullopt;
                } } },
        {}, {} };
    table.flags["--solution"] = [&exercise](teach::PracticeAnswer& answer) { answer = exercise.solution; };
    return table;
}

struct DrillOptions {
    uint64_t seed = 0;
};

const OptionTable<DrillOptions> kDrillOptions { "practice",
    { { "--seed",
        [](DrillOptions& options, const std::string& value) -> std::optional<std::string> {
            const auto given = wholeNumber(value, 0, UINT64_MAX);
            if (!given)
                return "--seed takes a whole number, got '" + value + "'";
            options.seed = *given;
            return std::nullopt;
        } } },
    {}, {} };

int drill(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto count = args.size() > 2 ? wholeNumber(args[2], 1, 100) : std::nullopt;
    if (!count)
        return refuseArguments(
            err, "practice", "--drill takes how many exercises, a whole number from 1 to 100, such as --drill 20");
    const uint64_t now = uint64_t(std::chrono::system_clock::now().time_since_epoch().count()) % 1000000;
    const auto options = parseOptions(kDrillOptions, args, 3, DrillOptions { now });
    if (!options) {
        err << options.message() << '\n';
        return 2;
    }
    return runDrill(size_t(*count), options->seed, std::cin, out);
}

} // namespace

int runPractice(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    for (const auto& a : args)
        if (a == "--help" || a == "-h") {
            out << kPracticeHelp;
            return 0;
        }
    if (args.size() < 2) {
        for (const auto& e : teach::practiceExercises())
            out << e.id << "  " << e.title << '\n';
        return 0;
    }
    if (args[1] == "--drill")
        return drill(args, out, err);
    const teach::Exercise* exercise = teach::findExercise(args[1]);
    if (!exercise)
        return refuseArguments(err, "practice", "no exercise '" + args[1] + "' (see `lifeline practice`)");
    const auto answer = parseOptions(answerOptions(*exercise), args, 2);
    if (!answer) {
        err << answer.message() << '\n';
        return 2;
    }
    const auto result = teach::checkAnswer(*exercise, answer.value());
    if (!result)
        return refuseArguments(err, "practice", result.message());
    out << result->toJson().dump(2) << '\n';
    return result->passed ? 0 : 1;
}

} // namespace lifeline::app
