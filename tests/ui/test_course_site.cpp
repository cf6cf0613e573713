// The course site as data (ui/site): every page written and linked, the glossary's anchors, a lesson page's run the
// picture core serialises, and the templates' slots filled once. The pages' behaviour in a browser is
// tests/web/page_test.py's.
#include "export/web_resources.h"
#include "lifeline/picture/picture_json.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/practice.h"
#include "site/course_site.h"
#include "site/lesson_pages.h"
#include "site/practice_pages.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <fstream>
#include <regex>
#include <sstream>

using namespace lifeline;
using namespace lifeline::ui;
using nlohmann::json;

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The page's data block (deflated JSON in base64, in the <script id="run"> element), read back.
json pageData(const std::string& page)
{
    const std::string open = R"(<script id="run" type="text/plain">)";
    const size_t from = page.find(open);
    REQUIRE(from != std::string::npos);
    const size_t start = from + open.size();
    const size_t end = page.find("</script>", start);
    QByteArray packed = QByteArray::fromBase64(QByteArray::fromStdString(page.substr(start, end - start)));
    packed.prepend(QByteArray("\x00\x10\x00\x00", 4)); // qUncompress's length prefix: a first guess, it grows
    const QByteArray text = qUncompress(packed);
    REQUIRE_FALSE(text.isEmpty());
    return json::parse(text.toStdString());
}

} // namespace

TEST_CASE("web templates: slots filled in one pass - a value naming a slot stays as it is - a missing slot named",
    "[ui][site]")
{
    const auto filled = fillSlots("<title>LIFELINE_TITLE</title><h1>LIFELINE_TITLE</h1>/*X*/",
        { { "LIFELINE_TITLE", "LIFELINE_TITLE &amp; /*X*/" }, { "/*X*/", "x" } });
    REQUIRE(filled);
    CHECK(filled.value() == "<title>LIFELINE_TITLE &amp; /*X*/</title><h1>LIFELINE_TITLE &amp; /*X*/</h1>x");
    const auto missing = fillSlots("<p></p>", { { "/*LIFELINE_RUN*/", "{}" } });
    REQUIRE_FALSE(missing);
    CHECK(missing.message() == "the page template has no slot /*LIFELINE_RUN*/");
    for (const char* name : { "player.html", "site-page.html", "palette.css" })
        CHECK_FALSE(webResource(name).empty());
    CHECK(webResource("nothing.html").empty());
}

TEST_CASE("course site: every lesson and exercise page linked from the index in course order - the glossary's anchors "
          "- a lesson page's runs are core's picture",
    "[ui][site]")
{
    test::application();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const std::filesystem::path out = dir.path().toStdString();
    const auto written = writeCourseSite(out);
    REQUIRE(written);
    const auto lessons = teach::lessonsInCourseOrder();
    const auto& exercises = teach::practiceExercises();
    CHECK(written->lessons == lessons.size());
    CHECK(written->exercises == exercises.size());

    const std::string index = readFile(out / "index.html");
    CHECK(index.find("<title>Lifeline: the life of every SQS message</title>") != std::string::npos);
    CHECK(index.find("--accent: #0072b2") != std::string::npos); // the pages' one palette
    size_t previous = 0;
    for (const teach::LessonEntry* entry : lessons) {
        const std::string page = lessonPageName(*entry->scenario.lesson);
        INFO(page);
        CHECK(std::filesystem::exists(out / page));
        const size_t at = index.find("href=\"" + page + "\"");
        REQUIRE(at != std::string::npos);
        CHECK(at > previous);
        previous = at;
    }
    for (const teach::Exercise& exercise : exercises) {
        INFO(exercise.id);
        CHECK(std::filesystem::exists(out / practicePageName(exercise)));
        CHECK(index.find("href=\"" + practicePageName(exercise) + "\"") != std::string::npos);
    }

    const std::string glossary = readFile(out / "glossary.html");
    for (const teach::GlossaryTerm& term : teach::glossary())
        CHECK(glossary.find("<dt id=\"" + term.id + "\">") != std::string::npos);
    const std::regex termLink(R"re(href="glossary\.html#([a-z0-9-]+)")re");
    size_t links = 0;
    for (auto it = std::sregex_iterator(index.begin(), index.end(), termLink); it != std::sregex_iterator(); ++it) {
        ++links;
        CHECK(glossary.find("<dt id=\"" + (*it)[1].str() + "\">") != std::string::npos);
    }
    CHECK(links > 0);

    // Lesson 7's page: its run as written is the picture core serialises; its texts come split into pieces whose
    // terms the page carries.
    const teach::LessonEntry* crash = teach::findLesson("consumer-crash");
    const json data = pageData(readFile(out / lessonPageName(*crash->scenario.lesson)));
    CHECK(data.at("format") == picture::kPictureFormat);
    CHECK(data.at("words") == picture::wordsJson());
    sim::Simulation asWritten(crash->scenario);
    asWritten.advanceTo(asWritten.duration());
    picture::RunPicture drawn;
    drawn.setRun(&asWritten.engine().run(), crash->scenario.lesson->moments);
    (void)drawn.sync();
    CHECK(data.at("runs").at(0) == picture::pictureJson(drawn, "As written"));
    CHECK(data.at("runs").at(1).at("label") == "With the fix");
    for (const auto& [key, pieces] : data.at("lesson").items()) {
        INFO(key);
        REQUIRE(pieces.is_array());
        for (const json& piece : pieces)
            if (piece.size() == 2)
                CHECK(data.at("glossary").contains(piece[1].get<std::string>()));
    }
}

TEST_CASE("course site: a symbolic link where a page goes is refused, the file it names untouched", "[ui][site]")
{
    test::application();
    QTemporaryDir outside, dir;
    REQUIRE(outside.isValid());
    REQUIRE(dir.isValid());
    const QString target = outside.filePath(QStringLiteral("precious.txt"));
    {
        QFile precious(target);
        REQUIRE(precious.open(QIODevice::WriteOnly));
        precious.write("keep me");
    }
    // A folder written before, where someone (or something) left a link named like the site's glossary.
    REQUIRE(QFile::link(target, dir.filePath(QStringLiteral("glossary.html"))));
    const auto written = writeCourseSite(dir.path().toStdString());
    REQUIRE_FALSE(written);
    CHECK(written.message()
        == "not writing " + dir.filePath(QStringLiteral("glossary.html")).toStdString()
            + ": it is a symbolic link (it may lead out of the folder); remove it, or write elsewhere");
    QFile precious(target);
    REQUIRE(precious.open(QIODevice::ReadOnly));
    CHECK(precious.readAll() == "keep me");
}
