// The course: every lesson on the path once, in blocks a learner climbs, old numbers and ids still opening the same
// lesson, a recap line tying each lesson to the one before.
#include "lifeline/teach/course.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/practice.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace lifeline::analysis;
using namespace lifeline::teach;

namespace {
size_t words(const std::string& text)
{
    std::istringstream in(text);
    size_t count = 0;
    for (std::string word; in >> word;)
        ++count;
    return count;
}

std::vector<std::string> pathIds()
{
    std::vector<std::string> ids;
    for (const LessonEntry* lesson : lessonsInCourseOrder())
        ids.push_back(lesson->scenario.lesson->id);
    return ids;
}

size_t at(const std::string& id)
{
    const auto ids = pathIds();
    return size_t(std::find(ids.begin(), ids.end(), id) - ids.begin());
}
} // namespace

TEST_CASE("course: every lesson is on the path once - every step names a lesson there is", "[course]")
{
    const auto raw = nlohmann::json::parse(courseSource());
    size_t named = 0;
    for (const auto& block : raw["blocks"])
        named += block["lessons"].size();
    const auto ids = pathIds();
    CHECK(ids.size() == named); // none named that does not exist
    CHECK(ids.size() == builtinLessons().size());
    CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
}

TEST_CASE("course: the blocks in the order a learner climbs them", "[course]")
{
    std::vector<std::string> blocks;
    for (const auto& block : courseBlocks()) {
        blocks.push_back(block.id);
        CHECK_FALSE(block.title.empty());
        CHECK_FALSE(block.idea.empty());
        CHECK_FALSE(block.steps.empty());
    }
    CHECK(blocks == std::vector<std::string> { "one-message", "waiting", "failures", "fifo", "lambda", "at-scale" });
    CHECK(pathIds().front() == "life-of-a-message");
    // FIFO's own lessons come after FIFO is introduced by its message groups.
    for (const char* fifoOnly : { "fifo-refuses-timers", "changing-the-delay", "fifo-deduplication" })
        CHECK(at(fifoOnly) > at("fifo-message-groups"));
    // A crash before a timeout too short; a heartbeat after the work that outlasts the timeout.
    CHECK(at("visibility-protects-work") < at("consumer-crash"));
    CHECK(at("visibility-too-short") < at("heartbeat"));
    CHECK(at("poison-pill") < at("dlq-retention"));
    CHECK(at("retention") < at("dlq-retention"));
    CHECK(at("poison-pill") < at("redrive"));
    CHECK(at("lambda-six-times") < at("lambda-partial-batch"));
    CHECK(placeInCourse("consumer-crash")->block->id == "one-message");
    CHECK(placeInCourse("consumer-crash")->position == 5);
    CHECK(placeInCourse("short-vs-long-polling")->block->id == "one-message");
    CHECK_FALSE(placeInCourse("no-such-lesson"));
}

TEST_CASE("course: the old numbers and ids open the same lessons as before the path", "[course]")
{
    const std::map<int, std::string> before { { 1, "life-of-a-message" }, { 2, "delay-queue" }, { 3, "message-timer" },
        { 4, "fifo-refuses-timers" }, { 5, "changing-the-delay" }, { 6, "visibility-protects-work" },
        { 7, "consumer-crash" }, { 8, "visibility-too-short" }, { 9, "heartbeat" }, { 10, "poison-pill" },
        { 11, "short-vs-long-polling" }, { 12, "lambda-six-times" }, { 13, "over-fifteen-minutes" },
        { 14, "fifo-message-groups" }, { 15, "redrive" }, { 16, "retention" }, { 17, "fifo-deduplication" },
        { 18, "dlq-retention" }, { 19, "purge" }, { 20, "fail-fast" }, { 21, "lambda-partial-batch" } };
    for (const auto& [number, id] : before) {
        INFO(number);
        REQUIRE(findLesson(std::to_string(number)));
        CHECK(findLesson(std::to_string(number))->scenario.lesson->id == id);
        CHECK(findLesson(id)->scenario.lesson->number == number);
    }
}

