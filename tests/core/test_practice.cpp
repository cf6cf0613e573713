// Practice exercises: each fails as given, passes with its reference answer, and a typical wrong answer fails with
// its own why; an answer the exercise does not offer is refused by name.
#include "lifeline/teach/drill.h"
#include "lifeline/teach/glossary.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/practice.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::teach;

TEST_CASE("practice: every exercise file reads", "[practice]")
{
    CHECK(practiceExercises().size() == practiceSources().size());
    CHECK(practiceExercises().size() == 70);
    for (const auto& [file, text] : practiceSources()) {
        INFO(file);
        const auto read = readExercise(text);
        CHECK(read.ok());
    }
}

TEST_CASE(
    "practice: each exercise fails as given - passes with its solution - its wrong answer gets its why", "[practice]")
{
    for (const Exercise& exercise : practiceExercises()) {
        INFO(exercise.id);
        const auto given = checkAnswer(exercise, {});
        REQUIRE(given.ok());
        CHECK_FALSE(given->passed);
        const auto solved = checkAnswer(exercise, exercise.solution);
        REQUIRE(solved.ok());
        CHECK(solved->passed);
        CHECK(solved->why.starts_with("passed: "));
        const auto wrong = checkAnswer(exercise, exercise.wrong);
        REQUIRE(wrong.ok());
        CHECK_FALSE(wrong->passed);
        CHECK(wrong->why == exercise.wrongWhy);
    }
}

TEST_CASE("practice: the why names the figure and the moment where it went wrong", "[practice]")
{
    const Exercise* exercise = findExercise("visibility-for-the-work");
    REQUIRE(exercise != nullptr);
    const auto result = checkAnswer(*exercise, {});
    REQUIRE(result.ok());
    CHECK(result->toJson()
        == nlohmann::json { { "passed", false }, { "at", 10.0 },
            { "why", "processed twice: 2; each turned visible while a worker was still on it" } });
}

TEST_CASE("practice: a setting not offered - a value out of range - an unknown choice are refused", "[practice]")
{
    const Exercise* visibility = findExercise("visibility-for-the-work");
    REQUIRE(visibility != nullptr);
    const auto unknown = checkAnswer(*visibility, PracticeAnswer { { { "Visibility", 60 } }, "" });
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.message() == "this exercise has no setting \"Visibility\"; its settings: VisibilityTimeout");
    const auto range = checkAnswer(*visibility, PracticeAnswer { { { "VisibilityTimeout", 43201 } }, "" });
    REQUIRE_FALSE(range.ok());
    CHECK(range.message() == "VisibilityTimeout must be from 0 to 43200, got 43201");
    const Exercise* choices = findExercise("fail-fast");
    REQUIRE(choices != nullptr);
    const auto choice = checkAnswer(*choices, PracticeAnswer { {}, "D" });
    REQUIRE_FALSE(choice.ok());
    CHECK(choice.message() == "this exercise has no choice \"D\"");
    CHECK(readExercise(R"({"id": "x", "title": "t", "topic": "t", "question": "q", "hint": "h", "lesson": "nope"})")
              .message()
        == "lesson: no built-in lesson \"nope\"");
}

