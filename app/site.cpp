#include "site.h"

#include "command_line.h"
#include "quiet_start.h"
#include "site/course_site.h"

#include <QGuiApplication>
#include <chrono>
#include <filesystem>
#include <ostream>

namespace lifeline::app {

namespace {

constexpr const char* kSiteHelp
    = "Usage: lifeline site OUTDIR\n"
      "Writes the course as static web pages: OUTDIR/index.html (the blocks of the curriculum and their lessons)\n"
      "and a page per lesson (OUTDIR/lesson-07.html) that plays its run as written and with its fix on one time\n"
      "axis: play, pause, scrub, the key moments and their captions, hover, the events in a table. Each page is one\n"
      "file with no network request: open it from disk, a USB stick, or any static host (docs/site.md).\n"
      "Each exercise has a page (OUTDIR/practice-ID.html): choosing an answer shows its run and its verdict.\n"
      "The glossary's terms link to OUTDIR/glossary.html.\n"
      "\n"
      "Example:\n"
      "  lifeline site public && xdg-open public/index.html\n";

struct SiteOptions {
    std::string dir;
};

// No option: one word, the directory to write into.
const OptionTable<SiteOptions> kSiteOptions { "site", {}, {},
    [](SiteOptions& options, const std::string& word) -> std::optional<std::string> {
        if (!options.dir.empty())
            return "give one directory to write the pages into, not a second ('" + word
                + "') (see `lifeline site --help`)";
        options.dir = word;
        return std::nullopt;
    } };

} // namespace

int runSite(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.size() == 2 && (args[1] == "--help" || args[1] == "-h")) {
        out << kSiteHelp;
        return 0;
    }
    const auto options = parseOptions(kSiteOptions, args, 1);
    if (!options || options->dir.empty()) {
        err << (options ? "lifeline site: give one directory to write the pages into (see `lifeline site --help`)"
                        : options.message())
            << '\n';
        return 2;
    }
    const auto started = std::chrono::steady_clock::now();
    const std::filesystem::path dir = options->dir;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) { // bad input, as any other argument
        err << "lifeline site: cannot make the directory " << dir.string() << (ec ? ": " + ec.message() : "") << '\n';
        return 2;
    }
    // The stills are drawn offscreen, as `lifeline run --export` draws: no display is needed.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "lifeline";
    char* argv[] = { name, nullptr };
    const QuietlyStarted<QGuiApplication> application(argc, argv);
    const auto written = ui::writeCourseSite(dir);
    if (!written) {
        err << "lifeline site: " << written.message() << '\n';
        return 1;
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    out << "wrote " << written->lessons << " lesson pages, " << written->exercises
        << " exercise pages, index.html and glossary.html to " << dir.string() << " in " << ms.count() << " ms\n";
    return 0;
}

} // namespace lifeline::app