TEST_CASE("course: each lesson opens with a recap of the one before, in a line", "[course]")
{
    const LessonEntry* previous = nullptr;
    for (const auto& block : courseBlocks())
        for (const auto& step : block.steps) {
            INFO(step.lesson->scenario.lesson->id);
            CHECK(words(step.recap) <= 30);
            if (!previous)
                CHECK(step.recap.starts_with("Start here:"));
            else
                CHECK((step.recap.starts_with("Before: ") && step.recap.find(". Now: ") != std::string::npos));
            previous = step.lesson;
        }
}

TEST_CASE("glossary: every term has forms and a definition - a form finds its term - links read as plain words",
    "[course][glossary]")
{
    REQUIRE(glossary().size() >= 10);
    for (const char* id : { "idempotent", "receipt-handle", "event-source-mapping", "poller", "in-flight", "redrive" })
        CHECK(findGlossaryTerm(id) != nullptr);
    for (const GlossaryTerm& term : glossary()) {
        INFO(term.id);
        CHECK_FALSE(term.forms.empty());
        CHECK(term.definition.size() > 60);
        for (const std::string& form : term.forms)
            CHECK(findGlossaryTerm(form) == &term);
    }
    CHECK(findGlossaryTerm("In-Flight")->id == "in-flight");
    CHECK(withoutLinks("two [[in-flight]] messages, [[DLQ]].") == "two in-flight messages, DLQ.");
    const auto pieces = textPieces("a [[receipt handle]] and [[nonsense]]");
    REQUIRE(pieces.size() == 4);
    CHECK(pieces[1].term->id == "receipt-handle");
    CHECK(pieces[3].link);
    CHECK(pieces[3].term == nullptr);
    CHECK(withoutLinks("an unclosed [[link") == "an unclosed [[link");
}

TEST_CASE(
    "glossary: a term used before its link is found - a whole word only - a link to no term", "[course][glossary]")
{
    CHECK(glossaryLinkProblems({ "It waits [[in flight]].", "Still in flight." }).empty());
    const auto early = glossaryLinkProblems({ "It waits in flight.", "Then [[in flight]] again." });
    REQUIRE(early.size() == 1);
    CHECK(early[0]
        == "\"in flight\" is first used unlinked, at \"in flight.\nthen in flight again.\n\": write it as [[...]] "
           "there");
    // A queue named orders-dlq is not a use of "DLQ"; "the DLQ." at a sentence's end is.
    CHECK(glossaryLinkProblems({ "Sent to orders-dlq and q.fifo." }).empty());
    CHECK(glossaryLinkProblems({ "Moved to the DLQ." }).size() == 1);
    CHECK(glossaryLinkProblems({ "[[nonsense]]" })
        == std::vector<std::string> { "[[nonsense]] links to no glossary term" });
}

TEST_CASE("glossary: every lesson and exercise links each term where it first appears", "[course][glossary]")
{
    for (const LessonEntry& lesson : builtinLessons()) {
        const auto& text = *lesson.scenario.lesson;
        INFO("lesson " << text.id);
        CHECK(glossaryLinkProblems({ text.idea, text.watch, text.trap, text.fix }) == std::vector<std::string> {});
    }
    for (const Exercise& exercise : practiceExercises()) {
        INFO("exercise " << exercise.id);
        CHECK(glossaryLinkProblems({ exercise.question, exercise.hint }) == std::vector<std::string> {});
    }
}

namespace {
// The concepts a lesson relies on, found in its scenario as written and with its fix, and in its words: each one is
// introduced by one lesson, which the path must reach first.
std::set<std::string> conceptsUsed(const lifeline::scenario::Scenario& lesson)
{
    std::set<std::string> used;
    const auto fixed = lifeline::scenario::applyFix(lesson);
    REQUIRE(std::holds_alternative<lifeline::scenario::Scenario>(fixed));
    for (const auto* scenario : { &lesson, &std::get<lifeline::scenario::Scenario>(fixed) }) {
        for (const auto& queue : scenario->queues) {
            if (queue.deadLetterQueue)
                used.insert("dead-letter queue");
            if (queue.fifo)
                used.insert("FIFO queue");
            if (const auto delay = queue.attributes.find("DelaySeconds");
                delay != queue.attributes.end() && delay->second != "0")
                used.insert("delay queue");
        }
        if (!scenario->lambdas.empty())
            used.insert("Lambda trigger");
        for (const auto& producer : scenario->producers) {
            if (producer.delaySeconds.value_or(0) > 0)
                used.insert("message timer");
            for (const auto& message : producer.messages)
                if (message.delaySeconds.value_or(0) > 0)
                    used.insert("message timer");
        }
    }
    const auto& text = *lesson.lesson;
    std::string words = text.idea + " " + text.watch + " " + text.trap + " " + text.fix;
    for (const auto& moment : text.moments)
        words += " " + moment.caption;
    for (const TextPiece& piece : textPieces(words))
        if (piece.term)
            for (const char* term : { "dead-letter queue", "message timer", "delay queue", "long poll", "short poll" })
                if (piece.term->term == term)
                    used.insert(term == std::string("short poll") ? "long poll" : term);
    return used;
}
} // namespace