TEST_CASE(
    "practice: an exercise declares its right answers - its solution inside - its wrong answer outside", "[practice]")
{
    const std::string head = R"({"id": "x", "title": "t", "topic": "t", "question": "q", "hint": "h",
        "lesson": "visibility-too-short", "passed": "none twice",
        "controls": [{"name": "V", "path": "/queues/0/attributes/VisibilityTimeout", "min": 0, "max": 100}],
        "check": [{"figure": "duplicates", "atMost": 0, "why": "w"}], )";
    CHECK(readExercise(head + R"("solution": {"set": {"V": 60}}})").message()
        == "right: is required: the choices that are right, or the setting's range that is");
    CHECK(readExercise(head + R"("right": {"set": {"V": {"from": 30, "to": 200}}}, "solution": {"set": {"V": 60}}})")
              .message()
        == "right.set.V: must be a range inside 0-100");
    CHECK(readExercise(head + R"("right": {"set": {"W": {"from": 30, "to": 100}}}, "solution": {"set": {"V": 60}}})")
              .message()
        == "right.set.W: the exercise has no such setting");
    CHECK(readExercise(head + R"("right": {"set": {"V": {"from": 30, "to": 100}}}, "solution": {"set": {"V": 20}}})")
              .message()
        == "solution: is not among the right answers");
    CHECK(readExercise(head + R"("right": {"set": {"V": {"from": 30, "to": 100}}}, "solution": {"set": {"V": 60}},
        "wrong": {"set": {"V": 30}, "why": "w"}})")
              .message()
        == "wrong: is among the right answers");
    const auto read
        = readExercise(head + R"("right": {"set": {"V": {"from": 30, "to": 100}}}, "solution": {"set": {"V": 60}}})");
    REQUIRE(read.ok());
    CHECK(read->right.setting == "V");
    CHECK(read->right.from == 30);
    CHECK(read->right.to == 100);
    CHECK(PracticeAnswer { { { "V", 30 } }, "" }.isRight(read->right));
    CHECK_FALSE(PracticeAnswer { { { "V", 29 } }, "" }.isRight(read->right));
}

TEST_CASE(
    "practice: a question has no run - each choice gets its own reason - with the AWS page it comes from", "[practice]")
{
    const Exercise* question = findExercise("service-for-replay");
    REQUIRE(question != nullptr);
    CHECK(question->isQuestion());
    const auto right = checkAnswer(*question, PracticeAnswer { {}, "D" });
    REQUIRE(right.ok());
    CHECK(right->toJson()
        == nlohmann::json { { "passed", true },
            { "why",
                "passed: each application reads the stream from its own position, records stay for the stream's "
                "retention period (24 hours by default, up to 365 days) however often they are read, and a partition "
                "key keeps each user's clicks in order on one shard" },
            { "source", "https://docs.aws.amazon.com/streams/latest/dev/key-concepts.html" } });
    const auto wrong = checkAnswer(*question, PracticeAnswer { {}, "C" });
    REQUIRE(wrong.ok());
    CHECK_FALSE(wrong->passed);
    CHECK(wrong->why
        == "retention keeps a message that nobody deleted; once an application deletes a click it is gone for the "
           "others, and a standard queue keeps no order");
    CHECK(checkAnswer(*question, {})->why == "no choice yet: choose the service that fits");
    CHECK(checkAnswer(*question, PracticeAnswer { {}, "E" }).message() == "this exercise has no choice \"E\"");
    CHECK(checkAnswer(*question, PracticeAnswer { { { "VisibilityTimeout", 30 } }, "" }).message()
        == "this exercise has no setting \"VisibilityTimeout\": it is a question, answered with a choice");
    CHECK(answeredScenario(*question, {}).message() == "exercise service-for-replay is a question: it has no run");
    const std::string head = R"({"id": "x", "title": "t", "topic": "t", "question": "q", "hint": "h",
        "practises": "fan-out", "right": {"choose": ["A"]}, "solution": {"choose": "A"}, )";
    const std::string choices
        = R"("choices": [{"id": "A", "text": "a", "why": "ya"}, {"id": "B", "text": "b", "why": "yb"}], )";
    CHECK(readExercise(head + choices + R"("source": "https://example.com/", "wrong": {"choose": "B", "why": "yb"}})")
              .message()
        == "source: must be an AWS page (https://docs.aws.amazon.com/...), got \"https://example.com/\"");
    const std::string aws = R"("source": "https://docs.aws.amazon.com/sns/", )";
    CHECK(readExercise(head + choices + aws + R"("wrong": {"choose": "B", "why": "another"}})").message()
        == "wrong.why: must be the why of the choice it names");
    CHECK(readExercise(head + choices + aws + R"("check": [], "wrong": {"choose": "B", "why": "yb"}})").message()
        == "check: a question has no run (give it a \"scenario\" or \"lesson\" to have one)");
    CHECK(
        readExercise(head
            + R"("choices": [{"id": "A", "text": "a", "why": "ya", "patch": []}, {"id": "B", "text": "b", "why": "yb"}], )"
            + aws + R"("wrong": {"choose": "B", "why": "yb"}})")
            .message()
        == "choices[0].patch: a question's choice has a why, not a patch");
    CHECK(readExercise(head + choices + aws + R"("wrong": {"choose": "B", "why": "yb"}})").ok());
}

