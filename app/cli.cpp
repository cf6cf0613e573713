#include "cli.h"

#include "command_line.h"
#include "demo.h"
#include "export/animation_export.h"
#include "export/image_export.h"
#include "export/web_export.h"
#include "http/live_queue.h"
#include "import_listen.h"
#include "lifeline/analysis/summary.h"
#include "lifeline/export/run_export.h"
#include "lifeline/import/import_files.h"
#include "lifeline/io/run_file.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/reference_cards.h"
#include "quiet_start.h"
#include "site/lesson_pages.h"

#include <QGuiApplication>
#include <QStringList>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

namespace lifeline::app {

namespace {

constexpr int kBadInput = 2;

// Each command's --help: what it does, its options, and an example.
constexpr const char* kRunHelp
    = "Usage: lifeline run SCENARIO.json|RUN.lifeline|--lesson ID [options]\n"
      "Runs a scenario or a lesson headless on virtual time, or re-exports a saved run without simulating.\n"
      "\n"
      "  --lesson ID            a built-in lesson: its place on the path (3.1), id or number (`lifeline lessons`)\n"
      "  --fix                  the lesson's fix instead of the lesson as written\n"
      "  --compare              the lesson as written and with its fix: both summaries (--summary), the figures\n"
      "                         that differ, and both timelines stacked in one image (--export)\n"
      "  --until DURATION       stop there (90s, 15m, 2h); default: the scenario's duration\n"
      "  --seed N               another random seed (the same seed gives the same run)\n"
      "  --summary              print the run's figures as JSON\n"
      "  --csv FILE.csv         every event (time, queue, message, states, cause, actor, note, body, group, dedup)\n"
      "  --trace FILE.json      a Chrome trace that opens in ui.perfetto.dev\n"
      "  --export FILE          the timeline as .png, .svg or .pdf, or .html: one page that plays the run in any\n"
      "                         browser (play, scrub, moments, hover, the events in a table; no network)\n"
      "  --size WIDTHxHEIGHT    the image's size (default 1920x1080; 1920x: the height that fits the lanes)\n"
      "  --window FROM..TO      the image's time window, such as 30s..2m (default: the action, idle time after it\n"
      "                         left out)\n"
      "  --dark                 the image in the dark theme\n"
      "  --high-contrast        the image or animation in the high-contrast theme (white on black)\n"
      "  --alive                only the lanes alive in the window (lanes too many to read draw as density bands)\n"
      "  --order ORDER          each queue's lanes by sent (default), received (most first), age or state\n"
      "  --export FILE.gif|.mp4 the run moving: --fps N (1-60, default 15), --duration D (1s-10m, default 8s),\n"
      "                         --size (default 1280x720), --window as for images; its captions (the key\n"
      "                         moments at their times) go beside it as FILE.vtt\n"
      "  --alt                  print the exported image's text alternative (title, measure, key moments) for\n"
      "                         a slide's alt text, instead of the line that says what ran\n"
      "  --save FILE.lifeline   a run file that the window (and `lifeline run`) reopens as it was\n"
      "  --help                 this text\n"
      "\n"
      "A RUN.lifeline takes --summary, --csv, --trace, --export, --alt, --size, --window, --dark, --high-contrast,\n"
      "--alive and --order.\n"
      "Exit status: 0 done, 1 an output could not be written, 2 bad arguments or a bad scenario or run file.\n"
      "\n"
      "Examples:\n"
      "  lifeline run --lesson 8 --summary\n"
      "  lifeline run --lesson 8 --save lesson8.lifeline\n"
      "  lifeline run --lesson 8 --compare --export lesson8-compare.png\n"
      "  lifeline run --lesson 7 --export crash.gif --duration 8s --fps 15\n"
      "  lifeline run lesson8.lifeline --csv lesson8.csv --export lesson8.png --window 0s..2m\n";

constexpr const char* kImportHelp
    = "Usage: lifeline import SPANS.json... [--attributes [QUEUE=]FILE.json]... [options]\n"
      "       lifeline import --listen [ADDRESS:]PORT [--lag 8s] [--history 10m] [settings] [outputs]\n"
      "Draws real messages from the SQS calls your system already traces: OpenTelemetry spans as OTLP JSON (the\n"
      "Collector's file exporter, one request a line, or an OTLP/HTTP JSON body), or a CloudTrail log file's SQS\n"
      "data events (unzipped: its sends, the only records that name a message). Each MessageId is a lane; what SQS\n"
      "did between the traced calls (a visibility timeout ending, retention, the move to a dead-letter queue) is\n"
      "inferred from the queues' settings and drawn hatched, \"inferred\". What cannot be tied to a message is\n"
      "counted, never guessed; calls that contradict the settings are listed with their span (docs/import.md).\n"
      "\n"
      "  --attributes [QUEUE=]FILE.json  a queue's settings, as `aws sqs get-queue-attributes --attribute-names All`\n"
      "                         prints them: for QUEUE, else the queue its QueueArn names, else every queue\n"
      "                         (repeat for each queue; a queue with none follows SQS's defaults)\n"
      "  --template FILE        the queues' settings from a CloudFormation or SAM template (by QueueName, or by\n"
      "                         logical id in the name CloudFormation generates: stack-LogicalId-suffix)\n"
      "  --terraform FILE.json  the queues' settings from a Terraform plan (`terraform show -json`), by name\n"
      "  --queue-url URL [--region R] [--profile P]  a live queue's settings and its dead-letter queue's, read\n"
      "                         with your AWS credentials as `lifeline check --queue-url` reads them\n"
      "  --listen [ADDRESS:]PORT receive the spans live instead: OTLP/HTTP in JSON at POST /v1/traces (4318 is\n"
      "                         OTLP's port; 0 any free one; 127.0.0.1 unless an address is given); Ctrl+C stops\n"
      "                         and writes the outputs. Exporters: OTEL_EXPORTER_OTLP_PROTOCOL=http/json\n"
      "  --lag D                with --listen: play the calls D behind the spans' clock (default 8s: the\n"
      "                         exporters' 5 s batches; behind a tail-sampling Collector, its decision_wait + 5s)\n"
      "  --history D            with --listen: remember what ended for D (default 10m), so memory stays bounded\n"
      "  --summary              print the import's report and the run's figures as JSON\n"
      "  --csv, --trace, --export, --save, --size, --window, --dark, --high-contrast, --alive, --order, --alt\n"
      "                         as for `lifeline run` (an animation needs a simulation: export .png, .svg, .pdf\n"
      "                         or .html)\n"
      "  --help                 this text\n"
      "\n"
      "Exit status: 0 done, 1 an output could not be written, 2 bad arguments or an unreadable file.\n"
      "\n"
      "Example:\n"
      "  lifeline import spans.jsonl --attributes orders=orders-attributes.json --export orders.png\n"
      "  lifeline import --listen 4318 --attributes orders=orders-attributes.json --save orders.lifeline\n";

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
    // The path, block by block; each lesson with its place, number and id, any of which opens it (`lifeline run
    // --lesson 3.1`, `--lesson 10`, `--lesson poison-pill`).
    bool first = true;
    for (const auto& block : teach::courseBlocks()) {
        out << (first ? "" : "\n") << block.title << ": " << block.idea << '\n';
        first = false;
        for (const auto& step : block.steps) {
            const auto& text = *step.lesson->scenario.lesson;
            const std::string place = teach::placeLabel(*teach::placeInCourse(text.id));
            out << "  " << place << std::string(place.size() < 5 ? 5 - place.size() : 1, ' ')
                << (text.number < 10 ? " " : "") << text.number << "  " << text.id;
            out << std::string(text.id.size() < 28 ? 28 - text.id.size() : 1, ' ') << text.title << '\n';
        }
    }
    return 0;
}

struct RunOptions {
    std::string scenarioFile;
    std::string lesson;
    std::vector<std::string> spanFiles; // lifeline import
    std::vector<std::pair<std::string, std::string>> attributeFiles; // lifeline import: queue (or none), file
    std::vector<std::pair<bool, std::string>> templateFiles; // lifeline import: (a Terraform plan, file)
    std::vector<ui::LiveQueueRequest> liveQueues; // lifeline import --queue-url (--region, --profile: the last's)
    std::optional<TraceListening> listen; // lifeline import --listen (--lag, --history)
    std::optional<TimeMs> until;
    std::optional<uint64_t> seed;
    bool summary = false;
    bool fix = false;
    bool compare = false;
    bool alt = false; // print the export's text alternative
    std::string traceFile;
    std::string csvFile;
    std::string imageFile;
    std::string saveFile;
    bool dark = false;
    bool highContrast = false;
    bool alive = false;
    ui::LaneOrder order = ui::LaneOrder::Sent;
    int width = 1920, height = 1080;
    bool sizeGiven = false; // an animation's default size is 1280x720
    std::optional<TimeMs> windowFrom, windowTo;
    std::optional<int> fps; // an animation's
    std::optional<TimeMs> videoDuration;
    bool animated() const { return imageFile.ends_with(".gif") || imageFile.ends_with(".mp4"); }
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

struct RunOutput {
    const RunView& run;
    std::string title;
    std::vector<analysis::MomentSpec> moments;
    std::string claim; // the image's caption line
    const scenario::Scenario* scenario = nullptr; // what an animation simulates again (none for a saved run)
};
int writeOutputs(const RunOutput& output, const RunOptions& options, std::ostream& out, std::ostream& err);

// How each option that takes a value is stored; a refused value returns why (without the command's name).
using OptionSetter = std::optional<std::string> (*)(RunOptions&, const std::string&);

std::optional<std::string> setSeed(RunOptions& options, const std::string& v)
{
    uint64_t seed = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), seed);
    if (ec != std::errc() || ptr != v.data() + v.size())
        return "--seed takes a whole number, got '" + v + "'";
    options.seed = seed;
    return std::nullopt;
}

