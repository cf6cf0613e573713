#include "screenshot.h"

#include "lifeline/support/duration.h"
#include "lifeline/teach/lessons.h"
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
      "                           [--presenter] OUT.png\n"
      "The whole window as a user would see it at a virtual instant, rendered offscreen (no display needed).\n"
      "  --lesson ID            a built-in lesson (default: lesson 1)\n"
      "  --at DURATION          the virtual instant shown (default 20s)\n"
      "  --size WIDTHxHEIGHT    the window's size (default 1920x1080)\n"
      "  --dark                 the dark theme\n"
      "  --compare              Compare with the fix: the lesson as written and fixed, both run to their ends\n"
      "  --presenter            presenter mode\n"
      "  --help                 this text\n"
      "Example:\n"
      "  lifeline screenshot --lesson 8 --at 20s --size 1920x1080 lesson8.png\n";

namespace {
Outcome<sim::Scenario> scenarioFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Failure { path + ": cannot read the file" };
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = sim::parseScenario(text.str());
    if (auto* error = std::get_if<sim::ScenarioError>(&parsed))
        return Failure { path + ": " + error->text() };
    return std::get<sim::Scenario>(std::move(parsed));
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

Outcome<ScreenshotCommand> parseScreenshot(const std::vector<std::string>& args)
{
    ScreenshotCommand command;
    std::optional<sim::Scenario> scenario;
    const auto value = [&](size_t& i) -> Outcome<std::string> {
        if (i + 1 >= args.size())
            return Failure { args[i] + " needs a value (see `lifeline screenshot --help`)" };
        return args[++i];
    };
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--dark" || a == "--compare" || a == "--presenter") {
            (a == "--dark"             ? command.request.dark
                    : a == "--compare" ? command.request.compare
                                       : command.request.presenter)
                = true;
        } else if (a == "--lesson" || a == "--at" || a == "--size") {
            auto v = value(i);
            if (!v)
                return Failure { v.message() };
            if (a == "--lesson") {
                const auto* lesson = sim::findLesson(v.value());
                if (!lesson)
                    return Failure { "--lesson: no lesson '" + v.value() + "' (see `lifeline lessons`)" };
                scenario = lesson->scenario;
            } else if (a == "--at") {
                const auto at = sim::parseDuration(v.value());
                if (!at || *at < 0 || *at > 14LL * 86400000)
                    return Failure { "--at takes a duration from 0s to 14d such as 20s or 2m, got '" + v.value()
                        + "'" };
                command.request.at = *at;
            } else {
                const auto size = windowSize(v.value());
                if (!size)
                    return Failure { "--size takes WIDTHxHEIGHT from 640x480 to 7680x4320 such as 1920x1080, got '"
                        + v.value() + "'" };
                command.request.size = *size;
            }
        } else if (a.starts_with("--")) {
            return Failure { "unknown option '" + a + "' (see `lifeline screenshot --help`)" };
        } else if (a.ends_with(".json") && !scenario) {
            auto read = scenarioFile(a);
            if (!read)
                return Failure { read.message() };
            scenario = std::move(read).value();
        } else if (a.ends_with(".png") && command.out.empty()) {
            command.out = a;
        } else {
            return Failure { "unexpected argument '" + a + "': a scenario (.json) and the image (.png) are expected" };
        }
    }
    if (command.out.empty())
        return Failure { "where to write the image: give OUT.png (see `lifeline screenshot --help`)" };
    if (scenario)
        command.request.scenario = std::move(*scenario);
    else
        command.request.scenario = sim::findLesson("1")->scenario;
    if (command.request.compare
        && (!command.request.scenario.lesson || command.request.scenario.lesson->fixPatch.empty()))
        return Failure { "--compare needs a lesson with a fix" };
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
        err << "lifeline screenshot: " << command.message() << '\n';
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