TEST_CASE("practice: a passing verdict names the rule the learner applied, with the run's figures", "[practice]")
{
    const Exercise* exercise = findExercise("visibility-for-the-work");
    REQUIRE(exercise != nullptr);
    const auto passed = checkAnswer(*exercise, PracticeAnswer { { { "VisibilityTimeout", 26 } }, "" });
    REQUIRE(passed.ok());
    CHECK(passed->passed);
    CHECK(passed->why == "passed: no message turned visible while a worker was still on it: 5 done, none twice");
    const auto tie = checkAnswer(*exercise, PracticeAnswer { { { "VisibilityTimeout", 25 } }, "" });
    REQUIRE(tie.ok());
    CHECK_FALSE(tie->passed);
}

TEST_CASE("practice: answers that looped for ever are refused the way AWS refuses them", "[practice]")
{
    const Exercise* same = findExercise("dlq-same-type");
    REQUIRE(same != nullptr);
    const auto itself = checkAnswer(*same, PracticeAnswer { {}, "C" });
    REQUIRE(itself.ok());
    CHECK_FALSE(itself->passed);
    CHECK(itself->why == "the RedrivePolicy was refused (1 refused), so the poison order has no dead-letter queue");
    const Exercise* lambda = findExercise("lambda-six-times");
    REQUIRE(lambda != nullptr);
    // Under the function's timeout Lambda refuses the trigger, so the setting is not offered there at all.
    const auto zero = checkAnswer(*lambda, PracticeAnswer { { { "VisibilityTimeout", 0 } }, "" });
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.message() == "VisibilityTimeout must be from 30 to 43200, got 0");
    const auto least = checkAnswer(*lambda, PracticeAnswer { { { "VisibilityTimeout", 30 } }, "" });
    REQUIRE(least.ok());
    CHECK_FALSE(least->passed);
}

TEST_CASE("drill: exercises drawn across topics in turn - none twice - the same seed the same drill", "[practice]")
{
    std::set<std::string> topics;
    for (const Exercise& e : practiceExercises())
        topics.insert(e.topic);
    const auto drill = drawDrill(20, 7);
    REQUIRE(drill.size() == 20);
    std::set<const Exercise*> unique;
    for (const DrillQuestion& q : drill)
        unique.insert(q.exercise);
    CHECK(unique.size() == 20);
    // The first round asks every topic once before any topic comes again.
    std::set<std::string> firstRound;
    for (size_t i = 0; i < topics.size(); ++i)
        firstRound.insert(drill[i].exercise->topic);
    CHECK(firstRound == topics);
    CHECK(drawDrill(20, 7) == drill);
    CHECK(drawDrill(20, 8) != drill);
    CHECK(drawDrill(1000, 7).size() == practiceExercises().size());
    CHECK(drawDrill(0, 7).empty());
    // Scored by topic, in the order asked; a topic missed names its exercises' lessons to review, each once.
    std::vector<DrillAnswer> answers { { drill[0].exercise, {}, true }, { drill[1].exercise, {}, false },
        { drill[0].exercise, {}, false }, { drill[0].exercise, {}, false } };
    const auto scores = scoreByTopic(answers);
    REQUIRE(scores.size() == (drill[0].exercise->topic == drill[1].exercise->topic ? 1u : 2u));
    CHECK(scores[0].first == drill[0].exercise->topic);
    CHECK(scores[0].second.asked == 3);
    CHECK(scores[0].second.passed == 1);
    CHECK(scores[0].second.review == std::vector<std::string> { drill[0].exercise->practises });
}

