// lifeline: the window, or a headless command. Headless commands never create a QApplication, so they run
// with no display at all.
#include "check.h"
#include "cli.h"
#include "demo.h"
#include "lifeline/engine/engine.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/course.h"
#include "practice.h"
#include "proxy.h"
#include "screenshot.h"
#include "serve.h"
#include "site.h"
#include "terminal_output.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/live_source_controller.h"
#include "window/main_window.h"
#include "window/runtime/gated_application.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QApplication>
#include <QIcon>
#include <QSettings>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

// What the window opens, read before any window exists so that a bad argument or file fails cleanly.
struct WindowStart {
    std::optional<lifeline::app::ServeOptions> serve; // the window serves the local endpoint
    std::optional<lifeline::app::ProxyCommand> proxy; // the window is the recording proxy's live view
    std::string proxySource; // where the proxy's credentials came from
    std::optional<lifeline::RecordedRun> recorded; // a saved run, shown as it was
    std::optional<lifeline::scenario::Scenario> scenario; // a scenario or a lesson; none: the last lesson opened
};

lifeline::Outcome<lifeline::scenario::Scenario> readScenarioFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return lifeline::Failure { path + ": cannot read the file" };
    std::stringstream text;
    text << in.rdbuf();
    auto parsed = lifeline::scenario::parseScenario(text.str());
    if (auto* error = std::get_if<lifeline::scenario::ScenarioError>(&parsed))
        return lifeline::Failure { path + ": " + error->text() };
    return std::get<lifeline::scenario::Scenario>(std::move(parsed));
}

// The window's argument: a lesson, a scenario file or a run file.
// What the window opens; none when the argument is no file and no --lesson (an unknown command).
lifeline::Outcome<std::optional<WindowStart>> readWindowArgument(int argc, char** argv)
{
    WindowStart start;
    const std::string argument = argv[1];
    if (argument == "--lesson" && argc >= 3) {
        const auto* lesson = lifeline::teach::findLessonOnPath(argv[2]);
        if (!lesson)
            return lifeline::Failure { "lifeline: no lesson '" + std::string(argv[2]) + "' (see `lifeline lessons`)" };
        start.scenario = lesson->scenario;
    } else if (argument.ends_with(".json")) {
        auto scenario = readScenarioFile(argument);
        if (!scenario)
            return lifeline::Failure { scenario.message() };
        start.scenario = std::move(scenario).value();
    } else if (argument.ends_with(".lifeline")) {
        auto opened = lifeline::openRun(argument);
        if (!opened)
            return lifeline::Failure { "lifeline: " + opened.message() };
        start.recorded = std::move(opened).value();
    } else {
        return std::optional<WindowStart> {};
    }
    return std::optional<WindowStart> { std::move(start) };
}

