#include "cli.h"

#include "demo.h"
#include "export/image_export.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/duration.h"
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/reference_cards.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/sim/summary.h"

#include <QGuiApplication>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace lifeline::app {

namespace {

constexpr int kBadInput = 2;

// Each command's --help: what it does, its options, and an example.
constexpr const char* kRunHelp
    = "Usage: lifeline run SCENARIO.json|RUN.lifeline|--lesson ID [options]\n"
      "Runs a scenario or a lesson headless on virtual time, or re-exports a saved run without simulating.\n"
      "\n"
      "  --lesson ID            a built-in lesson, by id or number (see `lifeline lessons`)\n"
      "  --fix                  the lesson's fix instead of the lesson as written\n"
      "  --until DURATION       stop there (90s, 15m, 2h); default: the scenario's duration\n"
      "  --seed N               another random seed (the same seed gives the same run)\n"
      "  --summary              print the run's figures as JSON\n"
      "  --csv FILE.csv         every event (time, queue, message, states, cause, actor, note, body, group, dedup)\n"
      "  --trace FILE.json      a Chrome trace that opens in ui.perfetto.dev\n"
      "  --export FILE          the timeline as .png, .svg or .pdf\n"
      "  --size WIDTHxHEIGHT    the image's size (default 1920x1080)\n"
      "  --window FROM..TO      the image's time window, such as 30s..2m\n"
      "  --dark                 the image in the dark theme\n"
      "  --save FILE.lifeline   a run file that the window (and `lifeline run`) reopens as it was\n"
      "  --help                 this text\n"
      "\n"
      "A RUN.lifeline takes --summary, --csv, --trace, --export, --size, --window and --dark.\n"
      "Exit status: 0 done, 1 an output could not be written, 2 bad arguments or a bad scenario or run file.\n"
      "\n"
      "Examples:\n"
      "  lifeline run --lesson 8 --summary\n"
      "  lifeline run --lesson 8 --save lesson8.lifeline\n"
      "  lifeline run lesson8.lifeline --csv lesson8.csv --export lesson8.png --window 0s..2m\n";

constexpr const char* kLessonsHelp = "Usage: lifeline lessons [--cards]\n"
                                     "Lists the built-in lessons: number, id and title.\n"
                                     "  --cards   the quick reference cards instead: SQS limits a run cannot show\n"
                                     "\n"
                                     "Example:\n"
                                     "  lifeline lessons\n"
                                     "  lifeline lessons --cards\n"
                                     "  lifeline run --lesson visibility-too-short --summary\n";

constexpr const char* kDemoHelp = "Usage: lifeline demo\n"
                                  "Runs a short demo on the engine headless and prints its event log.\n"
                                  "\n"
                                  "Example:\n"
                                  "  lifeline demo | head\n";

bool wantsHelp(const std::vector<std::string>& args)
{
    for (size_t i = 1; i < args.size(); ++i)
        if (args[i] == "--help" || args[i] == "-h")
            return true;
    return false;
}

int listLessons(std::ostream& out)
{
    for (const auto& lesson : sim::builtinLessons()) {
        const auto& text = *lesson.scenario.lesson;
        out << (text.number < 10 ? " " : "") << text.number << "  " << text.id;
        out << std::string(text.id.size() < 28 ? 28 - text.id.size() : 1, ' ') << text.title << '\n';
    }
    return 0;
}

struct RunOptions {
    std::string scenarioFile;
    std::string lesson;
    std::optional<TimeMs> until;
    std::optional<uint64_t> seed;
    bool summary = false;
    bool fix = false;
    std::string traceFile;
    std::string csvFile;
    std::string imageFile;
    std::string saveFile;
    bool dark = false;
    int width = 1920, height = 1080;
    std::optional<TimeMs> windowFrom, windowTo;
};

// Writes one export; a failure says why (and the run itself is not lost: the other outputs still go out).
template <class Write> bool writeFile(const std::string& path, const char* what, std::ostream& err, Write&& write)
{
    std::ofstream out(path, std::ios::binary);
    if (out)
        write(out);
    out.flush();
    if (!out) {
        err << "lifeline run: could not write the " << what << " to '" << path << "': " << std::strerror(errno) << '\n';
        return false;
    }
    return true;
}

int writeOutputs(const Engine& engine, const std::vector<std::string>& names, const std::string& title,
    const RunOptions& options, std::ostream& err);

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    RunOptions options;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto value = [&](const char* name) -> std::optional<std::string> {
            if (i + 1 >= args.size()) {
                err << "lifeline run: " << name << " needs a value\n";
                return std::nullopt;
            }
            return args[++i];
        };
        if (a == "--lesson") {
            auto v = value("--lesson");
            if (!v)
                return kBadInput;
            options.lesson = *v;
        } else if (a == "--until") {
            auto v = value("--until");
            if (!v)
                return kBadInput;
            options.until = sim::parseDuration(*v);
            if (!options.until) {
                err << "lifeline run: --until takes a duration such as 90s, 15m or 2h, got '" << *v << "'\n";
                return kBadInput;
            }
        } else if (a == "--seed") {
            auto v = value("--seed");
            if (!v)
                return kBadInput;
            uint64_t seed = 0;
            const auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), seed);
            if (ec != std::errc() || ptr != v->data() + v->size()) {
                err << "lifeline run: --seed takes a whole number, got '" << *v << "'\n";
                return kBadInput;
            }
            options.seed = seed;
        } else if (a == "--trace" || a == "--csv") {
            auto v = value(a == "--trace" ? "--trace" : "--csv");
            if (!v)
                return kBadInput;
            (a == "--trace" ? options.traceFile : options.csvFile) = *v;
        } else if (a == "--save") {
            auto v = value("--save");
            if (!v)
                return kBadInput;
            options.saveFile = *v;
        } else if (a == "--export") {
            auto v = value("--export");
            if (!v)
                return kBadInput;
            options.imageFile = *v;
        } else if (a == "--size") {
            auto v = value("--size");
            if (!v)
                return kBadInput;
            const auto x = v->find('x');
            int w = 0, h = 0;
            const bool ok = x != std::string::npos && std::from_chars(v->data(), v->data() + x, w).ptr == v->data() + x
                && std::from_chars(v->data() + x + 1, v->data() + v->size(), h).ptr == v->data() + v->size();
            if (!ok) {
                err << "lifeline run: --size takes WIDTHxHEIGHT such as 1920x1080, got '" << *v << "'\n";
                return kBadInput;
            }
            options.width = w;
            options.height = h;
        } else if (a == "--window") {
            auto v = value("--window");
            if (!v)
                return kBadInput;
            const auto dots = v->find("..");
            if (dots != std::string::npos) {
                options.windowFrom = sim::parseDuration(v->substr(0, dots));
                options.windowTo = sim::parseDuration(v->substr(dots + 2));
            }
            if (!options.windowFrom || !options.windowTo || *options.windowTo <= *options.windowFrom) {
                err << "lifeline run: --window takes FROM..TO such as 30s..2m, got '" << *v << "'\n";
                return kBadInput;
            }
        } else if (a == "--dark") {
            options.dark = true;
        } else if (a == "--summary") {
            options.summary = true;
        } else if (a == "--fix") {
            options.fix = true;
        } else if (!a.empty() && a[0] == '-') {
            err << "lifeline run: unknown option '" << a << "' (see `lifeline run --help`)\n";
            return kBadInput;
        } else if (options.scenarioFile.empty()) {
            options.scenarioFile = a;
        } else {
            err << "lifeline run: one scenario at a time, got '" << options.scenarioFile << "' and '" << a << "'\n";
            return kBadInput;
        }
    }
    if (options.scenarioFile.empty() == options.lesson.empty()) {
        err << "lifeline run: give a scenario file, a run file or --lesson ID (see `lifeline run --help`)\n";
        return kBadInput;
    }
    if (options.scenarioFile.ends_with(".lifeline")) {
        if (options.fix || options.until || options.seed) {
            err << "lifeline run: --fix, --until and --seed change a simulation; '" << options.scenarioFile
                << "' is a saved run, re-exported as it was\n";
            return kBadInput;
        }
        auto opened = openRun(options.scenarioFile);
        if (!opened) {
            err << "lifeline run: " << opened.message() << '\n';
            return kBadInput;
        }
        const RecordedRun& recorded = opened.value();
        if (options.summary)
            out << sim::summarizeLog(*recorded.engine, recorded.actorNames)
                       .toJson()
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                << '\n';
        else
            out << "opened '" << recorded.title << "' at " << sim::formatDuration(recorded.engine->now()) << ": "
                << recorded.engine->log().size() << " events (add --summary for the figures)\n";
        return writeOutputs(*recorded.engine, recorded.actorNames, recorded.title, options, err);
    }
    std::optional<sim::Scenario> scenario;
    if (!options.lesson.empty()) {
        const auto* lesson = sim::findLesson(options.lesson);
        if (!lesson) {
            err << "lifeline run: no lesson '" << options.lesson << "' (see `lifeline lessons`)\n";
            return kBadInput;
        }
        scenario = lesson->scenario;
    } else {
        std::ifstream in(options.scenarioFile, std::ios::binary);
        if (!in) {
            err << "lifeline run: cannot read '" << options.scenarioFile << "'\n";
            return kBadInput;
        }
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = sim::parseScenario(text.str());
        if (auto* error = std::get_if<sim::ScenarioError>(&parsed)) {
            err << options.scenarioFile << ": " << error->text() << '\n';
            return kBadInput;
        }
        scenario = std::get<sim::Scenario>(std::move(parsed));
    }
    if (options.fix) {
        if (!scenario->lesson) {
            err << "lifeline run: --fix needs a lesson (this scenario has no lesson)\n";
            return kBadInput;
        }
        auto fixed = sim::applyFix(*scenario);
        if (auto* error = std::get_if<sim::ScenarioError>(&fixed)) {
            err << "lifeline run: the lesson's fix is broken: " << error->text() << '\n';
            return kBadInput;
        }
        scenario = std::get<sim::Scenario>(std::move(fixed));
    }
    sim::Simulation simulation(std::move(*scenario), options.seed);
    simulation.advanceTo(options.until.value_or(simulation.duration()));
    if (options.summary)
        out << simulation.summary().toJson().dump(2) << '\n';
    else
        out << "ran '" << simulation.scenario().name << "' to " << sim::formatDuration(simulation.now()) << ": "
            << simulation.engine().log().size() << " events (add --summary for the figures)\n";
    const auto& ran = simulation.scenario();
    const std::string title
        = ran.lesson ? "Lesson " + std::to_string(ran.lesson->number) + ": " + ran.lesson->title : ran.name;
    return writeOutputs(simulation.engine(), simulation.actorNames(), title, options, err);
}