TEST_CASE(
    "drill: every multiple choice asked in a shuffled order - each choice once - a letter says nothing", "[practice]")
{
    // Over many drills, the right answer sits at each letter about as often (the files' order put it at B 15 times
    // of 20: answering B every time scored 75 %).
    std::map<size_t, int> rightAt;
    int asked = 0;
    for (uint64_t seed = 1; seed <= 200; ++seed)
        for (const DrillQuestion& q : drawDrill(1000, seed)) {
            REQUIRE(q.choices.size() == q.exercise->choices.size());
            std::set<std::string> ids;
            for (const PracticeChoice* c : q.choices)
                ids.insert(c->id);
            CHECK(ids.size() == q.exercise->choices.size());
            for (size_t i = 0; i < q.choices.size(); ++i)
                if (q.choices[i]->id == q.exercise->solution.choice) {
                    ++rightAt[i];
                    ++asked;
                }
        }
    REQUIRE(asked > 0);
    INFO("A " << rightAt[0] << ", B " << rightAt[1] << ", C " << rightAt[2] << ", D " << rightAt[3]);
    for (size_t letter = 0; letter < 3; ++letter) // every question has at least three choices
        CHECK(double(rightAt[letter]) / asked < 0.35);
    CHECK(drillLetter(0) == "A");
    CHECK(drillLetter(3) == "D");
}

TEST_CASE("practice: the bank's right answers spread over the letters - none right in more than 35 % of the items",
    "[practice]")
{
    std::map<std::string, int> rightAt;
    int items = 0;
    for (const Exercise& e : practiceExercises()) {
        if (e.choices.empty())
            continue;
        ++items;
        for (const std::string& right : e.right.choices)
            ++rightAt[right];
        // Ids are the letters in order, so what `lifeline practice` lists as B is the second choice.
        for (size_t i = 0; i < e.choices.size(); ++i)
            CHECK(e.choices[i].id == drillLetter(i));
    }
    REQUIRE(items >= 20);
    for (const auto& [letter, count] : rightAt) {
        INFO(letter << " right in " << count << " of " << items);
        CHECK(count * 100 <= items * 35);
    }
}

TEST_CASE("practice: a figure of a consumer by name - several of one spec added up - a queue the run lacks counts 0",
    "[practice]")
{
    const Exercise* exercise = findExercise("fan-out-with-filter");
    REQUIRE(exercise != nullptr);
    const auto why = [&](const std::string& choice) {
        const auto result = checkAnswer(*exercise, PracticeAnswer { {}, choice });
        REQUIRE(result.ok());
        return result->why;
    };
    // billing-1..3 together: 4 of the 6 orders; no queue eu-customs in this run, and no failure for it.
    CHECK(why("A") == "billing invoiced 4 of the 6 orders: the others went to another service");
    CHECK(why("B")
        == "passed: each service read its own queue: billing and the warehouse handled every order, and only the EU "
           "orders reached customs (15 copies in all)");
    CHECK(why("C")
        == "6 orders reached customs' queue: only the 3 from the EU are its business, and a filter policy keeps the "
           "others out");
    CHECK(why("D") == "billing invoiced 2 of the 6 orders: the others went to another service");
}

TEST_CASE(
    "practice: S3 events to an SSE-KMS queue - each answer's verdict names the refusal its run logged", "[practice]")
{
    const Exercise* exercise = findExercise("s3-events-encrypted-queue");
    REQUIRE(exercise != nullptr);
    const auto why = [&](const std::string& choice) {
        const auto result = checkAnswer(*exercise, PracticeAnswer { {}, choice });
        REQUIRE(result.ok());
        return result->why;
    };
    const std::string kms = "S3 dropped 4 of the 4 events: S3 may not use the queue's KMS key to encrypt them";
    CHECK(why("A") == kms); // a wider queue policy: the AWS managed key still refuses S3
    CHECK(why("B") == "passed: S3 could send with the queue's key: 4 events arrived and the indexer processed 4");
    CHECK(why("C") == kms); // a customer key whose policy does not name S3
    CHECK(why("D") == "S3 dropped 4 of the 4 events: the queue's policy does not allow S3 to send them");
}

