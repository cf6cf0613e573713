#include "site/course_site.h"

#include "export/web_export.h"
#include "export/web_resources.h"
#include "export/whole_file.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/practice.h"
#include "site/lesson_pages.h"
#include "site/practice_pages.h"

#include <QString>
#include <map>

namespace lifeline::ui {

namespace {

using json = nlohmann::json;

std::string escaped(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped().toStdString();
}

// A lesson's or exercise's text in HTML, its glossary marks [[term]] linked to the glossary page, the definition
// on hover.
std::string linkedHtml(const std::string& text)
{
    std::string html;
    for (const teach::TextPiece& piece : teach::textPieces(text))
        html += piece.link && piece.term ? "<a class=\"term\" href=\"glossary.html#" + piece.term->id + "\" title=\""
                + escaped(piece.term->definition) + "\">" + escaped(piece.text) + "</a>"
                                         : escaped(piece.text);
    return html;
}

// One of the site's own pages: site-page.html with its title and content, the pages' palette.
Outcome<> writeSitePage(const std::filesystem::path& path, const std::string& title, const std::string& content)
{
    const auto page = fillSlots(webResource("site-page.html"),
        { { "/*LIFELINE_PALETTE*/", std::string(webResource("palette.css")) }, { "LIFELINE_TITLE", escaped(title) },
            { "<!--LIFELINE_CONTENT-->", content } });
    if (!page)
        return Failure { page.message() };
    return writeWholeFile(QString::fromStdString(path.string()), page.value());
}

// The index: the curriculum's blocks in path order, each lesson's still, title and idea, linked to its page; then
// the exercises.
std::string indexContent(const std::map<int, LessonStills>& stills)
{
    std::string html = R"(<h1>Lifeline: the life of every SQS message</h1>
<p class="lead">Each lesson plays a run of Amazon SQS, message by message, as written and with its fix. Press Space
to play, N for the next key moment. The words SQS gives a meaning of its own are in the <a href="glossary.html">glossary</a>.</p>
)";
    for (const teach::CourseBlock& block : teach::courseBlocks()) {
        html += "<section>\n<h2>" + escaped(block.title) + "</h2>\n<p class=\"block-idea\">" + escaped(block.idea)
            + "</p>\n<ol>\n";
        for (const teach::CourseStep& step : block.steps) {
            const scenario::LessonText& lesson = *step.lesson->scenario.lesson;
            const auto still = stills.find(lesson.number);
            // The dark still where the reader's system is dark, as the pages follow it.
            html += "<li class=\"lesson\">"
                + (still == stills.end()
                        ? std::string()
                        : "<picture><source media=\"(prefers-color-scheme: dark)\" srcset=\"data:image/png;base64,"
                            + still->second.dark + "\"><img alt=\"Lesson " + std::to_string(lesson.number)
                            + "'s run at its key moments\" src=\"data:image/png;base64," + still->second.light
                            + "\"></picture>")
                + "<a href=\"" + lessonPageName(lesson) + "\">Lesson " + std::to_string(lesson.number) + ": "
                + escaped(lesson.title) + "</a><span class=\"idea\">" + linkedHtml(lesson.idea) + "</span></li>\n";
        }
        html += "</ol>\n</section>\n";
    }
    html += "<section>\n<h2>Practice</h2>\n<p class=\"block-idea\">Fix a broken setup: pick an answer and see its run "
            "and whether it passes.</p>\n<ol>\n";
    for (const teach::Exercise& exercise : teach::practiceExercises())
        html += "<li><a href=\"" + practicePageName(exercise) + "\">" + escaped(exercise.title)
            + "</a><span class=\"idea\">" + linkedHtml(exercise.question) + "</span></li>\n";
    return html + "</ol>\n</section>";
}

// Every term of the glossary with its definition, each an anchor the pages' terms link to.
std::string glossaryContent()
{
    std::string html = "<nav><a href=\"index.html\">All lessons</a></nav>\n<h1>Glossary</h1>\n<p class=\"lead\">The "
                       "words a learner meets that SQS or Lambda give a meaning of their own.</p>\n<dl>\n";
    for (const teach::GlossaryTerm& term : teach::glossary())
        html += "<dt id=\"" + term.id + "\">" + escaped(term.term) + "</dt><dd>" + escaped(term.definition) + "</dd>\n";
    return html + "</dl>";
}

// Links above a page's title: back to the index, and the previous and next in the course's order.
json navigation(const char* index, const std::pair<std::string, std::string>* previous,
    const std::pair<std::string, std::string>* next)
{
    json nav = json::array({ json::array({ index, "index.html" }) });
    if (previous)
        nav.push_back({ "← " + previous->first, previous->second });
    if (next)
        nav.push_back({ next->first + " →", next->second });
    return nav;
}

} // namespace

Outcome<SiteReport> writeCourseSite(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        return Failure { "cannot make the directory " + dir.string() + (ec ? ": " + ec.message() : "") };
    // The course's order, which is not the lessons' numbers: "← Lesson 7", "Lesson 9 →".
    std::vector<std::pair<std::string, std::string>> lessonLinks;
    const auto lessons = teach::lessonsInCourseOrder();
    lessonLinks.reserve(lessons.size());
    for (const teach::LessonEntry* entry : lessons)
        lessonLinks.emplace_back(
            "Lesson " + std::to_string(entry->scenario.lesson->number), lessonPageName(*entry->scenario.lesson));
    std::map<int, LessonStills> stills;
    for (size_t i = 0; i < lessons.size(); ++i) {
        const json nav = navigation("All lessons", i > 0 ? &lessonLinks[i - 1] : nullptr,
            i + 1 < lessons.size() ? &lessonLinks[i + 1] : nullptr);
        if (auto written = writeLessonPage(lessons[i]->scenario, dir, nav, stills[lessons[i]->scenario.lesson->number]);
            !written)
            return Failure { written.message() };
    }
    const auto& exercises = teach::practiceExercises();
    std::vector<std::pair<std::string, std::string>> exerciseLinks;
    exerciseLinks.reserve(exercises.size());
    for (const teach::Exercise& exercise : exercises)
        exerciseLinks.emplace_back("Exercise " + exercise.id, practicePageName(exercise));
    for (size_t i = 0; i < exercises.size(); ++i) {
        const json nav = navigation("All lessons and exercises", i > 0 ? &exerciseLinks[i - 1] : nullptr,
            i + 1 < exercises.size() ? &exerciseLinks[i + 1] : nullptr);
        if (auto written = writePracticePage(exercises[i], dir, nav); !written)
            return Failure { written.message() };
    }
    if (auto index = writeSitePage(dir / "index.html", "Lifeline: the life of every SQS message", indexContent(stills));
        !index)
        return Failure { index.message() };
    if (auto glossary = writeSitePage(dir / "glossary.html", "Lifeline: glossary", glossaryContent()); !glossary)
        return Failure { glossary.message() };
    return SiteReport { lessons.size(), exercises.size() };
}

} // namespace lifeline::ui
