// A lesson's moments are found in the run itself: they follow a slider's change and disappear with the fix.
#include "lifeline/analysis/moments.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lesson_story.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <memory>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::scenario;
using namespace lifeline::sim;
using namespace lifeline::teach;

namespace {

Scenario lessonScenario(const std::string& id, bool fix)
{
    const LessonEntry* lesson = findLesson(id);
    REQUIRE(lesson != nullptr);
    if (!fix)
        return lesson->scenario;
    auto fixed = applyFix(lesson->scenario);
    REQUIRE(std::holds_alternative<Scenario>(fixed));
    return std::get<Scenario>(std::move(fixed));
}

std::vector<Moment> momentsOf(const Simulation& simulation)
{
    return findMoments(simulation.engine().run(), simulation.scenario().lesson->moments);
}

std::string problemOf(const std::string& momentsJson)
{
    const std::string text = std::string(R"({"queues": [{"name": "q"}, {"name": "q2.fifo", "type": "fifo"}],
        "lesson": {"id": "x", "number": 99, "title": "t", "idea": "i", "watch": "w", "trap": "t", "fix": "f",
        "moments": )")
        + momentsJson + "}}";
    const auto parsed = parseScenario(text);
    REQUIRE(std::holds_alternative<ScenarioError>(parsed));
    return std::get<ScenarioError>(parsed).text();
}

} // namespace

TEST_CASE("Lesson 8's moments: visible again while worker-1 works and the two duplicate processings")
{
    Simulation simulation(lessonScenario("visibility-too-short", false));
    simulation.runToEnd();
    const auto moments = momentsOf(simulation);
    REQUIRE(moments.size() == 3);
    CHECK(moments[0].at == 10000);
    CHECK(moments[0].caption == "Visible again 10 s after its receive while worker-1 is still working on it");
    CHECK(simulation.engine().message(moments[0].lane).state == MessageState::Deleted);
    CHECK(moments[1].at == 10000);
    CHECK(moments[1].lane == moments[0].lane);
    CHECK(moments[1].caption == "worker-2 takes it too: processed twice");
    CHECK(moments[2].at == 75000);
    CHECK(moments[2].caption == "worker-1 takes it too: processed twice");
    CHECK(moments[2].lane != moments[0].lane);
    CHECK_FALSE(moments[0].onActorRow);

    const auto summary = simulation.summary().toJson();
    REQUIRE(summary["moments"].size() == 3);
    CHECK(summary["moments"][0]["at"] == 10.0);
    CHECK(summary["moments"][0]["lane"] == simulation.engine().messageId(moments[0].lane).substr(0, 8));
    CHECK(summary["moments"][2]["caption"] == "worker-1 takes it too: processed twice");
}

TEST_CASE("Lesson 8's fix and a slider at the start both leave no moment")
{
    Simulation fixed(lessonScenario("visibility-too-short", true));
    fixed.runToEnd();
    CHECK(momentsOf(fixed).empty());
    CHECK(fixed.summary().toJson()["moments"].empty());

    // The learner moves the visibility slider to 60 s before any message is sent: the run has no moment either.
    Simulation slid(lessonScenario("visibility-too-short", false));
    REQUIRE(slid.setQueueAttributes("reports", { { "VisibilityTimeout", "60" } }).ok());
    slid.runToEnd();
    CHECK(momentsOf(slid).empty());
}

TEST_CASE("Moments found as a live run goes are the moments of the whole run")
{
    Simulation simulation(lessonScenario("consumer-crash", false));
    MomentFinder live(simulation.scenario().lesson->moments);
    for (TimeMs t = 0; t <= simulation.duration(); t += 700) {
        simulation.advanceTo(t);
        live.advance(simulation.engine().run());
    }
    simulation.runToEnd();
    live.advance(simulation.engine().run());
    const auto whole = momentsOf(simulation);
    REQUIRE(live.moments().size() == 4);
    REQUIRE(whole.size() == 4);
    for (size_t i = 0; i < whole.size(); ++i) {
        CHECK(live.moments()[i].at == whole[i].at);
        CHECK(live.moments()[i].caption == whole[i].caption);
    }
    CHECK(whole[0].at == 5000);
    CHECK(whole[0].caption == "worker-1 crashes holding the message: nobody will delete it");
    CHECK(whole[0].onActorRow);
    CHECK(whole[1].at == 30000);
    CHECK(whole[1].caption
        == "The visibility timeout ends 30 s after the receive: the message worker-1 held is visible again");
    CHECK(whole[2].at == 30000);
    CHECK(whole[2].caption == "worker-2 receives it (#2)");
    CHECK(whole[3].at == 40000);
    CHECK(whole[3].caption == "worker-2 finishes the job and deletes it");
}

TEST_CASE("Every moment of every lesson is found in the run as written or in its fix")
{
    for (const LessonEntry& lesson : builtinLessons()) {
        const auto& specs = lesson.scenario.lesson->moments;
        INFO(lesson.file);
        CHECK_FALSE(specs.empty());
        std::vector<bool> seen(specs.size(), false);
        for (const bool fix : { false, true }) {
            Simulation simulation(lessonScenario(lesson.scenario.lesson->id, fix));
            simulation.runToEnd();
            for (const Moment& m : momentsOf(simulation)) {
                seen[m.spec] = true;
                CHECK(m.caption.find('{') == std::string::npos);
            }
        }
        for (size_t i = 0; i < specs.size(); ++i) {
            INFO("moment " << i << ": " << specs[i].caption);
            CHECK(seen[i]);
        }
    }
}

TEST_CASE("No lesson's caption holds a number of its own: every figure in it is filled in from the run")
{
    for (const LessonEntry& lesson : builtinLessons())
        for (const MomentSpec& spec : lesson.scenario.lesson->moments) {
            INFO(lesson.file << ": " << spec.caption);
            CHECK(spec.caption.find_first_of("0123456789") == std::string::npos);
        }
}

namespace {
// The lesson as written with one change (a JSON Patch "replace" or "add" of `value` at `path`), run to its end.
std::vector<Moment> momentsWith(const std::string& id, bool fix, const std::string& path, int value)
{
    nlohmann::json source = findLesson(id)->scenario.source;
    if (fix)
        source = source.patch(findLesson(id)->scenario.source["lesson"]["fixPatch"]);
    source = source.patch(nlohmann::json::array({ { { "op", "add" }, { "path", path }, { "value", value } } }));
    auto parsed = parseScenario(source);
    REQUIRE(std::holds_alternative<Scenario>(parsed));
    Simulation simulation(std::get<Scenario>(std::move(parsed)));
    simulation.runToEnd();
    return momentsOf(simulation);
}

std::string captionOf(const std::vector<Moment>& moments, size_t spec)
{
    for (const Moment& m : moments)
        if (m.spec == spec)
            return m.caption;
    return "(not found)";
}
} // namespace

TEST_CASE("Captions follow a lesson's main setting when it changes")
{
    // Lesson 2's fix with a 20-second delay instead of 30.
    const auto delay = momentsWith("delay-queue", true, "/queues/0/attributes/DelaySeconds", 20);
    CHECK(
        captionOf(delay, 2) == "The queue's delay ends 20 s after the send: only now can a consumer receive the order");
    // Lesson 2 with a 20-second visibility timeout: its 20 s run out on the worker still packing the order.
    const auto packing = momentsWith("delay-queue", false, "/queues/0/attributes/VisibilityTimeout", 20);
    CHECK(captionOf(packing, 3)
        == "Visible again 20 s after its receive though worker still packs it: the timeout hid it from the other "
           "consumers, and only that long");
    // Lesson 10's fix with maxReceiveCount 5: the move comes after the fifth receive.
    const auto poison = momentsWith("poison-pill", true, "/queues/0/deadLetter/maxReceiveCount", 5);
    CHECK(
        captionOf(poison, 2) == "Received 5 times, and maxReceiveCount is 5: the next receive moves it to orders-dlq");
    const auto three = momentsWith("poison-pill", true, "/queues/0/deadLetter/maxReceiveCount", 3);
    CHECK(captionOf(three, 2) == "Received 3 times, and maxReceiveCount is 3: the next receive moves it to orders-dlq");
    // Lesson 8 with a 20-second visibility timeout.
    const auto visibility = momentsWith("visibility-too-short", false, "/queues/0/attributes/VisibilityTimeout", 20);
    CHECK(captionOf(visibility, 0) == "Visible again 20 s after its receive while worker-1 is still working on it");
    // Lesson 7 with a 12-second timeout: worker-2 comes back 12 s after worker-1's receive.
    const auto crash = momentsWith("consumer-crash", false, "/queues/0/attributes/VisibilityTimeout", 12);
    CHECK(captionOf(crash, 1)
        == "The visibility timeout ends 12 s after the receive: the message worker-1 held is visible again");
    // Lesson 1 with a 20-second visibility timeout.
    const auto life = momentsWith("life-of-a-message", false, "/queues/0/attributes/VisibilityTimeout", 20);
    CHECK(captionOf(life, 1)
        == "worker finished but never deleted it: visible again 20 s after the receive, when the timeout ends");
    // Lesson 3 with the queue's delay at 15 s: the retry without a timer turns visible after 15 s.
    const auto timer = momentsWith("message-timer", false, "/queues/0/attributes/DelaySeconds", 15);
    CHECK(captionOf(timer, 0)
        == "The retry turns visible 15 s after its send, when the queue's delay ends: it has no timer of its own");
    // Lesson 9 with a 15-second visibility timeout.
    const auto heartbeat = momentsWith("heartbeat", false, "/queues/0/attributes/VisibilityTimeout", 15);
    CHECK(captionOf(heartbeat, 0) == "Visible again 15 s after its receive: encoder-1 is still working on it");
    // Lesson 18 with maxReceiveCount 2 and the DLQ keeping messages 4 minutes.
    const auto dlq = momentsWith("dlq-retention", false, "/queues/1/deadLetter/maxReceiveCount", 2);
    CHECK(captionOf(dlq, 0) == "Received 2 times, and maxReceiveCount is 2: the next receive moves it to orders-dlq");
    const auto kept = momentsWith("dlq-retention", false, "/queues/0/attributes/MessageRetentionPeriod", 240);
    CHECK(captionOf(kept, 1)
        == "It expires in the DLQ 4 min after its original send: retention counts from the send, not from the move");
    // Lesson 20 with a 2-minute visibility timeout.
    const auto fail = momentsWith("fail-fast", false, "/queues/1/attributes/VisibilityTimeout", 120);
    CHECK(captionOf(fail, 1).starts_with("\u2026and waits out the whole visibility timeout, 2 min after its receive"));
    // Lesson 16 with a retention of 90 seconds.
    const auto retention = momentsWith("retention", false, "/queues/0/attributes/MessageRetentionPeriod", 90);
    CHECK(captionOf(retention, 0).starts_with("Retention is 1 min 30 s: the signup expires 1 min 30 s after its send"));
}

TEST_CASE("A caption that tells of an outcome shows only when it happened: lesson 7 with worker-2 crashed too")
{
    Simulation simulation(lessonScenario("consumer-crash", false));
    simulation.advanceTo(31000); // worker-2 received the message at 30 s
    for (size_t i = 0; i < simulation.consumers().size(); ++i)
        if (simulation.consumers()[i].name == "worker-2")
            REQUIRE(simulation.crashConsumer(i));
    simulation.runToEnd();
    const auto moments = momentsOf(simulation);
    CHECK(captionOf(moments, 2) == "worker-2 receives it (#2)");
    CHECK(captionOf(moments, 3) == "(not found)"); // nobody finished the job
}

TEST_CASE("Filters: a receive number, a body, an age, the state a send leads to")
{
    Simulation poison(lessonScenario("poison-pill", false));
    poison.runToEnd();
    const auto moments = momentsOf(poison);
    REQUIRE(moments.size() == 2);
    CHECK(moments[0].caption
        == "The poison order fails and is not deleted: it comes back when its visibility timeout ends");
    CHECK(moments[1].caption == "Received a 5th time: with no dead-letter queue the poison order never leaves");
    CHECK(moments[1].lane == moments[0].lane);
    CHECK(moments[1].at == 31000);

    Simulation timer(lessonScenario("message-timer", true));
    timer.runToEnd();
    const auto timed = momentsOf(timer);
    REQUIRE(timed.size() == 1);
    CHECK(timed[0].at == 60000);
    CHECK(timer.engine().message(timed[0].lane).body == "retry job 7");
}

TEST_CASE("A lesson's moments that do not read are load errors naming the field")
{
    CHECK(problemOf(R"([{"when": "visible-while-workin", "caption": "c"}])")
        == "lesson.moments[0].when: unknown pattern; did you mean \"visible-while-working\"?");
    CHECK(problemOf(R"([{"when": "crash", "caption": "{consumr} crashed"}])")
        == "lesson.moments[0].caption: unknown placeholder {consumr}; known are {consumer}, {queue}, {receive}, "
           "{ordinal}, {age}, {sinceReceive}, {sentAt}, {time}, {body}, {dlq}, {reason}, {tenant}, {alarm}, "
           "{maxReceiveCount}, {retention}, {fault}");
    CHECK(problemOf(R"([{"when": "dead-lettered", "caption": "{alarm} fired"}])")
        == "lesson.moments[0].caption: {alarm} is filled in only by \"when\": \"alarm\"");
    CHECK(problemOf(R"([{"when": "crash", "caption": "moved to {dlq}"}])")
        == "lesson.moments[0].caption: {dlq} is filled in only by \"when\": \"dead-lettered\"");
    CHECK(problemOf(R"([{"when": "receive", "caption": "{tenant} floods the queue"}])")
        == "lesson.moments[0].caption: {tenant} is filled in only by \"when\": \"tenant-noisy\"");
    CHECK(problemOf(R"([{"when": "crash", "caption": "c", "receive": 2}])")
        == "lesson.moments[0].receive: applies to \"when\": \"receive\" only");
    CHECK(problemOf(R"([{"when": "failed", "caption": "c", "failure": "boom"}])")
        == "lesson.moments[0].failure: must be one of threw, poison, timed-out, throttled, in-progress");
    CHECK(problemOf(R"([{"when": "receive", "caption": "c", "limit": 0}])")
        == "lesson.moments[0].limit: must be a whole number from 1 to 20, got 0");
    CHECK(problemOf(R"([{"when": "expired", "caption": "c", "minAge": "soon"}])")
        == "lesson.moments[0].minAge: must be a duration such as \"15s\" or \"2m\", got \"soon\"");
    CHECK(problemOf(R"([{"when": "receive", "caption": "c", "deadLetterQueue": "no"}])")
        == "lesson.moments[0].deadLetterQueue: must be true (only while the queue has a dead-letter queue) or false "
           "(only while it has none), got \"no\"");
    CHECK(problemOf(R"([{"when": "expired", "caption": "c", "queue": "qq"}])").find("lesson.moments[0].queue: ") == 0);
    CHECK(problemOf(R"({"when": "expired"})") == "lesson.moments: must be a list of moments");
    // A FIFO twin is accepted: a lesson's fix may turn the queue FIFO (the moment then finds nothing).
    const auto twin = parseScenario(std::string(R"({"queues": [{"name": "q"}],
        "lesson": {"id": "x", "number": 99, "title": "t", "idea": "i", "watch": "w", "trap": "t", "fix": "f",
        "moments": [{"when": "expired", "caption": "c", "queue": "q.fifo"}]}})"));
    CHECK(std::holds_alternative<Scenario>(twin));
}

TEST_CASE("A lesson against its fix: the figures that differ - lessons 8 - 11 and 21")
{
    const auto changes = [](const std::string& id) {
        Simulation written(lessonScenario(id, false));
        Simulation fixed(lessonScenario(id, true));
        written.runToEnd();
        fixed.runToEnd();
        std::vector<std::string> texts;
        for (const auto& change : compareSummaries(written.summary(), fixed.summary()))
            texts.push_back(change.text());
        return texts;
    };
    CHECK(changes("visibility-too-short")
        == std::vector<std::string> { "duplicate processings 2 \u2192 0", "receives 7 \u2192 5",
            "empty receives 14 \u2192 17", "longest wait from send to first receive 20 s \u2192 10 s",
            "longest from send to delete 45 s \u2192 35 s", "key moments 3 \u2192 0" });
    // Its sampled short polls (injected) kept a message waiting up to 4 s, and the last one unreceived at the end.
    CHECK(changes("short-vs-long-polling")
        == std::vector<std::string> { "receives 20 \u2192 21", "empty receives 581 \u2192 20",
            "longest wait from send to first receive 4 s \u2192 0 s", "longest from send to delete 5 s \u2192 1 s",
            "key moments 2 \u2192 1" });
    CHECK(changes("lambda-partial-batch")
        == std::vector<std::string> { "moved to a DLQ 10 \u2192 1", "receives 30 \u2192 12", "deleted 0 \u2192 9",
            "longest from send to delete 0 s \u2192 2 s", "key moments 3 \u2192 0" });

    Simulation written(lessonScenario("short-vs-long-polling", false));
    Simulation fixed(lessonScenario("short-vs-long-polling", true));
    written.runToEnd();
    fixed.runToEnd();
    const auto json = comparisonJson(written.summary(), fixed.summary());
    CHECK(json["asWritten"]["emptyReceives"] == 581);
    CHECK(json["fixed"]["emptyReceives"] == 20);
    CHECK(json["differences"][1]
        == nlohmann::json::parse(R"({"figure": "emptyReceives", "asWritten": 581, "fixed": 20})"));
}

TEST_CASE("Compare leads with the lesson's own measure - and every lesson's fix changes it")
{
    for (const LessonEntry& lesson : builtinLessons()) {
        const LessonText& text = *lesson.scenario.lesson;
        INFO(lesson.file);
        REQUIRE_FALSE(text.measure.empty());
        Simulation written(lessonScenario(text.id, false));
        Simulation fixed(lessonScenario(text.id, true));
        written.runToEnd();
        fixed.runToEnd();
        const auto changes = compareSummaries(written.summary(), fixed.summary(), text.measure, text.measureLabel);
        REQUIRE_FALSE(changes.empty());
        CHECK(changes.front().figure == text.measure);
        CHECK(changes.front().label == text.measureLabel);
        CHECK(changes.front().asWritten != changes.front().fixed);
    }
    const auto headline = [](const std::string& id) {
        const LessonText& text = *findLesson(id)->scenario.lesson;
        Simulation written(lessonScenario(id, false));
        Simulation fixed(lessonScenario(id, true));
        written.runToEnd();
        fixed.runToEnd();
        return compareSummaries(written.summary(), fixed.summary(), text.measure, text.measureLabel).front().text();
    };
    CHECK(headline("delay-queue") == "first receive after its send 0 s \u2192 30 s");
    CHECK(headline("lambda-six-times").starts_with("duplicate processings "));
    CHECK(headline("consumer-crash") == "the order done after its send 40 s \u2192 22 s");
}

TEST_CASE("A run's claim in words - for an image's caption line")
{
    const auto claimOf = [](const std::string& id) {
        Simulation simulation(lessonScenario(id, false));
        simulation.runToEnd();
        return simulation.summary().claim();
    };
    CHECK(claimOf("visibility-too-short") == "2 duplicate processings");
    CHECK(claimOf("short-vs-long-polling") == "581 empty receives \u00b7 18 faults injected");
    CHECK(claimOf("lambda-partial-batch") == "10 moved to a DLQ");
    CHECK(claimOf("retention") == "3 expired");
    CHECK(claimOf("fifo-refuses-timers") == "3 refused requests");
    CHECK(claimOf("consumer-crash") == "1 deleted, none twice");
}

TEST_CASE("A lesson's measure in words as far as the run has got - an animation's subtitle frame by frame")
{
    const auto measuredAt = [](const std::string& id, TimeMs at) {
        const Scenario lesson = lessonScenario(id, false);
        Simulation simulation(lesson);
        simulation.advanceTo(at);
        return simulation.summary().measureClaim(lesson.lesson->measure, lesson.lesson->measureLabel);
    };
    // Lesson 7: the order is deleted at 40 s (worker-1 crashed holding it); until then the time is not measured.
    CHECK(measuredAt("consumer-crash", 0) == "the order done after its send: not yet");
    CHECK(measuredAt("consumer-crash", 39000) == "the order done after its send: not yet");
    CHECK(measuredAt("consumer-crash", 41000) == "the order done after its send: 40 s");
    // Lesson 8: its duplicates as they happen, 0 before the first (10 s) and 2 at the end.
    CHECK(measuredAt("visibility-too-short", 5000) == "duplicate processings: 0");
    CHECK(measuredAt("visibility-too-short", 240000) == "duplicate processings: 2");
    // A counted figure and a wait: lesson 2's first receive, once there is one.
    CHECK(measuredAt("delay-queue", 0).starts_with("first receive after its send: "));
    // No measure: the run's claim.
    Simulation plain(lessonScenario("consumer-crash", false));
    plain.runToEnd();
    CHECK(plain.summary().measureClaim("", "") == "1 deleted, none twice");
}

namespace {
// The run of a lesson with its first queue's dead-letter queue toggled at `at` (one added, maxReceiveCount 5 as the
// Queue panel ticks it, where it had none; its RedrivePolicy removed where it had one), its moments found as the window
// finds them, step by step; returns the moments found after `at` and whether the queue had a dead-letter queue from
// then on.
std::pair<std::vector<Moment>, bool> momentsWithDlqToggled(const scenario::Scenario& lesson, TimeMs at)
{
    sim::Simulation run(lesson);
    MomentFinder finder(lesson.lesson->moments);
    for (TimeMs t = 0; t < at; t = std::min(at, t + 250)) {
        run.advanceTo(std::min(at, t + 250));
        finder.advance(run.engine().run());
    }
    const std::string queue = lesson.queues.front().name;
    const QueueIndex index = *run.engine().queueIndex(queue);
    const bool had = run.engine().run().queueInfo(index).attributes.redrivePolicy.has_value();
    if (had) {
        REQUIRE(run.setQueueAttributes(queue, { { "RedrivePolicy", "" } }));
    } else {
        const bool fifo = lesson.queues.front().fifo;
        const std::string dlq
            = queue.substr(0, fifo ? queue.size() - 5 : queue.size()) + (fifo ? "-dlq2.fifo" : "-dlq2");
        AttributeMap attributes;
        if (fifo)
            attributes["FifoQueue"] = "true";
        REQUIRE(run.createQueue(dlq, attributes));
        const std::string arn = run.engine().getQueueArn(dlq).value();
        REQUIRE(run.setQueueAttributes(
            queue, { { "RedrivePolicy", R"({"deadLetterTargetArn":")" + arn + R"(","maxReceiveCount":5})" } }));
    }
    const size_t before = finder.moments().size();
    for (TimeMs t = at; t < run.duration(); t += 250) {
        run.advanceTo(std::min(run.duration(), t + 250));
        finder.advance(run.engine().run());
    }
    return { std::vector<Moment>(finder.moments().begin() + std::ptrdiff_t(before), finder.moments().end()), !had };
}
} // namespace

TEST_CASE("A caption whose premise the user changes is withdrawn: every lesson with its DLQ toggled at each moment")
{
    // Lesson 10 with the dead-letter queue ticked at 4 s: the fifth receive is not told as "with no dead-letter queue
    // the poison order never leaves"; the move to the DLQ is told instead.
    const auto* poison = teach::findLesson("poison-pill");
    REQUIRE(poison);
    const auto [after, withDlq] = momentsWithDlqToggled(poison->scenario, 4000);
    CHECK(withDlq);
    bool moved = false;
    for (const Moment& m : after) {
        CHECK(m.caption.find("no dead-letter queue") == std::string::npos);
        moved = moved || m.caption.find("the next receive moves it to") != std::string::npos;
    }
    CHECK(moved);
    // Without its premise the caption would be told: the fifth receive still happens, beside the DLQ it denies.
    scenario::Scenario careless = poison->scenario;
    for (auto& spec : careless.lesson->moments)
        spec.deadLetterQueue.reset();
    bool denied = false;
    for (const Moment& m : momentsWithDlqToggled(careless, 4000).first)
        denied = denied || m.caption.find("no dead-letter queue") != std::string::npos;
    CHECK(denied);
    // Every lesson, toggled at each of its key moments: no caption after it assumes the dead-letter queue it no
    // longer has, or the absence of one it now has.
    for (const auto& entry : teach::builtinLessons()) {
        if (entry.scenario.queues.empty())
            continue;
        INFO(entry.file);
        for (const Moment& moment : lessonStory(entry.scenario).moments) {
            INFO("toggled at " << moment.at << " ms");
            const auto [told, dlq] = momentsWithDlqToggled(entry.scenario, moment.at);
            for (const Moment& m : told) {
                INFO(m.caption);
                if (dlq)
                    CHECK(m.caption.find("no dead-letter queue") == std::string::npos);
                else
                    CHECK(m.caption.find("moves it to") == std::string::npos);
            }
        }
    }
}

namespace {
// A lesson run with its first queue's `attribute` set to `value` at `at`, as the Queue panel's slider sets it, and
// the moments it told after that, found step by step as the window finds them.
struct SettingRun {
    std::unique_ptr<sim::Simulation> run;
    std::vector<Moment> told;
};
SettingRun momentsWithSetting(
    const scenario::Scenario& lesson, TimeMs at, const std::string& attribute, const std::string& value)
{
    SettingRun out { std::make_unique<sim::Simulation>(lesson), {} };
    sim::Simulation& run = *out.run;
    MomentFinder finder(lesson.lesson->moments);
    for (TimeMs t = 0; t < at; t = std::min(at, t + 500)) {
        run.advanceTo(std::min(at, t + 500));
        finder.advance(run.engine().run());
    }
    const size_t before = finder.moments().size();
    (void)run.setQueueAttributes(
        lesson.queues.front().name, { { attribute, value } }); // a FIFO refusal changes nothing
    for (TimeMs t = at; t < run.duration(); t += 500) {
        run.advanceTo(std::min(run.duration(), t + 500));
        finder.advance(run.engine().run());
    }
    out.told.assign(finder.moments().begin() + std::ptrdiff_t(before), finder.moments().end());
    return out;
}

// Whether the lane's log has `cause` at `at` (and, for a send, into `to`).
bool laneHas(const RunView& run, MessageIndex lane, Cause cause, TimeMs at, std::optional<MessageState> to = {})
{
    for (size_t i = 0; i < run.log().size(); ++i) {
        const Event e = run.log()[i];
        if (e.message == lane && e.cause == cause && e.time == at && (!to || e.to == *to))
            return true;
    }
    return false;
}
} // namespace

TEST_CASE("Every lesson with each slider moved at each key moment: every caption told after it is whole and true to "
          "the run")
{
    // The Queue panel's sliders, each to a value far from every lesson's own: the visibility timeout short and long,
    // the delay off and long. A caption's numbers come from the run (its placeholders); checked here: every
    // placeholder is filled whatever the settings, and none claims a delay or a timeout the run did not have ("No
    // delay" only of a message sent visible at that instant, "Visible again" only where its timeout ended then).
    const std::vector<std::pair<std::string, std::string>> sliders { { "VisibilityTimeout", "5" },
        { "VisibilityTimeout", "120" }, { "DelaySeconds", "0" }, { "DelaySeconds", "45" } };
    size_t told = 0, claims = 0;
    for (const auto& entry : teach::builtinLessons()) {
        if (entry.scenario.queues.empty())
            continue;
        INFO(entry.file);
        for (const Moment& moment : lessonStory(entry.scenario).moments) {
            for (const auto& [attribute, value] : sliders) {
                INFO(attribute << "=" << value << " at " << moment.at << " ms");
                const SettingRun setting = momentsWithSetting(entry.scenario, moment.at, attribute, value);
                const RunView& run = setting.run->engine().run();
                for (const Moment& m : setting.told) {
                    INFO(m.caption);
                    ++told;
                    CHECK(m.caption.find_first_of("{}") == std::string::npos);
                    CHECK_FALSE(m.caption.empty());
                    if (m.lane == kNoMessage || m.onActorRow)
                        continue;
                    if (m.caption.starts_with("No delay")) {
                        ++claims;
                        CHECK(laneHas(run, m.lane, Cause::Send, m.at, MessageState::Visible));
                    }
                    if (m.caption.starts_with("Visible again")) {
                        ++claims;
                        CHECK(laneHas(run, m.lane, Cause::VisibilityTimeout, m.at));
                    }
                }
            }
        }
    }
    // The sweep told 242 captions, 16 of them such claims, when written: it does reach them.
    CHECK(told >= 200);
    CHECK(claims >= 10);
}