TEST_CASE("practice: a fair queue - each answer's verdict is its own run's - only group ids serve smallshop in time",
    "[practice]")
{
    const Exercise* exercise = findExercise("fair-queue-tenants");
    REQUIRE(exercise != nullptr);
    const auto why = [&](const std::string& choice) {
        const auto result = checkAnswer(*exercise, PracticeAnswer { {}, choice });
        REQUIRE(result.ok());
        return result->why;
    };
    const auto waited = [](const std::string& wait) {
        return "a smallshop report waited " + wait + " for its first receive: it queued behind bigcorp's export";
    };
    CHECK(checkAnswer(*exercise, {})->why == waited("2 min 8 s"));
    CHECK(why("A") == waited("1 min 8 s")); // more workers drain the export sooner; smallshop still waits behind it
    CHECK(why("B")
        == "passed: receives served smallshop's reports ahead of bigcorp's export: its longest wait was 8 s, and all "
           "428 reports were done");
    CHECK(why("C") == waited("2 min 10 s")); // the export only starts later
    // FIFO serves smallshop in time, but bigcorp's group goes one batch at a time: 175 of its 400 in 3 minutes.
    CHECK(why("D") == "only 203 of the 428 reports were done in the 3 minutes");
}

TEST_CASE(
    "practice: the instructor's review - every misleading leftover now says what the run and AWS say", "[practice]")
{
    const auto contains = [](const std::string& text, const std::string& part) {
        INFO(text);
        return text.find(part) != std::string::npos;
    };
    // Practice 20: purging the DLQ deletes the orders, so they did not "stay in the DLQ".
    const auto purged = checkAnswer(*findExercise("redrive"), PracticeAnswer { {}, "B" });
    REQUIRE(purged.ok());
    CHECK(purged->why == "only 0 of the 3 orders were processed: the others never came back from the DLQ");
    // Practice 25: the refusal is named as a refusal, not as SQS's own words.
    const auto refused = checkAnswer(*findExercise("dlq-same-type"), PracticeAnswer { {}, "A" });
    REQUIRE(refused.ok());
    CHECK_FALSE(contains(refused->why, "SQS refused"));
    // Practice 30: workers that exactly match the arrivals leave no headroom.
    CHECK(contains(findExercise("consumers-for-the-backlog")->passed, "no headroom"));
    // Practice 33: a FIFO dead-letter queue breaks the group's exact order (AWS's caveat).
    CHECK(contains(findExercise("fifo-poison-blocks-group")->passed, "can break the exact order"));
    // Practice 31 passes 3 receives while quoting AWS's 5: it says why both hold.
    CHECK(contains(findExercise("max-receive-count-for-a-trigger")->passed, "AWS's advice of at least 5 is a floor"));
    // Practice 05: Lambda refuses a visibility timeout under the function's 30 s, so the setting starts there.
    REQUIRE(findExercise("lambda-six-times")->controls.size() == 1);
    CHECK(findExercise("lambda-six-times")->controls[0].min == 30);
    // The glossary: a filter policy may match the body; the fair queue's thresholds are approximate.
    CHECK(contains(findGlossaryTerm("filter policy")->definition, "FilterPolicyScope is MessageBody"));
    CHECK(contains(findGlossaryTerm("fair queue")->definition, "approximate"));
    CHECK(contains(findGlossaryTerm("fair queue")->definition, "processing time"));
    // Lesson 24: a higher maxReceiveCount does help a burst (practice 31), and each throttle still costs a receive.
    CHECK(
        contains(findLesson("lambda-maximum-concurrency")->scenario.lesson->trap, "gives a burst like this one room"));
    // Lesson 26: its fix's run draws the pointers, not the S3 round trip, and says so.
    CHECK(contains(findLesson("large-messages")->scenario.lesson->fix, "The run draws the queue, not S3"));
}
