#include "site.h"

#include "export/image_export.h"
#include "export/web_export.h"
#include "lifeline/analysis/summary.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/practice.h"
#include "practice_pages.h"
#include "quiet_start.h"

#include <QBuffer>
#include <QGuiApplication>
#include <QImage>
#include <QSaveFile>
#include <QString>
#include <chrono>
#include <filesystem>
#include <map>
#include <ostream>

namespace lifeline::app {

namespace {

using json = nlohmann::json;

// A lesson's pictures for the index, in base64 PNG: the app's light and dark timelines.
struct Stills {
    std::string light, dark;
};

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

std::string pageName(const sim::LessonText& lesson)
{
    char name[32];
    std::snprintf(name, sizeof name, "lesson-%02d.html", lesson.number);
    return name;
}

std::string escaped(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped().toStdString();
}

// A lesson's or exercise's text in HTML, its glossary marks [[term]] linked to the glossary page, the definition
// on hover.
std::string linkedHtml(const std::string& text)
{
    std::string html;
    for (const sim::TextPiece& piece : sim::textPieces(text))
        html += piece.link && piece.term ? "<a class=\"term\" href=\"glossary.html#" + piece.term->id + "\" title=\""
                + escaped(piece.term->definition) + "\">" + escaped(piece.text) + "</a>"
                                         : escaped(piece.text);
    return html;
}

// The head of the site's own pages (the index, the glossary): its colours are the lesson pages'.
std::string pageHead(const std::string& title)
{
    return R"(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>)"
        + escaped(title) + R"(</title>
<style>
  :root { --bg: #ffffff; --fg: #1d1d1f; --muted: #5c5c66; --panel: #f3f3f6; --accent: #0072b2; }
  @media (prefers-color-scheme: dark) {
    :root { --bg: #1e1f22; --fg: #e8e8ea; --muted: #a6a6ad; --panel: #2a2b2f; --accent: #56b4e9; }
  }
  body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; }
  main { max-width: 980px; margin: 0 auto; padding: 20px; }
  h1 { margin: 0 0 4px; } .lead { color: var(--muted); margin-top: 0; }
  section { background: var(--panel); border-radius: 8px; padding: 10px 16px; margin: 14px 0; }
  h2 { margin: 4px 0; font-size: 1.2em; } .block-idea { color: var(--muted); margin: 0 0 6px; }
  ol { margin: 0; padding-left: 1.4em; } li { margin: 6px 0; }
  a { color: var(--accent); font-weight: 600; } .idea { display: block; color: var(--fg); }
  a.term { color: inherit; font-weight: inherit; text-decoration: underline dotted; text-underline-offset: 3px; }
  li.lesson { display: grid; grid-template-columns: 240px 1fr; grid-template-rows: auto 1fr; column-gap: 14px;
    align-items: start; list-style-position: inside; }
  li.lesson picture { grid-row: span 2; } li.lesson img { width: 240px; height: auto; border-radius: 4px; display: block; }
  dt { font-weight: 700; margin-top: 12px; } dt:target { color: var(--accent); } dd { margin: 2px 0 0 0; }
</style>
</head>
<body>
<main>
)";
}

// The index's picture of a run: the app's timeline image, its key moments pinned, in base64. 256 colours are plenty
// for the timeline's flat fills and make the index a third the size.
Outcome<std::string> stillOf(const RunView& run, const sim::LessonText& lesson, const QString& title, bool dark)
{
    ui::ImageExportRequest picture;
    picture.path = QStringLiteral("still.png");
    picture.size = QSize(480, 270);
    picture.moments = lesson.moments;
    picture.title = title;
    picture.dark = dark;
    const auto png = ui::drawTimelineImage(run, picture);
    if (!png)
        return Failure { "lesson " + std::to_string(lesson.number) + ": its still: " + png.message() };
    QImage image;
    image.loadFromData(png.value(), "PNG");
    QByteArray small;
    QBuffer buffer(&small);
    buffer.open(QIODevice::WriteOnly);
    image.convertToFormat(QImage::Format_Indexed8, Qt::ThresholdDither).save(&buffer, "PNG", 9);
    return small.toBase64().toStdString();
}

// One lesson's page: its run as written and with its fix, the compare headline as the page's claim. `stills` gets
// the index's pictures of the run as written, light and dark.
Outcome<> writeLessonPage(
    const sim::Scenario& scenario, const std::filesystem::path& dir, const json& nav, Stills& stills)
{
    const sim::LessonText& lesson = *scenario.lesson;
    ui::WebPageRequest request;
    request.path = QString::fromStdString((dir / pageName(lesson)).string());
    request.title = QString::fromStdString("Lesson " + std::to_string(lesson.number) + ": " + lesson.title);
    request.lesson = lessonWords(lesson);
    request.nav = nav;
    request.glossaryPage = "glossary.html";
    sim::Simulation written(scenario);
    written.advanceTo(written.duration());
    std::vector<json> runs { ui::webRunData(
        written.engine().run(), lesson.moments, lesson.fixPatch.empty() ? QString() : QStringLiteral("As written")) };
    request.claim = QString::fromStdString(written.summary().claim());
    for (const bool dark : { false, true }) {
        auto still = stillOf(written.engine().run(), lesson, request.title, dark);
        if (!still)
            return Failure { still.message() };
        (dark ? stills.dark : stills.light) = std::move(still.value());
    }
    if (!lesson.fixPatch.empty()) {
        auto fixed = sim::applyFix(scenario);
        if (auto* error = std::get_if<sim::ScenarioError>(&fixed))
            return Failure { "lesson " + std::to_string(lesson.number) + ": its fix is broken: " + error->text() };
        sim::Simulation withFix(std::get<sim::Scenario>(std::move(fixed)));
        withFix.advanceTo(withFix.duration());
        runs.push_back(ui::webRunData(withFix.engine().run(), lesson.moments, QStringLiteral("With the fix")));
        std::string headline;
        for (const auto& change :
            sim::compareSummaries(written.summary(), withFix.summary(), lesson.measure, lesson.measureLabel))
            headline += (headline.empty() ? "" : "  ·  ") + change.text();
        if (!headline.empty())
            request.claim = QString::fromStdString("With the fix: " + headline);
    }
    return ui::writeWebPage(runs, request);
}

// The index: the curriculum's blocks in path order, each lesson's still, title and idea, linked to its page.
std::string indexPage(const std::map<int, Stills>& stills)
{
    std::string html
        = pageHead("Lifeline: the life of every SQS message") + R"(<h1>Lifeline: the life of every SQS message</h1>
<p class="lead">Each lesson plays a run of Amazon SQS, message by message, as written and with its fix. Press Space
to play, N for the next key moment. The words SQS gives a meaning of its own are in the <a href="glossary.html">glossary</a>.</p>
)";
    for (const sim::CourseBlock& block : sim::courseBlocks()) {
        html += "<section>\n<h2>" + escaped(block.title) + "</h2>\n<p class=\"block-idea\">" + escaped(block.idea)
            + "</p>\n<ol>\n";
        for (const sim::CourseStep& step : block.steps) {
            const sim::LessonText& lesson = *step.lesson->scenario.lesson;
            const auto still = stills.find(lesson.number);
            // The dark still where the reader's system is dark, as the pages follow it.
            html += "<li class=\"lesson\">"
                + (still == stills.end()
                        ? std::string()
                        : "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"data:image/png;base64,"
                            + still->second.dark + "\"><img alt=\"Lesson " + std::to_string(lesson.number)
                            + "'s run at its key moments\" src=\"data:image/png;base64," + still->second.light
                            + "\"></picture>")
                + "<a href=\"" + pageName(lesson) + "\">Lesson " + std::to_string(lesson.number) + ": "
                + escaped(lesson.title) + "</a><span class=\"idea\">" + linkedHtml(lesson.idea) + "</span></li>\n";
        }
        html += "</ol>\n</section>\n";
    }
    html += "<section>\n<h2>Practice</h2>\n<p class=\"block-idea\">Fix a broken setup: pick an answer and see its run "
            "and whether it passes.</p>\n<ol>\n";
    for (const sim::Exercise& exercise : sim::practiceExercises())
        html += "<li><a href=\"" + practicePageName(exercise) + "\">" + escaped(exercise.title)
            + "</a><span class=\"idea\">" + linkedHtml(exercise.question) + "</span></li>\n";
    return html + "</ol>\n</section>\n</main>\n</body>\n</html>\n";
}

// Every term of the glossary with its definition, each an anchor the pages' terms link to.
std::string glossaryPage()
{
    std::string html = pageHead("Lifeline: glossary")
        + "<nav><a href=\"index.html\">All lessons</a></nav>\n<h1>Glossary</h1>\n<p class=\"lead\">The words a "
          "learner meets that SQS or Lambda give a meaning of their own.</p>\n<dl>\n";
    for (const sim::GlossaryTerm& term : sim::glossary())
        html += "<dt id=\"" + term.id + "\">" + escaped(term.term) + "</dt><dd>" + escaped(term.definition) + "</dd>\n";
    return html + "</dl>\n</main>\n</body>\n</html>\n";
}

// Writes one of the site's own pages.
bool writeHtml(const std::filesystem::path& path, const std::string& html)
{
    QSaveFile file(QString::fromStdString(path.string()));
    return file.open(QIODevice::WriteOnly) && file.write(html.data(), qint64(html.size())) == qint64(html.size())
        && file.commit();
}

} // namespace