// Runs the window until it closes.
int runWindow(int argc, char** argv, WindowStart start)
{
    lifeline::ui::GatedApplication application(argc, argv); // the simulation advances between its events
    QApplication::setApplicationName(QStringLiteral("Lifeline"));
    QApplication::setOrganizationName(QStringLiteral("Lifeline"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/lifeline.svg")));
    QApplication::setDesktopFileName(QStringLiteral("lifeline"));
    lifeline::ui::MainWindow window;
    window.driver()->setThreaded(true);
    window.rememberSettings(); // layout and theme; the last lesson below
    bool firstStart = false; // no lesson was ever opened: the start page
    if (start.serve) {
        lifeline::app::raiseOpenFileLimit();
        if (const auto started = window.liveSources()->startEndpoint(start.serve->endpoint); !started) {
            std::cerr << "lifeline serve: " << started.message() << '\n';
            return 2;
        }
        std::cout << lifeline::app::serveBanner(
            *window.session()->endpoint(), start.serve->endpoint.speed, start.serve->endpoint.manualClock)
                  << std::flush;
        std::cerr << lifeline::app::serveWarning(*window.session()->endpoint()) << std::flush;
    } else if (start.proxy) {
        lifeline::app::raiseOpenFileLimit();
        if (const auto started = window.liveSources()->startProxy(
                start.proxy->proxy, QString::fromStdString(start.proxy->record), start.proxy->recordEveryMs);
            !started) {
            std::cerr << "lifeline proxy: " << started.message() << '\n';
            return 2;
        }
        std::cout << lifeline::app::proxyBanner(*window.session()->proxy(), *start.proxy, start.proxySource)
                  << std::flush;
        lifeline::app::quitOnStopSignals(&window); // Ctrl+C in the terminal: the run file is still written
    } else if (start.recorded) {
        window.showRecordedRun(std::move(*start.recorded));
    } else if (!start.scenario) {
        firstStart = !QSettings().contains(QStringLiteral("lessons/last"));
        const QString last = QSettings().value(QStringLiteral("lessons/last"), QStringLiteral("1")).toString();
        if (!window.lessons()->openLesson(last))
            window.lessons()->openLesson(QStringLiteral("1"));
    } else if (start.scenario->lesson) {
        window.lessons()->startLesson(*start.scenario);
    } else {
        window.lessons()->showText(QString::fromStdString(start.scenario->name), {});
        window.openScenario(*start.scenario);
        window.driver()->play();
    }
    // The first start fills the screen; after that the window opens as the user left it.
    if (QSettings().contains(QStringLiteral("window/geometry")))
        window.show();
    else
        window.showMaximized();
    if (firstStart)
        window.showStartPage(); // the seed's question and its three doors
    const int status = application.exec();
    window.driver()->setThreaded(false); // what follows runs outside the event loop, without the gate
    window.liveSources()->saveProxyRecord(); // --record, when the proxy ran: once, whole or not at all
    return status;
}

// `lifeline proxy`: headless here, or the window as its live view.
int proxy(int argc, char** argv)
{
    auto options = lifeline::app::parseProxyOptions(std::vector<std::string>(argv + 2, argv + argc));
    if (!options) {
        std::cerr << options.message() << '\n';
        return 2;
    }
    if (options->help) {
        std::cout << lifeline::app::proxyHelp();
        return 0;
    }
    const auto source = lifeline::app::resolveProxyCredentials(options.value());
    if (!source) {
        std::cerr << source.message() << '\n';
        return 2;
    }
    if (options->headless)
        return lifeline::app::proxyHeadless(options.value(), source.value(), argc, argv);
    WindowStart start;
    start.proxy = std::move(options).value();
    start.proxySource = source.value();
    return runWindow(argc, argv, std::move(start));
}

// `lifeline serve`: headless here, or the window that serves.
int serve(int argc, char** argv)
{
    auto options = lifeline::app::parseServeOptions(std::vector<std::string>(argv + 2, argv + argc));
    if (!options) {
        std::cerr << options.message() << '\n';
        return 2;
    }
    if (options->help) {
        std::cout << lifeline::app::serveHelp();
        return 0;
    }
    if (options->printEnv) {
        std::cout << lifeline::app::servePrintEnv(options.value());
        return 0;
    }
    if (options->headless)
        return lifeline::app::serveHeadless(options.value(), argc, argv);
    WindowStart start;
    start.serve = std::move(options).value();
    return runWindow(argc, argv, std::move(start));
}

// The headless commands of app/cli.cpp and their siblings, from argv.
int headless(int (*command)(const std::vector<std::string>&, std::ostream&, std::ostream&), int argc, char** argv)
{
    return command(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}

// Every command: its name, its lines in `lifeline --help`, and what runs it (argv[1] is its name).
struct Command {
    const char* name;
    const char* usage;
    int (*run)(int argc, char** argv);
};

const Command kCommands[] = {
    { "lessons", "  lifeline lessons         list the built-in lessons\n",
        [](int argc, char** argv) { return headless(lifeline::app::runLessonsCommand, argc, argv); } },
    { "run",
        "  lifeline run SCENARIO.json|RUN.lifeline|--lesson ID [--until 10m] [--seed N] [--summary] [--fix]\n"
        "               [--trace FILE.json] [--csv FILE.csv]\n"
        "               [--export FILE.png|.svg|.pdf [--alt]] [--size 1920x1080] [--window 30s..2m] [--dark]\n"
        "               [--alive] [--save FILE.lifeline]   a run file that the window reopens as it was\n"
        "                           run headless on virtual time (--fix: the lesson's fix)\n",
        [](int argc, char** argv) { return headless(lifeline::app::runRunCommand, argc, argv); } },
    { "import",
        "  lifeline import SPANS.json...|--listen 4318 [--attributes [QUEUE=]FILE.json] [--summary] [--csv F]\n"
        "               [--export F]   real messages from OpenTelemetry spans (files, or received live), what SQS\n"
        "                           did between the calls inferred\n",
        [](int argc, char** argv) { return headless(lifeline::app::runImportCommand, argc, argv); } },
    { "practice",
        "  lifeline practice [ID [--set NAME=VALUE] [--choose X] [--solution]]\n"
        "                           exercises: fix a broken setup, and the run checks it\n",
        [](int argc, char** argv) { return headless(lifeline::app::runPractice, argc, argv); } },
    { "check",
        "  lifeline check --attributes FILE.json --processing p50=2s,p99=40s [--consumers N] ...\n"
        "                           review a real queue's settings against its consumers\n",
        [](int argc, char** argv) { return headless(lifeline::app::runCheck, argc, argv); } },
    { "site", "  lifeline site OUTDIR     the course as web pages anyone can open: an index and a page per lesson\n",
        [](int argc, char** argv) { return headless(lifeline::app::runSite, argc, argv); } },
    { "demo", "  lifeline demo            run a short demo headless and print its event log\n",
        [](int argc, char** argv) { return headless(lifeline::app::runDemoCommand, argc, argv); } },
    { "serve",
        "  lifeline serve [--port 9324] [--bind 127.0.0.1] [--headless [--history 0]] [--speed 1] [--allow-origin "
        "O]\n"
        "                           a local SQS endpoint for real clients (aws, boto3, SDKs); in the\n"
        "                           window every message they send is a lane (--headless: no window)\n",
        serve },
    { "proxy",
        "  lifeline proxy --upstream URL [--record FILE.lifeline] [--headless] ...\n"
        "                           a recording proxy to a real SQS: draws your own system's messages\n",
        proxy },
    { "screenshot",
        "  lifeline screenshot [--lesson ID | SCENARIO.json] [--at 20s] [--size 1920x1080] [--dark] [--compare]\n"
        "               [--presenter] [--high-contrast] OUT.png   the whole window at a virtual instant, offscreen\n",
        [](int argc, char** argv) { return lifeline::app::runScreenshot(argc, argv, std::cout, std::cerr); } },
};

void printUsage(std::ostream& out)
{
    out << "Usage:\n"
           "  lifeline [SCENARIO.json | RUN.lifeline | --lesson ID]   open the window (lesson 1 by default)\n";
    for (const Command& command : kCommands)
        out << command.usage;
    out << "  lifeline COMMAND --help  a command's options and an example\n"
           "  lifeline --version       print the version\n"
           "  lifeline --help          this text\n";
}

} // namespace

int main(int argc, char** argv)
{
    lifeline::app::makeTerminalOutputSafe();
    if (argc < 2)
        return runWindow(argc, argv, WindowStart {});
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
        printUsage(std::cout);
        return 0;
    }
    if (command == "--version") {
        std::cout << "lifeline " << LIFELINE_VERSION << '\n';
        return 0;
    }
    for (const Command& known : kCommands)
        if (command == known.name)
            return known.run(argc, argv);
    auto start = readWindowArgument(argc, argv);
    if (!start) {
        std::cerr << start.message() << '\n';
        return 2;
    }
    if (!start.value()) {
        std::cerr << "lifeline: unknown command '" << command << "'\n";
        printUsage(std::cerr);
        return 2;
    }
    return runWindow(argc, argv, std::move(*start.value()));
}