TEST_CASE("course: every lesson comes after the lessons that introduce what it relies on - the seed's delay within "
          "the first three steps",
    "[course]")
{
    // Each concept and the lesson that teaches it.
    const std::map<std::string, std::string> introducedBy { { "dead-letter queue", "poison-pill" },
        { "FIFO queue", "fifo-message-groups" }, { "Lambda trigger", "lambda-six-times" },
        { "delay queue", "delay-queue" }, { "message timer", "message-timer" },
        { "long poll", "short-vs-long-polling" } };
    std::set<std::string> introduced;
    const auto path = lessonsInCourseOrder();
    for (size_t step = 0; step < path.size(); ++step) {
        const auto& lesson = path[step]->scenario;
        for (const auto& [idea, by] : introducedBy)
            if (lesson.lesson->id == by)
                introduced.insert(idea);
        for (const std::string& idea : conceptsUsed(lesson)) {
            INFO("step " << step + 1 << ": " << lesson.lesson->id << " relies on the " << idea << ", which "
                         << introducedBy.at(idea) << " introduces");
            // Lesson 1's worker waits in a long poll before the next step says what one costs: its words link it.
            CHECK((introduced.count(idea) || (idea == "long poll" && step == 0)));
        }
    }
    // The seed's point is a delay against a visibility timeout: the first delay is drawn in the first three steps.
    CHECK(at("delay-queue") < 3);
    CHECK(at("fail-fast") > at("poison-pill"));
    CHECK(at("short-vs-long-polling") < at("poison-pill"));
    CHECK(at("short-vs-long-polling") < at("four-waits"));
}

TEST_CASE(
    "course: every exercise practises a lesson on the path - after the lessons its situation relies on", "[course]")
{
    for (const Exercise& exercise : practiceExercises()) {
        INFO(exercise.id);
        REQUIRE(placeInCourse(exercise.practises));
        // A FIFO exercise practises a lesson at or after FIFO is introduced; a Lambda one after Lambda is.
        const auto situation = lifeline::scenario::parseScenario(exercise.scenario.dump());
        if (const auto* scenario = std::get_if<lifeline::scenario::Scenario>(&situation)) {
            bool fifo = false;
            for (const auto& queue : scenario->queues)
                fifo = fifo || queue.fifo;
            if (fifo)
                CHECK(at(exercise.practises) >= at("fifo-message-groups"));
            if (!scenario->lambdas.empty())
                CHECK(at(exercise.practises) >= at("lambda-six-times"));
        }
    }
}

TEST_CASE("course: --lesson takes a place on the path as the menu shows it - an id - a number", "[course]")
{
    REQUIRE(findLessonOnPath("1.1"));
    CHECK(findLessonOnPath("1.1")->scenario.lesson->id == "life-of-a-message");
    CHECK(findLessonOnPath("3.2")->scenario.lesson->id == "fail-fast");
    CHECK(findLessonOnPath("20")->scenario.lesson->id == "fail-fast"); // its number, wherever it sits
    CHECK(findLessonOnPath("fail-fast")->scenario.lesson->id == "fail-fast");
    for (const char* nowhere : { "0.1", "1.0", "1.10", "7.1", "1.", ".1", "1.2.3", "1.x", "x.1", "-1.1", "1.1 " })
        CHECK(findLessonOnPath(nowhere) == nullptr);
    // Every place reads back as the lesson there.
    for (const LessonEntry* lesson : lessonsInCourseOrder()) {
        const auto place = placeInCourse(lesson->scenario.lesson->id);
        REQUIRE(place);
        CHECK(findLessonOnPath(placeLabel(*place)) == lesson);
    }
}