int writeOutputs(const Engine& engine, const std::vector<std::string>& names, const std::string& title,
    const RunOptions& options, std::ostream& err)
{
    bool written = true;
    if (!options.traceFile.empty())
        written &= writeFile(
            options.traceFile, "trace", err, [&](std::ostream& file) { writeChromeTrace(engine, names, file); });
    if (!options.csvFile.empty())
        written
            &= writeFile(options.csvFile, "CSV", err, [&](std::ostream& file) { writeEventsCsv(engine, names, file); });
    if (!options.saveFile.empty()) {
        const auto saved = saveRun(engine, names, title, options.saveFile);
        if (!saved) {
            err << "lifeline run: could not save the run: " << saved.message() << '\n';
            written = false;
        }
    }
    if (!options.imageFile.empty()) {
        // Images are drawn offscreen: no display is needed.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        int argc = 1;
        char name[] = "lifeline";
        char* argv[] = { name, nullptr };
        QGuiApplication application(argc, argv);
        ui::ImageExportRequest request;
        request.path = QString::fromStdString(options.imageFile);
        request.size = QSize(options.width, options.height);
        request.from = options.windowFrom.value_or(0);
        request.to = options.windowTo.value_or(-1);
        request.dark = options.dark;
        request.title = QString::fromStdString(title);
        const auto exported = ui::exportTimelineImage(engine, names, request);
        if (!exported) {
            err << "lifeline run: could not export the image: " << exported.message() << '\n';
            written = false;
        }
    }
    return written ? 0 : 1;
}

} // namespace

