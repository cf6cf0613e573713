// The picture of a run (core/include/lifeline/picture): what every renderer reads. Its words table, a lane's
// segments and marks, a bounded history read once for all, and golden files of lessons' serialised pictures (the web
// page's data and the control API's lanes), so both are checked byte for byte without a browser or a server.
#include "lifeline/engine/engine.h"
#include "lifeline/picture/actor_spans.h"
#include "lifeline/picture/lane_segments.h"
#include "lifeline/picture/picture_json.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/teach/lessons.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

using namespace lifeline;
using namespace lifeline::picture;
using nlohmann::json;

namespace {

struct LessonPicture {
    std::unique_ptr<sim::Simulation> simulation;
    RunPicture picture;

    explicit LessonPicture(const std::string& id)
    {
        const teach::LessonEntry* lesson = teach::findLesson(id);
        REQUIRE(lesson != nullptr);
        simulation = std::make_unique<sim::Simulation>(lesson->scenario);
        simulation->runToEnd();
        picture.setRun(&simulation->engine().run(), lesson->scenario.lesson->moments);
        (void)picture.sync();
    }
    const RunView& run() const { return simulation->engine().run(); }
};

// A golden file: its text, or (with LIFELINE_WRITE_GOLDEN set) written anew from `text`.
void checkGolden(const std::string& name, const std::string& text)
{
    const std::string path = std::string(LIFELINE_PICTURE_DIR) + "/" + name;
    if (std::getenv("LIFELINE_WRITE_GOLDEN") != nullptr) {
        std::ofstream(path) << text;
        WARN("wrote " << path);
        return;
    }
    std::ifstream in(path);
    REQUIRE(in.good());
    std::stringstream expected;
    expected << in.rdbuf();
    INFO(path << " differs: LIFELINE_WRITE_GOLDEN=1 writes it anew; read the difference before committing it");
    CHECK(text == expected.str());
}

// The lane of a given label in a lanesJson answer.
const json& laneLabelled(const json& lanes, const std::string& label)
{
    for (const json& queue : lanes.at("queues"))
        for (const json& lane : queue.at("lanes"))
            if (lane.at("label") == label)
                return lane;
    FAIL("no lane " << label);
    static const json none;
    return none;
}

} // namespace

TEST_CASE("picture words: states, marks and phrases from one table")
{
    CHECK(std::string(stateWords(MessageState::InFlight)) == "in flight");
    CHECK(std::string(stateWords(MessageState::DeadLettered)) == "dead-lettered");
    std::vector<std::string> marks;
    for (const LaneMark mark : kLaneMarks)
        marks.push_back(
            std::string(markWords(mark).glyph) + " " + markWords(mark).name + " (" + markWords(mark).id + ")");
    CHECK(marks
        == std::vector<std::string> { "2× duplicate (duplicate)", "◆ visibility changed (extended)", "✕ crash (crash)",
            "⊘ received by nobody (receivedByNobody)", "➜ moved to the DLQ (deadLetter)",
            "◷ retention ran out (expired)", "∅ purged (purged)", "↩ redriven from the DLQ (redriven)",
            "❐ second copy (injected) (copy)" });
    CHECK(segmentText({ Phrase::Visibility, 2, 30000 }).label == "#2 · visibility 30 s");
    CHECK(segmentText({ Phrase::Visibility, 2, 30000 }).shortLabel == "#2");
    CHECK(segmentText({ Phrase::VisibilityReset, 1, 90000 }).label == "#1 · reset to 1 min 30 s");
    CHECK(segmentText({ Phrase::DelayChanged, 0, 10000, 1500 }).label == "DelaySeconds 10 s → 1.5 s");
    CHECK(segmentText({ Phrase::Timer, 0, 900000 }).label == "timer 15 min");
    CHECK(segmentText({ Phrase::Timer, 0, 900000 }).shortLabel == "15 min");
    CHECK(segmentText({ Phrase::InFlightNumbered, 3 }).label == "in flight #3");
    CHECK(segmentText({ Phrase::None }).label.empty());
    // A translation passes through every template before it is filled.
    const Translate german = [](const char* text) {
        std::string out = text;
        if (const size_t at = out.find("visibility"); at != std::string::npos)
            out.replace(at, 10, "Sichtbarkeit");
        return out;
    };
    CHECK(segmentText({ Phrase::Visibility, 2, 30000 }, german).label == "#2 · Sichtbarkeit 30 s");
    // Every mark's event: the one that carries it.
    Event crash {};
    crash.cause = Cause::ConsumerCrashed;
    CHECK(laneMarkAt(crash) == LaneMark::Crash);
    // Each mark comes back from an event of its cause (in flight, a duplicate's bit set): a purge's ∅, a redrive's ↩.
    for (const LaneMark mark : kLaneMarks) {
        Event e {};
        e.cause = markCause(mark);
        e.to = MessageState::InFlight;
        e.detail = 1;
        CHECK(laneMarkAt(e) == mark);
    }
}