std::optional<std::string> setSize(RunOptions& options, const std::string& v)
{
    const auto x = v.find('x');
    int w = 0, h = 0; // "1920x": the height that fits the lanes (0)
    const bool ok = x != std::string::npos && x > 0 && std::from_chars(v.data(), v.data() + x, w).ptr == v.data() + x
        && (x + 1 == v.size() || std::from_chars(v.data() + x + 1, v.data() + v.size(), h).ptr == v.data() + v.size());
    if (!ok || w <= 0 || h < 0)
        return "--size takes WIDTHxHEIGHT such as 1920x1080 (or 1920x: the height that fits), got '" + v + "'";
    options.width = w;
    options.height = h;
    options.sizeGiven = true;
    return std::nullopt;
}

std::optional<std::string> setFps(RunOptions& options, const std::string& v)
{
    int fps = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), fps);
    if (ec != std::errc() || ptr != v.data() + v.size() || fps < ui::kMinFps || fps > ui::kMaxFps)
        return "--fps takes a whole number of frames a second from 1 to 60, got '" + v + "'";
    options.fps = fps;
    return std::nullopt;
}

std::optional<std::string> setVideoDuration(RunOptions& options, const std::string& v)
{
    options.videoDuration = lifeline::parseDuration(v);
    if (!options.videoDuration || *options.videoDuration < ui::kMinVideo || *options.videoDuration > ui::kMaxVideo)
        return "--duration takes the animation's length from 1s to 10m, got '" + v + "'";
    return std::nullopt;
}

