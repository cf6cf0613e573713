#include "site/lesson_pages.h"

#include "export/image_export.h"
#include "export/web_export.h"
#include "lifeline/analysis/summary.h"
#include "lifeline/sim/simulation.h"

#include <QBuffer>
#include <QImage>
#include <cstdio>

namespace lifeline::ui {

namespace {

using json = nlohmann::json;

// The index's picture of a run: the app's timeline image, its key moments pinned, in base64. 256 colours are plenty
// for the timeline's flat fills and make the index a third the size.
Outcome<std::string> stillOf(const RunView& run, const scenario::LessonText& lesson, const QString& title, bool dark)
{
    ImageExportRequest picture;
    picture.path = QStringLiteral("still.png");
    picture.size = QSize(480, 270);
    picture.moments = lesson.moments;
    picture.title = title;
    picture.dark = dark;
    const auto png = drawTimelineImage(run, picture);
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

} // namespace

std::string lessonPageName(const scenario::LessonText& lesson)
{
    char name[32];
    std::snprintf(name, sizeof name, "lesson-%02d.html", lesson.number);
    return name;
}

json lessonWords(const scenario::LessonText& lesson)
{
    return { { "idea", lesson.idea }, { "watch", lesson.watch }, { "trap", lesson.trap }, { "fix", lesson.fix } };
}

Outcome<> writeLessonPage(
    const scenario::Scenario& scenario, const std::filesystem::path& dir, const json& nav, LessonStills& stills)
{
    const scenario::LessonText& lesson = *scenario.lesson;
    WebPageRequest request;
    request.path = QString::fromStdString((dir / lessonPageName(lesson)).string());
    request.title = QString::fromStdString("Lesson " + std::to_string(lesson.number) + ": " + lesson.title);
    request.lesson = lessonWords(lesson);
    request.nav = nav;
    request.glossaryPage = "glossary.html";
    sim::Simulation written(scenario);
    written.advanceTo(written.duration());
    std::vector<json> runs { webRunData(
        written.engine().run(), lesson.moments, lesson.fixPatch.empty() ? QString() : QStringLiteral("As written")) };
    // The headline says what the lesson measures, as its animation's subtitle does.
    request.claim = QString::fromStdString(written.summary().measureClaim(lesson.measure, lesson.measureLabel));
    for (const bool dark : { false, true }) {
        auto still = stillOf(written.engine().run(), lesson, request.title, dark);
        if (!still)
            return Failure { still.message() };
        (dark ? stills.dark : stills.light) = std::move(still.value());
    }
    if (!lesson.fixPatch.empty()) {
        auto fixed = scenario::applyFix(scenario);
        if (auto* error = std::get_if<scenario::ScenarioError>(&fixed))
            return Failure { "lesson " + std::to_string(lesson.number) + ": its fix is broken: " + error->text() };
        sim::Simulation withFix(std::get<scenario::Scenario>(std::move(fixed)));
        withFix.advanceTo(withFix.duration());
        runs.push_back(webRunData(withFix.engine().run(), lesson.moments, QStringLiteral("With the fix")));
        std::string headline;
        for (const auto& change :
            analysis::compareSummaries(written.summary(), withFix.summary(), lesson.measure, lesson.measureLabel))
            headline += (headline.empty() ? "" : "  ·  ") + change.text();
        if (!headline.empty())
            request.claim = QString::fromStdString("With the fix: " + headline);
    }
    return writeWebPage(runs, request);
}

} // namespace lifeline::ui
