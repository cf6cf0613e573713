#include "screenshot.h"

#include "command_line.h"
#include "lifeline/support/duration.h"
#include "lifeline/teach/course.h"
#include "quiet_start.h"

#include <QApplication>
#include <QFont>
#include <charconv>
#include <fstream>
#include <ostream>
#include <sstream>

namespace lifeline::app {

const char* const kScreenshotHelp
    = "Usage: lifeline screenshot [--lesson ID | SCENARIO.json] [--at 20s] [--size 1920x1080] [--dark] [--compare]\n"
      "                           [--presenter] [--high-contrast] OUT.png\n"
      "The whole window as a user would see it at a virtual instant, rendered offscreen (no display needed).\n"
      "  --lesson ID            a built-in lesson (default: lesson 1)\n"
      "  --at DURATION          the virtual instant shown (default 20s)\n"
      "  --size WIDTHxHEIGHT    the window's size (default 1920x1080)\n"
      "  --dark                 the dark theme\n"
      "  --high-contrast        the high-contrast theme (white on black)\n"
      "  --compare              Compare with the fix: the lesson as written and fixed, both run to their ends\n"
      "  --presenter            presenter mode\n"
      "  --help                 this text\n"
      "Example:\n"
      "  lifeline screenshot --lesson 8 --at 20s --size 1920x1080 lesson8.png\n";

namespace {
Outcome<scenario::Scenario> scenarioFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Failure { path + ": cannot read the file" };
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = scenario::parseScenario(text.str());
    if (auto* error = std::get_if<scenario::ScenarioError>(&parsed))
        return Failure { path + ": " + error->text() };
    return std::get<scenario::Scenario>(std::move(parsed));
}

std::optional<QSize> windowSize(const std::string& v)
{
    const auto x = v.find('x');
    int w = 0, h = 0;
    if (x == std::string::npos || std::from_chars(v.data(), v.data() + x, w).ptr != v.data() + x
        || std::from_chars(v.data() + x + 1, v.data() + v.size(), h).ptr != v.data() + v.size())
        return std::nullopt;
    if (w < 640 || h < 480 || w > 7680 || h > 4320)
        return std::nullopt;
    return QSize(w, h);
}
} // namespace

namespace {

// What the command line gives: the shot, and the scenario when one was named.
struct ScreenshotArgs {
    ScreenshotCommand command;
    std::optional<scenario::Scenario> scenario;
};

const OptionTable<ScreenshotArgs>& screenshotOptionTable()
{
    using Said = std::optional<std::string>;
    static const OptionTable<ScreenshotArgs> table { "screenshot",
        { { "--lesson",
              [](ScreenshotArgs& a, const std::string& v) -> Said {
                  const auto* lesson = teach::findLessonOnPath(v);
                  if (!lesson)
                      return "--lesson: no lesson '" + v + "' (see `lifeline lessons`)";
                  a.scenario = lesson->scenario;
                  return std::nullopt;
              } },
            { "--at",
                [](ScreenshotArgs& a, const std::string& v) -> Said {
                    const auto at = lifeline::parseDuration(v);
                    if (!at || *at < 0 || *at > 14LL * 86400000)
                        return "--at takes a duration from 0s to 14d such as 20s or 2m, got '" + v + "'";
                    a.command.request.at = *at;
                    return std::nullopt;
                } },
            { "--size",
                [](ScreenshotArgs& a, const std::string& v) -> Said {
                    const auto size = windowSize(v);
                    if (!size)
                        return "--size takes WIDTHxHEIGHT from 640x480 to 7680x4320 such as 1920x1080, got '" + v + "'";
                    a.command.request.size = *size;
                    return std::nullopt;
                } } },
        { { "--dark", [](ScreenshotArgs& a) { a.command.request.dark = true; } },
            { "--compare", [](ScreenshotArgs& a) { a.command.request.compare = true; } },
            { "--presenter", [](ScreenshotArgs& a) { a.command.request.presenter = true; } },
            { "--high-contrast", [](ScreenshotArgs& a) { a.command.request.highContrast = true; } } },
        [](ScreenshotArgs& a, const std::string& word) -> Said {
            if (word.ends_with(".json") && !a.scenario) {
                auto read = scenarioFile(word);
                if (!read)
                    return read.message();
                a.scenario = std::move(read).value();
            } else if (word.ends_with(".png") && a.command.out.empty()) {
                a.command.out = word;
            } else {
                return "unexpected argument '" + word + "': a scenario (.json) and the image (.png) are expected";
            }
            return std::nullopt;
        },
        false };
    return table;
}

} // namespace

Outcome<ScreenshotCommand> parseScreenshot(const std::vector<std::string>& args)
{
    const auto failure = [](const std::string& why) { return Failure { "lifeline screenshot: " + why }; };
    auto parsed = parseOptions(screenshotOptionTable(), args, 1);
    if (!parsed)
        return Failure { parsed.message() };
    ScreenshotCommand command = std::move(parsed.value().command);
    std::optional<scenario::Scenario> scenario = std::move(parsed.value().scenario);
    if (command.out.empty())
        return failure("where to write the image: give OUT.png (see `lifeline screenshot --help`)");
    if (scenario)
        command.request.scenario = std::move(*scenario);
    else
        command.request.scenario = teach::findLesson("1")->scenario;
    if (command.request.compare
        && (!command.request.scenario.lesson || command.request.scenario.lesson->fixPatch.empty()))
        return failure("--compare needs a lesson with a fix");
    return command;
}

int runScreenshot(int argc, char** argv, std::ostream& out, std::ostream& err)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() >= 2 && (args[1] == "--help" || args[1] == "-h")) {
        out << kScreenshotHelp;
        return 0;
    }
    auto command = parseScreenshot(args);
    if (!command) {
        err << command.message() << '\n';
        return 2;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen"); // rendered, never shown: no display needed
    const app::QuietlyStarted<QApplication> application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lifeline")); // no settings read or written: the defaults
    ui::WindowShot shot(command.value().request);
    const QString path = QString::fromStdString(command.value().out);
    if (!shot.image().save(path, "PNG")) {
        err << "lifeline screenshot: cannot write '" << command.value().out << "'\n";
        return 1;
    }
    out << "Wrote " << command.value().out << " (" << command.value().request.size.width() << "x"
        << command.value().request.size.height() << ")\n";
    return 0;
}

} // namespace lifeline::app