std::optional<std::string> setWindow(RunOptions& options, const std::string& v)
{
    const auto dots = v.find("..");
    if (dots != std::string::npos) {
        options.windowFrom = lifeline::parseDuration(v.substr(0, dots));
        options.windowTo = lifeline::parseDuration(v.substr(dots + 2));
    }
    if (!options.windowFrom || !options.windowTo || *options.windowTo <= *options.windowFrom)
        return "--window takes FROM..TO such as 30s..2m, got '" + v + "'";
    return std::nullopt;
}

const std::map<std::string, OptionSetter, std::less<>>& valueOptions()
{
    static const std::map<std::string, OptionSetter, std::less<>> options {
        { "--lesson",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.lesson = v;
                return std::nullopt;
            } },
        { "--until",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.until = lifeline::parseDuration(v);
                if (!o.until)
                    return "--until takes a duration such as 90s, 15m or 2h, got '" + v + "'";
                return std::nullopt;
            } },
        { "--seed", setSeed },
        { "--trace",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.traceFile = v;
                return std::nullopt;
            } },
        { "--csv",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.csvFile = v;
                return std::nullopt;
            } },
        { "--save",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.saveFile = v;
                return std::nullopt;
            } },
        { "--export",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                o.imageFile = v;
                return std::nullopt;
            } },
        { "--size", setSize },
        { "--fps", setFps },
        { "--duration", setVideoDuration },
        { "--window", setWindow },
        { "--order",
            [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                static const std::map<std::string, ui::LaneOrder, std::less<>> orders { { "sent", ui::LaneOrder::Sent },
                    { "received", ui::LaneOrder::MostReceived }, { "age", ui::LaneOrder::LongestInQueue },
                    { "state", ui::LaneOrder::State } };
                const auto it = orders.find(v);
                if (it == orders.end())
                    return "--order takes sent, received, age or state, got '" + v + "'";
                o.order = it->second;
                return std::nullopt;
            } },
    };
    return options;
}