TEST_CASE("picture: a batch's words as the consumer's row shows them")
{
    const LessonPicture lesson("consumer-crash");
    WorkBar bar;
    bar.messages = 10;
    bar.failed = 3;
    CHECK(workText(lesson.run(), bar) == "batch of 10 · 3 failed");
    bar.failed = 10;
    CHECK(workText(lesson.run(), bar) == "batch of 10 · failed");
    bar.timedOut = true;
    CHECK(workText(lesson.run(), bar) == "batch of 10 · timed out");
}

TEST_CASE("picture: lesson 8's lane in the control API's JSON - segments, words, marks and receives to the ms")
{
    const LessonPicture lesson("visibility-too-short");
    const json lanes = lanesJson(lesson.picture);
    CHECK(lanes.at("version") == kPictureFormat);
    CHECK(lanes.at("now_ms") == lesson.run().now());
    const json& first = lanes.at("queues").at(0).at("lanes").at(0);
    // Received at 0 s with a 10 s visibility timeout while worker-1 works 30 s: visible again at 10 s and taken by
    // worker-2 (processed twice), then deleted.
    REQUIRE(first.at("segments").size() >= 4);
    CHECK(first.at("segments").at(1)
        == json(
            { { "state", "in-flight" }, { "from_ms", 0 }, { "to_ms", 10000 }, { "words", "#1 · visibility 10 s" } }));
    CHECK(first.at("segments").at(2).at("state") == "visible");
    CHECK(first.at("receives").at(1).at("at_ms") == 10000);
    CHECK(first.at("receives").at(1).at("client") == "worker-2");
    CHECK(first.at("marks").at(0) == json({ { "at_ms", 10000 }, { "mark", "duplicate" } }));
}

TEST_CASE("picture: a lane begun before the history held starts where the history does, in the state it had")
{
    EngineOptions options;
    options.historyMs = 1000;
    Engine engine(options);
    REQUIRE(engine.createQueue("q", {}).ok());
    SendMessageRequest send;
    send.queue = "q";
    send.body = "held";
    REQUIRE(engine.sendMessage(send).ok());
    ReceiveMessageRequest receive;
    receive.queue = send.queue;
    receive.visibilityTimeout = 600;
    receive.waitTimeSeconds = 0;
    REQUIRE(engine.receiveMessage(receive)->messages.size() == 1);
    // Enough ended messages that a whole chunk of the log goes (16,384 events; four a message here).
    for (int i = 0; i < 6000; ++i) {
        engine.advanceBy(1);
        send.body = "short " + std::to_string(i);
        REQUIRE(engine.sendMessage(send).ok());
        const auto got = engine.receiveMessage(receive);
        REQUIRE(got->messages.size() == 1);
        REQUIRE(engine.deleteMessage("q", got->messages[0].receiptHandle).ok());
    }
    engine.advanceBy(20000);
    RunPicture picture;
    picture.setRun(&engine.run(), {});
    (void)picture.sync();
    REQUIRE(picture.lanes().forgottenUntil() > 0);
    const json lanes = lanesJson(picture);
    const json& held = laneLabelled(lanes, "held");
    // In flight since 0 s; what the run holds begins later: one open segment from there, "in flight" (its receive
    // number went with the history), as the window's timeline draws it.
    CHECK(held.at("state") == "in-flight");
    CHECK(held.at("segments")
        == json::array({ { { "state", "in-flight" }, { "from_ms", picture.lanes().forgottenUntil() },
            { "to_ms", nullptr }, { "words", "in flight" } } }));
    CHECK(lanes.at("forgotten_until_ms") == picture.lanes().forgottenUntil());
}