bool isHeadlessCommand(const std::string& first)
{
    return first == "lessons" || first == "run" || first == "demo";
}

int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.empty())
        return kBadInput;
    if (wantsHelp(args)) {
        out << (args[0] == "run" ? kRunHelp : args[0] == "lessons" ? kLessonsHelp : kDemoHelp);
        return 0;
    }
    if (args[0] == "lessons") {
        if (args.size() == 2 && args[1] == "--cards") {
            for (const auto& card : sim::referenceCards()) {
                out << card.title << '\n';
                // Wrapped at 100 columns, indented under the title.
                size_t column = 0;
                std::istringstream words(card.text);
                for (std::string word; words >> word;) {
                    if (column > 0 && column + 1 + word.size() > 98) {
                        out << '\n';
                        column = 0;
                    }
                    out << (column == 0 ? "  " : " ") << word;
                    column += word.size() + 1;
                }
                out << "\n\n";
            }
            return 0;
        }
        if (args.size() > 1) {
            err << "lifeline lessons: unknown option '" << args[1] << "' (see `lifeline lessons --help`)\n";
            return kBadInput;
        }
        return listLessons(out);
    }
    if (args[0] == "run")
        return run(args, out, err);
    if (args[0] == "demo") {
        if (args.size() > 1) {
            err << "lifeline demo: unknown option '" << args[1] << "' (see `lifeline demo --help`)\n";
            return kBadInput;
        }
        Engine engine;
        runDemo(engine);
        printLog(engine, out);
        return 0;
    }
    return kBadInput;
}

} // namespace lifeline::app