const OptionTable<RunOptions>& runOptionTable()
{
    static const OptionTable<RunOptions> table = [] {
        OptionTable<RunOptions> t;
        t.command = "run";
        t.emptyIsMissing = false;
        for (const auto& [name, setter] : valueOptions())
            t.values.emplace(name, setter);
        t.flags = { { "--dark", [](RunOptions& o) { o.dark = true; } },
            { "--high-contrast", [](RunOptions& o) { o.highContrast = true; } },
            { "--alive", [](RunOptions& o) { o.alive = true; } },
            { "--summary", [](RunOptions& o) { o.summary = true; } }, { "--fix", [](RunOptions& o) { o.fix = true; } },
            { "--compare", [](RunOptions& o) { o.compare = true; } },
            { "--alt", [](RunOptions& o) { o.alt = true; } } };
        t.word = [](RunOptions& o, const std::string& a) -> std::optional<std::string> {
            if (!o.scenarioFile.empty())
                return "one scenario at a time, got '" + o.scenarioFile + "' and '" + a + "'";
            o.scenarioFile = a;
            return std::nullopt;
        };
        return t;
    }();
    return table;
}

// `lifeline import`: `lifeline run`'s outputs, read from spans instead of a simulation.
const OptionTable<RunOptions>& importOptionTable()
{
    static const OptionTable<RunOptions> table = [] {
        OptionTable<RunOptions> t = runOptionTable();
        t.command = "import";
        for (const char* simulating : { "--lesson", "--until", "--seed", "--fps", "--duration" })
            t.values.erase(simulating);
        for (const char* simulating : { "--fix", "--compare" })
            t.flags.erase(simulating);
        t.values.emplace("--attributes", [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
            const auto equals = v.find('=');
            if (equals == 0 || equals + 1 == v.size())
                return "--attributes takes [QUEUE=]FILE.json, got '" + v + "'";
            if (equals == std::string::npos)
                o.attributeFiles.emplace_back(std::string(), v);
            else
                o.attributeFiles.emplace_back(v.substr(0, equals), v.substr(equals + 1));
            return std::nullopt;
        });
        t.values.emplace("--template", [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
            o.templateFiles.emplace_back(false, v);
            return std::nullopt;
        });
        t.values.emplace("--terraform", [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
            o.templateFiles.emplace_back(true, v);
            return std::nullopt;
        });
        t.values.emplace("--queue-url", [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
            o.liveQueues.push_back({ v, {}, {}, false, false });
            return std::nullopt;
        });
        for (const char* option : { "--region", "--profile" })
            t.values.emplace(option, [option](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                if (o.liveQueues.empty())
                    return std::string(option) + " goes after the --queue-url it is for";
                (std::string_view(option) == "--region" ? o.liveQueues.back().region : o.liveQueues.back().profile) = v;
                return std::nullopt;
            });
        t.values.emplace("--listen", [](RunOptions& o, const std::string& v) -> std::optional<std::string> {
            return parseListenAddress(v, o.listen.emplace());
        });
        for (const char* option : { "--lag", "--history" })
            t.values.emplace(option, [option](RunOptions& o, const std::string& v) -> std::optional<std::string> {
                const bool lag = std::string_view(option) == "--lag";
                if (!o.listen)
                    return std::string(option) + " is for --listen, which goes before it";
                const auto duration = lifeline::parseDuration(v);
                if (!duration || *duration < 0 || (lag && *duration > 600000))
                    return std::string(option) + " takes a duration such as "
                        + (lag ? "8s or 35s (at most 10m)" : "10m or 2h") + ", got '" + v + "'";
                (lag ? o.listen->live.lagMs : o.listen->live.historyMs) = *duration;
                return std::nullopt;
            });
        t.word = [](RunOptions& o, const std::string& a) -> std::optional<std::string> {
            o.spanFiles.push_back(a);
            return std::nullopt;
        };
        return t;
    }();
    return table;
}