json lessonWords(const sim::LessonText& lesson)
{
    return { { "idea", lesson.idea }, { "watch", lesson.watch }, { "trap", lesson.trap }, { "fix", lesson.fix } };
}

int runSite(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    if (args.size() == 2 && (args[1] == "--help" || args[1] == "-h")) {
        out << kSiteHelp;
        return 0;
    }
    if (args.size() != 2 || args[1].empty() || args[1][0] == '-') {
        err << "lifeline site: give one directory to write the pages into (see `lifeline site --help`)\n";
        return 2;
    }
    const auto started = std::chrono::steady_clock::now();
    const std::filesystem::path dir = args[1];
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
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
    std::map<int, Stills> stills;
    const auto lessons = sim::lessonsInCourseOrder();
    for (size_t i = 0; i < lessons.size(); ++i) {
        json nav = json::array({ json::array({ "All lessons", "index.html" }) });
        // The course's order, which is not the lessons' numbers: "← Lesson 7", "Lesson 9 →".
        if (i > 0)
            nav.push_back({ "← Lesson " + std::to_string(lessons[i - 1]->scenario.lesson->number),
                pageName(*lessons[i - 1]->scenario.lesson) });
        if (i + 1 < lessons.size())
            nav.push_back({ "Lesson " + std::to_string(lessons[i + 1]->scenario.lesson->number) + " →",
                pageName(*lessons[i + 1]->scenario.lesson) });
        if (const auto written
            = writeLessonPage(lessons[i]->scenario, dir, nav, stills[lessons[i]->scenario.lesson->number]);
            !written) {
            err << "lifeline site: " << written.message() << '\n';
            return 1;
        }
    }
    const auto& exercises = sim::practiceExercises();
    for (size_t i = 0; i < exercises.size(); ++i) {
        json nav = json::array({ json::array({ "All lessons and exercises", "index.html" }) });
        if (i > 0)
            nav.push_back({ "← Exercise " + exercises[i - 1].id, practicePageName(exercises[i - 1]) });
        if (i + 1 < exercises.size())
            nav.push_back({ "Exercise " + exercises[i + 1].id + " →", practicePageName(exercises[i + 1]) });
        if (const auto written = writePracticePage(exercises[i], dir, nav); !written) {
            err << "lifeline site: " << written.message() << '\n';
            return 1;
        }
    }
    for (const auto& [name, html] :
        { std::pair { "index.html", indexPage(stills) }, { "glossary.html", glossaryPage() } })
        if (!writeHtml(dir / name, html)) {
            err << "lifeline site: cannot write " << (dir / name).string() << '\n';
            return 1;
        }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    out << "wrote " << lessons.size() << " lesson pages, " << exercises.size()
        << " exercise pages, index.html and glossary.html to " << dir.string() << " in " << ms.count() << " ms\n";
    return 0;
}

} // namespace lifeline::app