TEST_CASE("picture: golden files - lessons 3 7 8 and 10 as the web page's data and the control API's lanes")
{
    for (const char* id : { "message-timer", "consumer-crash", "visibility-too-short", "poison-pill" }) {
        INFO(id);
        const LessonPicture lesson(id);
        checkGolden(std::string(id) + ".page.json", pictureJson(lesson.picture, "As written").dump(1) + "\n");
        checkGolden(std::string(id) + ".lanes.json", lanesJson(lesson.picture).dump(1) + "\n");
    }
    CHECK(wordsJson().at("marks").at("deadLetter") == json({ { "glyph", "➜" }, { "name", "moved to the DLQ" } }));
}

TEST_CASE("picture: the control API's lanes name a FIFO message's group - a standard one's has none", "[picture]")
{
    Engine engine;
    REQUIRE(engine.createQueue("pay.fifo", { { "FifoQueue", "true" }, { "ContentBasedDeduplication", "true" } }).ok());
    REQUIRE(engine.createQueue("plain").ok());
    SendMessageRequest send;
    send.queue = "pay.fifo";
    send.body = "charge 1";
    send.messageGroupId = "customer-7";
    REQUIRE(engine.sendMessage(send).ok());
    send.queue = "plain";
    send.body = "note 1";
    send.messageGroupId.reset();
    REQUIRE(engine.sendMessage(send).ok());
    RunPicture picture;
    picture.setRun(&engine.run(), {});
    (void)picture.sync();
    const json lanes = lanesJson(picture);
    CHECK(laneLabelled(lanes, "charge 1").at("group") == "customer-7");
    CHECK_FALSE(laneLabelled(lanes, "note 1").contains("group"));
}

TEST_CASE("picture: a queue's row in the page's data - lesson 31's refusals, lesson 4's queue with no lane - lesson "
          "32's alarm",
    "[picture]")
{
    const LessonPicture crossAccount("cross-account-queue-policy");
    const json page = pictureJson(crossAccount.picture, "As written");
    REQUIRE(page.at("groups").size() == 1);
    const json& notes = page.at("groups")[0].at("notes");
    REQUIRE(notes.size() == 10);
    CHECK(notes[0]
        == json { 2000, "refused",
            "AccessDenied: Access to the resource https://sqs.us-east-1.amazonaws.com/000000000000/orders is denied. "
            "(partner order 1)" });
    // Every send refused: the queue has no lane, and is listed for its row.
    const LessonPicture timers("fifo-refuses-timers");
    const json refusedOnly = pictureJson(timers.picture, "As written");
    REQUIRE_FALSE(refusedOnly.at("groups").empty());
    CHECK(refusedOnly.at("groups")[0].at("lanes").empty());
    CHECK(refusedOnly.at("groups")[0].at("notes")[0][1] == "refused");
    const LessonPicture alarm("cloudwatch-dlq-alarm");
    const json dlq = pictureJson(alarm.picture, "As written").at("groups")[0];
    CHECK(dlq.at("name") == "orders-dlq");
    CHECK(dlq.at("notes")
        == json::array({ json { 60000, "alarm-ok", "dlq-messages: OK, NumberOfMessagesSent 0 <= 0 for 1 min" } }));
}