Outcome<RunOptions> parseRunOptions(const std::vector<std::string>& args)
{
    const auto failure = [](const std::string& why) { return Failure { "lifeline run: " + why }; };
    auto parsed = parseOptions(runOptionTable(), args, 1);
    if (!parsed)
        return Failure { parsed.message() };
    RunOptions options = std::move(parsed).value();
    if (options.scenarioFile.empty() == options.lesson.empty())
        return failure("give a scenario file, a run file or --lesson ID (see `lifeline run --help`)");
    if (options.scenarioFile.ends_with(".lifeline") && (options.fix || options.until || options.seed))
        return failure("--fix, --until and --seed change a simulation; '" + options.scenarioFile
            + "' is a saved run, re-exported as it was");
    if (options.compare && options.fix)
        return failure("--compare already runs the fix next to the lesson as written; leave out --fix");
    if (options.compare && (!options.traceFile.empty() || !options.csvFile.empty() || !options.saveFile.empty()))
        return failure("--compare writes --summary and --export; --trace, --csv and --save take one run (drop "
                       "--compare, with or without --fix)");
    if ((options.fps || options.videoDuration) && !options.animated())
        return failure("--fps and --duration are for an animation (--export FILE.gif or .mp4)");
    if (options.animated() && options.scenarioFile.ends_with(".lifeline"))
        return failure("an animation replays the simulation; '" + options.scenarioFile
            + "' is a saved run (export it as .png, .svg or .pdf)");
    if (options.animated() && options.compare)
        return failure("--compare draws a still image: --export FILE.png, .svg or .pdf");
    if (options.compare && options.imageFile.ends_with(".html"))
        return failure("--export FILE.html plays one run: drop --compare (or --fix for the lesson's fixed run)");
    if (options.alt && (options.imageFile.empty() || options.imageFile.ends_with(".html")))
        return failure("--alt prints an image's text alternative: --export FILE.png, .svg, .pdf, .gif or .mp4 (a "
                       "page carries its own)");
    if (options.highContrast && (options.imageFile.empty() || options.imageFile.ends_with(".html")))
        return failure("--high-contrast draws an image or an animation: --export FILE.png, .svg, .pdf, .gif or .mp4 (a "
                       "page follows its reader's light or dark scheme)");
    if (options.alt && options.summary)
        return failure("--alt and --summary both print on the standard output: give one");
    if (options.compare && options.scenarioFile.ends_with(".lifeline"))
        return failure("--compare runs a lesson and its fix; '" + options.scenarioFile + "' is a saved run");
    return options;
}

// A saved run, re-exported as it was.
int reexport(const RunOptions& options, std::ostream& out, std::ostream& err)
{
    auto opened = openRun(options.scenarioFile);
    if (!opened) {
        err << "lifeline run: " << opened.message() << '\n';
        return kBadInput;
    }
    const RecordedRun& recorded = opened.value();
    if (options.summary)
        out << analysis::summarizeLog(*recorded.run)
                   .toJson()
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << '\n';
    else if (!options.alt)
        out << "opened '" << recorded.title << "' at " << lifeline::formatDuration(recorded.run->now()) << ": "
            << recorded.run->log().size() << " events (add --summary for the figures)\n";
    return writeOutputs(
        { *recorded.run, recorded.title, {}, analysis::summarizeLog(*recorded.run).claim() }, options, out, err);
}

