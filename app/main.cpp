// lifeline: the window, or a headless command. Headless commands never create a QApplication, so they run
// with no display at all.
#include "cli.h"
#include "demo.h"
#include "lifeline/engine.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"
#include "serve.h"
#include "window/live_driver.h"
#include "window/main_window.h"

#include <QApplication>
#include <QIcon>
#include <QSettings>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

void printUsage(std::ostream& out)
{
    out << "Usage:\n"
           "  lifeline [SCENARIO.json | RUN.lifeline | --lesson ID]   open the window (lesson 1 by default)\n"
           "  lifeline lessons         list the built-in lessons\n"
           "  lifeline run SCENARIO.json|RUN.lifeline|--lesson ID [--until 10m] [--seed N] [--summary] [--fix]\n"
           "               [--trace FILE.json] [--csv FILE.csv]\n"
           "               [--export FILE.png|.svg|.pdf] [--size 1920x1080] [--window 30s..2m] [--dark]\n"
           "               [--save FILE.lifeline]   a run file that the window reopens as it was\n"
           "                           run headless on virtual time (--fix: the lesson's fix)\n"
           "  lifeline demo            run a short demo headless and print its event log\n"
           "  lifeline serve [--port 9324] [--bind 127.0.0.1] [--headless [--history 0]] [--speed 1] [--allow-origin "
           "O]\n"
           "                           a local SQS endpoint for real clients (aws, boto3, SDKs); in the\n"
           "                           window every message they send is a lane (--headless: no window)\n"
           "  lifeline COMMAND --help  a command's options and an example\n"
           "  lifeline --version       print the version\n"
           "  lifeline --help          this text\n";
}

} // namespace

int main(int argc, char** argv)
{
    std::string lessonId; // none given: the last one opened, or lesson 1
    std::string scenarioFile;
    std::string runFile;
    std::optional<lifeline::app::ServeOptions> serve;
    if (argc >= 2) {
        const char* command = argv[1];
        if (!std::strcmp(command, "--help") || !std::strcmp(command, "-h") || !std::strcmp(command, "help")) {
            printUsage(std::cout);
            return 0;
        }
        if (!std::strcmp(command, "--version")) {
            std::cout << "lifeline " << LIFELINE_VERSION << '\n';
            return 0;
        }
        if (!std::strcmp(command, "serve")) {
            auto options = lifeline::app::parseServeOptions(std::vector<std::string>(argv + 2, argv + argc), std::cerr);
            if (!options)
                return 2;
            if (options->help) {
                std::cout << lifeline::app::serveHelp();
                return 0;
            }
            if (options->headless)
                return lifeline::app::serveHeadless(*options, argc, argv);
            serve = std::move(options);
        } else if (lifeline::app::isHeadlessCommand(command))
            return lifeline::app::runCommand(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
        if (serve) {
            // the window serves: below
        } else if (!std::strcmp(command, "--lesson") && argc >= 3) {
            lessonId = argv[2];
        } else if (std::string(command).ends_with(".json")) {
            scenarioFile = command;
        } else if (std::string(command).ends_with(".lifeline")) {
            runFile = command;
        } else {
            std::cerr << "lifeline: unknown command '" << command << "'\n";
            printUsage(std::cerr);
            return 2;
        }
    }
    // Read what to open before any window exists, so a bad argument or file fails cleanly.
    std::optional<lifeline::sim::Scenario> scenario;
    std::optional<lifeline::RecordedRun> recorded;
    if (!runFile.empty()) {
        auto opened = lifeline::openRun(runFile);
        if (!opened) {
            std::cerr << "lifeline: " << opened.message() << '\n';
            return 2;
        }
        recorded = std::move(opened).value();
    } else if (!scenarioFile.empty()) {
        std::ifstream in(scenarioFile, std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = in ? lifeline::sim::parseScenario(text.str())
                         : std::variant<lifeline::sim::Scenario, lifeline::sim::ScenarioError>(
                             lifeline::sim::ScenarioError { "", "cannot read the file", {} });
        if (auto* error = std::get_if<lifeline::sim::ScenarioError>(&parsed)) {
            std::cerr << scenarioFile << ": " << error->text() << '\n';
            return 2;
        }
        scenario = std::get<lifeline::sim::Scenario>(std::move(parsed));
    } else if (!lessonId.empty()) {
        const auto* lesson = lifeline::sim::findLesson(lessonId);
        if (!lesson) {
            std::cerr << "lifeline: no lesson '" << lessonId << "' (see `lifeline lessons`)\n";
            return 2;
        }
        scenario = lesson->scenario;
    }
    QApplication application(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Lifeline"));
    QApplication::setOrganizationName(QStringLiteral("Lifeline"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/lifeline.svg")));
    QApplication::setDesktopFileName(QStringLiteral("lifeline"));
    lifeline::ui::MainWindow window;
    if (serve) {
        lifeline::app::raiseOpenFileLimit();
        window.rememberSettings();
        if (const auto started = window.startEndpoint(serve->endpoint); !started) {
            std::cerr << "lifeline serve: " << started.message() << '\n';
            return 2;
        }
        std::cout << lifeline::app::serveBanner(*window.endpoint(), serve->endpoint.speed) << std::flush;
        std::cerr << lifeline::app::serveWarning(*window.endpoint()) << std::flush;
        window.show();
        return application.exec();
    }
    if (recorded) {
        window.rememberSettings();
        window.showRecordedRun(std::move(*recorded));
        window.show();
        return application.exec();
    }
    window.rememberSettings(); // layout and theme; the last lesson below
    if (!scenario) {
        const QString last = QSettings().value(QStringLiteral("lessons/last"), QStringLiteral("1")).toString();
        if (!window.openLesson(last))
            window.openLesson(QStringLiteral("1"));
    } else if (scenario->lesson) {
        window.startLesson(*scenario);
    } else {
        window.setLesson(QString::fromStdString(scenario->name), {});
        window.openScenario(*scenario);
        window.driver()->play();
    }
    window.show();
    return application.exec();
}