// The scenario to simulate: the lesson's or the file's, with the lesson's fix applied when asked.
Outcome<scenario::Scenario> scenarioToRun(const RunOptions& options)
{
    std::optional<scenario::Scenario> scenario;
    if (!options.lesson.empty()) {
        const auto* lesson = teach::findLessonOnPath(options.lesson);
        if (!lesson)
            return Failure { "lifeline run: no lesson '" + options.lesson + "' (see `lifeline lessons`)" };
        scenario = lesson->scenario;
    } else {
        std::ifstream in(options.scenarioFile, std::ios::binary);
        if (!in)
            return Failure { "lifeline run: cannot read '" + options.scenarioFile + "'" };
        std::stringstream text;
        text << in.rdbuf();
        auto parsed = scenario::parseScenario(text.str());
        if (auto* error = std::get_if<scenario::ScenarioError>(&parsed))
            return Failure { options.scenarioFile + ": " + error->text() };
        scenario = std::get<scenario::Scenario>(std::move(parsed));
    }
    if (!options.fix)
        return std::move(*scenario);
    if (!scenario->lesson)
        return Failure { "lifeline run: --fix needs a lesson (this scenario has no lesson)" };
    auto fixed = scenario::applyFix(*scenario);
    if (auto* error = std::get_if<scenario::ScenarioError>(&fixed))
        return Failure { "lifeline run: the lesson's fix is broken: " + error->text() };
    return std::get<scenario::Scenario>(std::move(fixed));
}

std::string runTitle(const scenario::Scenario& scenario)
{
    return scenario.lesson ? "Lesson " + std::to_string(scenario.lesson->number) + ": " + scenario.lesson->title
                           : scenario.name;
}

// Images are drawn offscreen: no display is needed.
template <class Draw>
bool exportImage(const RunOptions& options, const std::string& title, std::ostream& err, Draw&& draw)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "lifeline";
    char* argv[] = { name, nullptr };
    const app::QuietlyStarted<QGuiApplication> application(argc, argv);
    ui::ImageExportRequest request;
    request.path = QString::fromStdString(options.imageFile);
    request.size = QSize(options.width, options.height);
    request.from = options.windowFrom.value_or(0);
    request.to = options.windowTo.value_or(-1);
    request.dark = options.dark;
    request.highContrast = options.highContrast;
    request.aliveOnly = options.alive;
    request.order = options.order;
    request.title = QString::fromStdString(title);
    const Outcome<> exported = draw(request);
    if (!exported)
        err << "lifeline run: could not export the image: " << exported.message() << '\n';
    return bool(exported);
}

// The lesson as written and with its fix, side by side: the figures that differ, both summaries, one image.
int compare(scenario::Scenario asWritten, const RunOptions& options, std::ostream& out, std::ostream& err)
{
    if (!asWritten.lesson || asWritten.lesson->fixPatch.empty()) {
        err << "lifeline run: --compare needs a lesson with a fix (this scenario has none)\n";
        return kBadInput;
    }
    auto fixed = scenario::applyFix(asWritten);
    if (auto* error = std::get_if<scenario::ScenarioError>(&fixed)) {
        err << "lifeline run: the lesson's fix is broken: " << error->text() << '\n';
        return kBadInput;
    }
    sim::Simulation written(std::move(asWritten), options.seed);
    sim::Simulation withFix(std::get<scenario::Scenario>(std::move(fixed)), options.seed);
    for (sim::Simulation* s : { &written, &withFix }) {
        s->advanceTo(options.until.value_or(s->duration()));
        if (s->stall()) {
            err << "lifeline run: " << *s->stall() << '\n';
            return kBadInput;
        }
    }
    const analysis::RunSummary a = written.summary(), b = withFix.summary();
    if (options.summary) {
        out << analysis::comparisonJson(a, b, written.scenario().lesson->measure).dump(2) << '\n';
    } else if (!options.alt) {
        out << "ran '" << written.scenario().name << "' as written and with the fix:";
        const auto& lesson = *written.scenario().lesson;
        const auto changes = analysis::compareSummaries(a, b, lesson.measure, lesson.measureLabel);
        for (size_t i = 0; i < changes.size(); ++i)
            out << (i == 0 ? " " : ", ") << changes[i].text();
        out << (changes.empty() ? " the same figures\n" : "\n");
    }
    if (options.imageFile.empty())
        return 0;
    const auto& moments = written.scenario().lesson->moments;
    QStringList claim;
    for (const auto& change :
        analysis::compareSummaries(a, b, written.scenario().lesson->measure, written.scenario().lesson->measureLabel))
        claim << QString::fromStdString(change.text());
    const bool exported = exportImage(options, runTitle(written.scenario()), err, [&](ui::ImageExportRequest request) {
        request.subtitle = claim.join(QStringLiteral("  ·  "));
        const std::vector<ui::ExportPanel> panels { { &written.engine().run(), moments, QObject::tr("As written") },
            { &withFix.engine().run(), withFix.scenario().lesson->moments, QObject::tr("With the fix") } };
        auto image = ui::exportComparisonImage(panels, request);
        if (image && options.alt)
            out << ui::exportAltText(panels, request).toStdString() << '\n';
        return image;
    });
    return exported ? 0 : 1;
}

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const auto parsed = parseRunOptions(args);
    if (!parsed) {
        err << parsed.message() << '\n';
        return kBadInput;
    }
    const RunOptions& options = parsed.value();
    if (options.scenarioFile.ends_with(".lifeline"))
        return reexport(options, out, err);
    auto scenario = scenarioToRun(options);
    if (!scenario) {
        err << scenario.message() << '\n';
        return kBadInput;
    }
    if (options.compare)
        return compare(std::move(scenario).value(), options, out, err);
    sim::Simulation simulation(std::move(scenario).value(), options.seed);
    simulation.advanceTo(options.until.value_or(simulation.duration()));
    if (simulation.stall()) {
        err << "lifeline run: " << *simulation.stall() << '\n';
        return kBadInput;
    }
    if (options.summary)
        out << simulation.summary().toJson().dump(2) << '\n';
    else if (!options.alt)
        out << "ran '" << simulation.scenario().name << "' to " << lifeline::formatDuration(simulation.now()) << ": "
            << simulation.engine().log().size() << " events (add --summary for the figures)\n";
    const auto& ran = simulation.scenario();
    return writeOutputs(
        { simulation.engine().run(), runTitle(ran),
            ran.lesson ? ran.lesson->moments : std::vector<analysis::MomentSpec> {},
            ran.lesson ? simulation.summary().measureClaim(ran.lesson->measure, ran.lesson->measureLabel)
                       : simulation.summary().claim(),
            &ran },
        options, out, err);
}

int writeOutputs(const RunOutput& output, const RunOptions& options, std::ostream& out, std::ostream& err)
{
    const RunView& run = output.run;
    bool written = true;
    if (!options.traceFile.empty())
        written &= writeFile(options.traceFile, "trace", err, [&](std::ostream& file) { writeChromeTrace(run, file); });
    if (!options.csvFile.empty())
        written &= writeFile(options.csvFile, "CSV", err, [&](std::ostream& file) { writeEventsCsv(run, file); });
    if (!options.saveFile.empty()) {
        const auto saved = saveRun(run, output.title, options.saveFile);
        if (!saved) {
            err << "lifeline run: could not save the run: " << saved.message() << '\n';
            written = false;
        }
    }
    if (options.imageFile.ends_with(".html")) {
        ui::WebPageRequest request;
        request.path = QString::fromStdString(options.imageFile);
        request.title = QString::fromStdString(output.title);
        request.claim = QString::fromStdString(output.claim);
        request.moments = output.moments;
        if (output.scenario && output.scenario->lesson)
            request.lesson = ui::lessonWords(*output.scenario->lesson);
        if (const auto page = ui::exportWebPage(run, request); !page) {
            err << "lifeline run: could not write the page: " << page.message() << '\n';
            written = false;
        }
    } else if (options.animated() && output.scenario)
        written &= exportImage(options, output.title, err, [&](ui::ImageExportRequest still) {
            ui::AnimationRequest request;
            request.path = still.path;
            request.size = options.sizeGiven ? still.size : QSize(1280, 720);
            request.fps = options.fps.value_or(15);
            request.duration = options.videoDuration.value_or(8000);
            request.from = still.from;
            request.to = still.to;
            request.title = still.title;
            request.dark = still.dark;
            request.highContrast = still.highContrast;
            request.seed = options.seed;
            auto video = ui::exportAnimation(*output.scenario, request);
            // The text of a still of the whole run (the captions file has the moments at the video's times).
            still.claim = QString::fromStdString(output.claim);
            if (!video)
                return Outcome<>(Failure { video.message() });
            if (options.alt)
                out << ui::exportAltText({ { &run, output.moments, {} } }, still).toStdString() << '\n';
            return Outcome<> {}; // nothing here cancels it
        });
    else if (!options.imageFile.empty())
        written &= exportImage(options, output.title, err, [&](ui::ImageExportRequest request) {
            request.moments = output.moments;
            request.claim = QString::fromStdString(output.claim);
            auto image = ui::exportTimelineImage(run, request);
            if (image && options.alt)
                out << ui::exportAltText({ { &run, output.moments, {} } }, request).toStdString() << '\n';
            return image;
        });
    return written ? 0 : 1;
}

} // namespace

int runLessonsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (wantsHelp(args)) {
        out << kLessonsHelp;
        return 0;
    }
    if (args.size() == 2 && args[1] == "--cards") {
        for (const auto& card : teach::referenceCards()) {
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

int runRunCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (wantsHelp(args)) {
        out << kRunHelp;
        return 0;
    }
    return run(args, out, err);
}

int runImportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (wantsHelp(args)) {
        out << kImportHelp;
        return 0;
    }
    auto parsed = parseOptions(importOptionTable(), args, 1);
    if (!parsed) {
        err << parsed.message() << '\n';
        return kBadInput;
    }
    const RunOptions& options = parsed.value();
    const auto bad = [&](const std::string& why) {
        err << "lifeline import: " << why << '\n';
        return kBadInput;
    };
    if (options.spanFiles.empty() && !options.listen)
        return bad("give the spans to read: an OTLP JSON file, or --listen 4318 to receive them (see `lifeline import "
                   "--help`)");
    if (!options.spanFiles.empty() && options.listen)
        return bad("give span files or --listen, not both ('" + options.spanFiles.front() + "' and --listen)");
    if (options.animated())
        return bad("an animation replays a simulation: export the import as .png, .svg, .pdf or .html");
    if (options.alt && options.summary)
        return bad("--alt and --summary both print on the standard output: give one");
    import::ImportFiles files;
    files.spans = options.spanFiles;
    files.attributes = options.attributeFiles;
    for (const auto& [terraform, file] : options.templateFiles)
        (terraform ? files.plans : files.templates).push_back(file);
    // A live queue's settings as `lifeline check --queue-url` reads them: the queue's and its dead-letter queue's.
    for (const ui::LiveQueueRequest& live : options.liveQueues) {
        const auto queue = ui::readLiveQueue(live);
        if (!queue)
            return bad(queue.message());
        files.live.push_back(queue.value());
    }
    Outcome<import::ImportedRun> opened = Failure { "" };
    if (options.listen) {
        auto settings = import::queueSettingsOf(files);
        if (!settings)
            return bad(settings.message());
        // The standard output is the JSON's or the text alternative's alone: what the receiver says goes beside.
        opened = receiveTraces(
            *options.listen, std::move(settings).value(), options.summary || options.alt ? err : out, err);
    } else {
        opened = import::importFiles(files);
    }
    if (!opened)
        return bad(opened.message());
    const import::ImportedRun& imported = opened.value();
    const RunView& run = imported.run();
    const analysis::RunSummary summary = analysis::summarizeLog(run);
    if (options.summary) {
        nlohmann::json json = summary.toJson();
        json["import"] = imported.report.toJson(run);
        out << json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else if (!options.alt) {
        out << imported.report.text(run);
    }
    std::string title = options.listen ? "Received live" : "Imported: " + options.spanFiles.front();
    if (options.spanFiles.size() > 1)
        title += " and " + std::to_string(options.spanFiles.size() - 1) + " more";
    return writeOutputs({ run, title, {}, summary.claim() }, options, out, err);
}

int runDemoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (wantsHelp(args)) {
        out << kDemoHelp;
        return 0;
    }
    if (args.size() > 1) {
        err << "lifeline demo: unknown option '" << args[1] << "' (see `lifeline demo --help`)\n";
        return kBadInput;
    }
    Engine engine;
    runDemo(engine);
    printLog(engine, out);
    return 0;
}

} // namespace lifeline::app
