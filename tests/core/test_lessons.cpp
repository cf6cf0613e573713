// Every built-in lesson is run, and its fix too, and what the lesson claims is checked on the event log.
#include "lifeline/analysis/moments.h"
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/reference_cards.h"
#include "lifeline/timeline/depth_series.h"
#include "lifeline/timeline/tenant_series.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <memory>
#include <set>

using namespace lifeline;
using namespace lifeline::analysis;
using namespace lifeline::scenario;
using namespace lifeline::sim;
using namespace lifeline::teach;

namespace {

std::unique_ptr<Simulation> runLesson(const std::string& id, bool fix)
{
    const LessonEntry* lesson = findLesson(id);
    REQUIRE(lesson != nullptr);
    Scenario scenario = lesson->scenario;
    if (fix) {
        auto fixed = applyFix(scenario);
        REQUIRE(std::holds_alternative<Scenario>(fixed));
        scenario = std::get<Scenario>(std::move(fixed));
    }
    auto simulation = std::make_unique<Simulation>(std::move(scenario));
    simulation->runToEnd();
    return simulation;
}

// Events of one cause, optionally for one lane.
std::vector<Event> events(const Simulation& s, Cause cause, MessageIndex lane = kNoMessage)
{
    std::vector<Event> out;
    const auto& log = s.engine().log();
    for (size_t i = 0; i < log.size(); ++i)
        if (log[i].cause == cause && (lane == kNoMessage || log[i].message == lane))
            out.push_back(log[i]);
    return out;
}

MessageIndex laneWithBody(const Simulation& s, const std::string& fragment)
{
    const auto& log = s.engine().log();
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].cause == Cause::Send && log[i].message != kNoMessage) {
            const auto& record = s.engine().message(log[i].message);
            if (record.body.view().find(fragment) != std::string::npos)
                return log[i].message;
        }
    }
    return kNoMessage;
}

std::string refusedText(const Simulation& s)
{
    const auto refused = events(s, Cause::RequestRefused);
    REQUIRE_FALSE(refused.empty());
    return s.engine().log().text(refused.front().detail);
}

} // namespace

TEST_CASE("lessons: every lesson file loads - in order - with every text", "[lessons]")
{
    const auto& lessons = builtinLessons();
    // A lesson file that does not parse is left out of the list: the files on disk are the count.
    size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(LIFELINE_LESSONS_DIR))
        files += entry.path().extension() == ".json";
    REQUIRE(files >= 21);
    REQUIRE(lessonSources().size() == files);
    REQUIRE(lessons.size() == files);
    for (size_t i = 0; i < lessons.size(); ++i) {
        const auto& text = *lessons[i].scenario.lesson;
        INFO(lessons[i].file);
        CHECK(text.number == int(i + 1));
        CHECK_FALSE(text.title.empty());
        CHECK(text.idea.size() > 80);
        CHECK_FALSE(text.watch.empty());
        // What to watch is read while the run plays: fifty words at most (seven ran 54 to 80).
        size_t words = 0;
        for (size_t at = 0; at < text.watch.size(); ++words) {
            at = text.watch.find_first_not_of(' ', at);
            if (at == std::string::npos)
                break;
            at = text.watch.find(' ', at);
        }
        CHECK(words <= 50);
        CHECK_FALSE(text.trap.empty());
        CHECK_FALSE(text.fix.empty());
        CHECK_FALSE(text.fixPatch.empty());
        CHECK(std::holds_alternative<Scenario>(applyFix(lessons[i].scenario)));
    }
    CHECK(findLesson("8") == findLesson("visibility-too-short"));
    CHECK(findLesson("nope") == nullptr);
}

TEST_CASE("lesson 1: received is not deleted - deleting ends the lane", "[lessons]")
{
    const auto forgets = runLesson("life-of-a-message", false);
    const auto summary = forgets->summary();
    CHECK(summary.deleted == 0);
    CHECK(summary.received >= 4); // back after every 30 s timeout
    const auto receives = events(*forgets, Cause::Receive);
    CHECK(receives.at(1).time - receives.at(0).time == 30000);
    CHECK(receives.at(1).detail == 2);
    // It forgets to delete: its work finishes every time, nothing fails (the text says so; the log agrees).
    CHECK(events(*forgets, Cause::ProcessingFailed).empty());
    CHECK(events(*forgets, Cause::ProcessingFinished).size() == receives.size() - 1); // the last is still at work
    const auto fixed = runLesson("life-of-a-message", true);
    CHECK(fixed->summary().received == 1);
    const auto deletes = events(*fixed, Cause::Delete);
    REQUIRE(deletes.size() == 1);
    CHECK(deletes[0].time == 5000);
    CHECK(fixed->engine().message(deletes[0].message).state == MessageState::Deleted);
}

TEST_CASE("lesson 2: a delay queue holds every new message - the visibility timeout runs out on a worker still at "
          "it",
    "[lessons]")
{
    const auto noDelay = runLesson("delay-queue", false);
    const auto orders = events(*noDelay, Cause::Send);
    REQUIRE(orders.size() == 3);
    for (const auto& send : orders) {
        const auto received = events(*noDelay, Cause::Receive, send.message);
        REQUIRE(received.size() == 1);
        CHECK(received[0].time - send.time < 1000);
        // The whole 30 s run out while the worker packs it (40 s): visible again, then deleted by that worker.
        const auto timedOut = events(*noDelay, Cause::VisibilityTimeout, send.message);
        REQUIRE(timedOut.size() == 1);
        CHECK(timedOut[0].time == received[0].time + 30000);
        const auto deleted = events(*noDelay, Cause::Delete, send.message);
        REQUIRE(deleted.size() == 1);
        CHECK(deleted[0].time == received[0].time + 40000);
        CHECK(deleted[0].from == MessageState::Visible);
    }
    CHECK(noDelay->summary().duplicates == 0); // one worker: nobody else was there to take it
    const auto moments = noDelay->summary().moments;
    CHECK(std::count_if(moments.begin(), moments.end(), [](const auto& m) {
        return m.caption.find("Visible again 30 s after its receive though worker still packs it") == 0;
    }) == 1);
    const auto delayed = runLesson("delay-queue", true);
    const auto sends = events(*delayed, Cause::Send);
    REQUIRE(sends.size() == 3);
    for (const auto& send : sends) {
        CHECK(send.to == MessageState::Delayed);
        const auto ended = events(*delayed, Cause::DelayEnded, send.message);
        REQUIRE(ended.size() == 1);
        CHECK(ended[0].time - send.time == 30000);
    }
    CHECK(delayed->summary().peak.delayed == 1); // fifty seconds apart: one order waits at a time
}

TEST_CASE("lesson 3: a message timer overrides the queue delay for one message", "[lessons]")
{
    for (bool fix : { false, true }) {
        const auto s = runLesson("message-timer", fix);
        const MessageIndex retry = laneWithBody(*s, "retry");
        const MessageIndex first = laneWithBody(*s, "job 1");
        REQUIRE(retry != kNoMessage);
        CHECK(events(*s, Cause::DelayEnded, first).at(0).time == 10000);
        CHECK(events(*s, Cause::DelayEnded, retry).at(0).time == (fix ? 60000 : 10000));
    }
}

TEST_CASE("lesson 4: FIFO refuses a message timer with SQS's exact text", "[lessons]")
{
    const auto refused = runLesson("fifo-refuses-timers", false);
    CHECK(refusedText(*refused)
        == "InvalidParameterValue: Value 30 for parameter DelaySeconds is invalid. Reason: The request include "
           "parameter that is not valid for this queue type.");
    CHECK(refused->summary().sent == 0);
    CHECK(refused->summary().errorsByCode.at("InvalidParameterValue") == 3);
    const auto fixed = runLesson("fifo-refuses-timers", true);
    CHECK(fixed->summary().errorsByCode.empty());
    CHECK(fixed->summary().sent == 3);
    for (const auto& send : events(*fixed, Cause::Send))
        CHECK(events(*fixed, Cause::DelayEnded, send.message).at(0).time - send.time == 30000);
}

TEST_CASE("lesson 5: a delay change leaves a standard queue's waiting messages alone - delays FIFO's", "[lessons]")
{
    const auto s = runLesson("changing-the-delay", false);
    const MessageIndex standard = laneWithBody(*s, "standard message");
    const MessageIndex fifo = laneWithBody(*s, "fifo message");
    CHECK(events(*s, Cause::DelayEnded, standard).at(0).time == 31000);
    CHECK(events(*s, Cause::DelayEnded, fifo).at(0).time == 121000);
    CHECK(events(*s, Cause::DelayChanged, fifo).size() == 1);
    CHECK(events(*s, Cause::DelayChanged, standard).empty());
    const auto fixed = runLesson("changing-the-delay", true);
    CHECK(events(*fixed, Cause::DelayEnded, laneWithBody(*fixed, "standard message")).at(0).time == 121000);
}

TEST_CASE("lesson 6: without a visibility timeout a job is done twice - 30 s protects it", "[lessons]")
{
    CHECK(runLesson("visibility-protects-work", false)->summary().duplicates > 0);
    const auto fixed = runLesson("visibility-protects-work", true)->summary();
    CHECK(fixed.duplicates == 0);
    CHECK(fixed.received == 2);
    CHECK(fixed.deleted == 2);
}

TEST_CASE("lesson 7: a crashed consumer's message returns after the timeout with receive count 2", "[lessons]")
{
    for (bool fix : { false, true }) {
        const auto s = runLesson("consumer-crash", fix);
        const auto crashes = events(*s, Cause::ConsumerCrashed);
        REQUIRE(crashes.size() == 1);
        CHECK(crashes[0].time == 5000);
        CHECK(crashes[0].detail == 1); // it held one message
        const auto receives = events(*s, Cause::Receive);
        REQUIRE(receives.size() == 2);
        CHECK(receives[1].time - receives[0].time == (fix ? 12000 : 30000));
        CHECK(receives[1].detail == 2);
        CHECK(receives[1].actor != receives[0].actor);
        const auto summary = s->summary();
        CHECK(summary.deleted == 1);
        CHECK(summary.duplicates == 0);
        CHECK(summary.consumers.at(0).heldAtCrash == 1);
    }
}

TEST_CASE("lesson 8: visibility shorter than processing gives duplicates - the fix gives none", "[lessons]")
{
    // Its watch text, from the run: every lane times out mid-work; two of the five (the first and the last) are
    // received again, the other three are deleted by their first worker before anyone takes them again.
    const auto as = runLesson("visibility-too-short", false);
    std::vector<MessageIndex> twice;
    for (MessageIndex lane = 0; lane < as->engine().messageCount(); ++lane) {
        CHECK(events(*as, Cause::VisibilityTimeout, lane).size() >= 1);
        if (events(*as, Cause::Receive, lane).size() == 2)
            twice.push_back(lane);
    }
    CHECK(as->engine().messageCount() == 5);
    CHECK(twice == std::vector<MessageIndex> { 0, 4 });
    CHECK(findLesson("visibility-too-short")->scenario.lesson->watch.find("two of the five (the first and the last)")
        != std::string::npos);
    CHECK(events(*runLesson("visibility-too-short", true), Cause::VisibilityTimeout).empty());
    CHECK(runLesson("visibility-too-short", false)->summary().duplicates > 0);
    CHECK(runLesson("visibility-too-short", true)->summary().duplicates == 0);
}

TEST_CASE("lesson 9: a heartbeat keeps a long job in flight", "[lessons]")
{
    CHECK(runLesson("heartbeat", false)->summary().duplicates > 0);
    const auto fixed = runLesson("heartbeat", true);
    CHECK(fixed->summary().duplicates == 0);
    CHECK(fixed->summary().received == 2);
    CHECK(events(*fixed, Cause::VisibilityChanged).size() >= 16); // every 5 s over 45 s, twice
}

TEST_CASE(
    "lesson 10: the poison message is dead-lettered after exactly maxReceiveCount - on the next receive", "[lessons]")
{
    const auto forever = runLesson("poison-pill", false);
    const MessageIndex poison = laneWithBody(*forever, "poison");
    CHECK(events(*forever, Cause::Receive, poison).size() > 20);
    const auto fixed = runLesson("poison-pill", true);
    const MessageIndex lane = laneWithBody(*fixed, "poison");
    const auto receives = events(*fixed, Cause::Receive, lane);
    const auto moves = events(*fixed, Cause::MoveToDlq, lane);
    REQUIRE(receives.size() == 3);
    REQUIRE(moves.size() == 1);
    CHECK(moves[0].time >= receives[2].time + 5000); // not when the timeout ends: on the receive after it
    // The gap shows: visible when its third timeout ends (22 s), moved on the next receive (24 s).
    const auto timeouts = events(*fixed, Cause::VisibilityTimeout, lane);
    REQUIRE(timeouts.size() == 3);
    CHECK(timeouts.back().time == 22000);
    CHECK(moves[0].time == 24000);
    CHECK(fixed->summary().deadLettered == 1);
    CHECK(fixed->summary().deleted == 3);
}

TEST_CASE("lesson 11: long polling cuts empty receives at least tenfold", "[lessons]")
{
    const std::string& idea = findLesson("short-vs-long-polling")->scenario.lesson->idea;
    CHECK(idea.find("false empty responses") != std::string::npos);
    CHECK(idea.find("ReceiveMessageWaitTimeSeconds") != std::string::npos);
    const auto shortPolling = runLesson("short-vs-long-polling", false)->summary();
    const auto longPolling = runLesson("short-vs-long-polling", true)->summary();
    CHECK(longPolling.emptyReceives * 10 <= shortPolling.emptyReceives);
    CHECK(longPolling.deleted == shortPolling.deleted);
}

TEST_CASE("lesson 11: a sampled short poll misses a waiting message - a long poll is never sampled", "[lessons]")
{
    const auto run = runLesson("short-vs-long-polling", false);
    const auto sampled = events(*run, Cause::FaultInjected);
    REQUIRE(sampled.size() == 18);
    CHECK(run->summary().faultsByKind.at("shortPoll") == 18);
    // Each one noted hid a message: one was sent before it and first received after it.
    const auto waiting = [&](TimeMs at) {
        for (MessageIndex lane = 0; lane < run->engine().messageCount(); ++lane) {
            const LaneTimes times = run->engine().times(lane);
            if (times.sentAt <= at && (times.firstReceiveAt < 0 || times.firstReceiveAt > at))
                return true;
        }
        return false;
    };
    for (const Event& e : sampled) {
        INFO(e.time);
        CHECK(e.detail == uint32_t(FaultKind::ShortPollSample));
        CHECK(waiting(e.time));
    }
    CHECK(run->summary().longestWaitMs == 4000); // missed by four polls in a row
    const auto moments = findMoments(run->engine().run(), run->scenario().lesson->moments);
    const auto fault = std::find_if(moments.begin(), moments.end(), [](const Moment& m) { return m.spec == 1; });
    REQUIRE(fault != moments.end());
    CHECK(fault->at == sampled.front().time);
    CHECK(fault->caption == "worker's short poll asks only some of SQS's servers and misses a message that is waiting");
    CHECK(events(*runLesson("short-vs-long-polling", true), Cause::FaultInjected).empty());
}

TEST_CASE("lesson 12: Lambda with visibility = function timeout duplicates - six times does not", "[lessons]")
{
    const auto run = runLesson("lambda-six-times", false);
    const auto equal = run->summary();
    CHECK(equal.duplicates == 11);
    CHECK(equal.sent == 150);
    // A throttled batch is never invoked once its visibility ended (docs/decisions.md): every invocation starts on
    // messages the poller itself received, before their visibility timeout ended, and a batch still waiting when
    // its timeout ends is dropped. (A message can be deleted by then: the earlier invocation that held it deleted it
    // with its older receipt, which a standard queue accepts. Lambda cannot know; it is a duplicate.)
    const auto& log = run->engine().log();
    std::vector<MessageState> state;
    std::vector<uint32_t> receiver;
    std::vector<bool> timedOut;
    std::map<std::pair<MessageIndex, uint32_t>, TimeMs> receivedBy;
    size_t starts = 0, throttled = 0, startsOnDeleted = 0;
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        if (e.message == kNoMessage)
            continue;
        if (e.message >= state.size()) {
            state.resize(e.message + 1, MessageState::None);
            receiver.resize(e.message + 1, 0);
            timedOut.resize(e.message + 1, false);
        }
        if (e.cause == Cause::Receive) {
            receiver[e.message] = e.actor;
            timedOut[e.message] = false;
            receivedBy[{ e.message, e.actor }] = e.time;
        }
        if (e.cause == Cause::VisibilityTimeout)
            timedOut[e.message] = true;
        if (e.cause == Cause::ProcessingStarted) {
            ++starts;
            REQUIRE(receiver[e.message] == e.actor);
            REQUIRE_FALSE(timedOut[e.message]);
            REQUIRE((state[e.message] == MessageState::InFlight || state[e.message] == MessageState::Deleted));
            startsOnDeleted += state[e.message] == MessageState::Deleted;
        }
        if (e.cause == Cause::ProcessingFailed && e.failure() == FailureKind::Throttled) {
            ++throttled;
            // at the instant the visibility timeout of the receive that brought it ended (the queue's 30 s)
            // (another poller may have received it again in that same millisecond)
            REQUIRE(e.time == receivedBy[{ e.message, e.actor }] + 30000);
        }
        if (e.cause != Cause::RequestRefused)
            state[e.message] = e.to;
    }
    CHECK(starts == 161);
    CHECK(throttled == 33); // the mapping backs off to one poller once the function throttles
    // Every duplicate is the same story: an invocation ran past its messages' timeouts, another poller received them
    // and waited for the slot, and ran them after the first invocation had finished and deleted them.
    CHECK(int64_t(startsOnDeleted) == equal.duplicates);
    REQUIRE(equal.warnings.size() == 1);
    CHECK(equal.warnings[0]
        == "resize: the queue's visibility timeout (30s) is under six times the function timeout (30s); AWS "
           "recommends at least 3m.");
    // One count everywhere: the summary, the window's panel (the simulation's count) and the charts' series.
    CHECK(run->duplicateProcessings() == 11);
    DepthSeries series;
    series.sync(run->engine().run());
    int64_t charted = series.current().duplicates;
    for (const auto& bucket : series.buckets())
        charted += bucket.duplicates;
    CHECK(charted == 11);
    const auto fixedRun = runLesson("lambda-six-times", true);
    const auto sixTimes = fixedRun->summary();
    CHECK(sixTimes.duplicates == 0);
    size_t fixedThrottled = 0;
    for (const Event& e : events(*fixedRun, Cause::ProcessingFailed))
        fixedThrottled += e.failure() == FailureKind::Throttled;
    CHECK(fixedThrottled == 0); // every batch is invoked in time
    CHECK(sixTimes.warnings.empty());
    CHECK(sixTimes.deleted == sixTimes.sent);
}

TEST_CASE("lesson 13: more than 15 minutes is refused - 900 s is the limit", "[lessons]")
{
    const auto refused = runLesson("over-fifteen-minutes", false);
    CHECK(refusedText(*refused)
        == "InvalidParameterValue: Value 1800 for parameter DelaySeconds is invalid. Reason: DelaySeconds must be >= "
           "0 and <= 900.");
    const auto fixed = runLesson("over-fifteen-minutes", true);
    const auto sends = events(*fixed, Cause::Send);
    REQUIRE(sends.size() == 1);
    // The fix is a scheduler's: it sends at 30 minutes with no timer, and the reminder is received then.
    CHECK(sends[0].time == 1800000);
    CHECK(sends[0].to == MessageState::Visible);
    CHECK(events(*fixed, Cause::Receive, sends[0].message).at(0).time == 1800000);
    CHECK(fixed->engine().run().actorName(sends[0].actor) == "EventBridge Scheduler");
    // The text says what SQS answers, not which emulator's wording it borrows.
    CHECK(findLesson("over-fifteen-minutes")->scenario.lesson->watch.find("moto") == std::string::npos);
}

TEST_CASE(
    "lesson 14: one FIFO group is served one message at a time - two groups in parallel - each in order", "[lessons]")
{
    for (bool fix : { false, true }) {
        const auto s = runLesson("fifo-message-groups", fix);
        const QueueIndex orders = *s->engine().queueIndex("orders.fifo");
        std::vector<Event> deletes;
        for (const Event& e : events(*s, Cause::Delete))
            if (e.queue == orders)
                deletes.push_back(e);
        REQUIRE(deletes.size() == 6);
        CHECK(deletes.back().time == (fix ? 30000 : 60000));
        // Within a group, receives follow the send order, and never two of a group in flight at once.
        std::map<std::string, std::vector<MessageIndex>> received;
        std::map<std::string, int> inFlight;
        const auto& log = s->engine().log();
        for (size_t i = 0; i < log.size(); ++i) {
            const Event& e = log[i];
            if (e.message == kNoMessage || e.queue != orders || (e.cause != Cause::Receive && e.cause != Cause::Delete))
                continue;
            const std::string group = s->engine().extra(e.message)->groupId;
            if (e.cause == Cause::Receive) {
                received[group].push_back(e.message);
                CHECK(++inFlight[group] == 1);
            } else {
                --inFlight[group];
            }
        }
        CHECK(received.size() == (fix ? 2u : 1u));
        for (const auto& [group, lanes] : received)
            CHECK(std::is_sorted(lanes.begin(), lanes.end()));
        // A group is one consumer at a time, not one message: the batcher's single receive at 66 s returns all ten
        // invoices of its group, in send order, and it deletes them one by one.
        const QueueIndex invoices = *s->engine().queueIndex("invoices.fifo");
        std::vector<Event> invoiceReceives;
        for (const Event& e : events(*s, Cause::Receive))
            if (e.queue == invoices)
                invoiceReceives.push_back(e);
        REQUIRE(invoiceReceives.size() == 10);
        for (size_t i = 0; i < invoiceReceives.size(); ++i) {
            CHECK(invoiceReceives[i].time == 66000);
            CHECK(s->engine().message(invoiceReceives[i].message).body == "invoice " + std::to_string(i + 1));
        }
        size_t batchesOfTen = 0;
        for (const Event& e : events(*s, Cause::PollEnded))
            batchesOfTen += e.queue == invoices && e.messagesReturned() == 10;
        CHECK(batchesOfTen == 1);
        size_t invoiceDeletes = 0;
        for (const Event& e : events(*s, Cause::Delete))
            invoiceDeletes += e.queue == invoices;
        CHECK(invoiceDeletes == 10);
    }
}

TEST_CASE("lesson 15: dead-lettered messages stay until redriven - redriven - they are completed", "[lessons]")
{
    const auto stuck = runLesson("redrive", false)->summary();
    CHECK(stuck.deadLettered == 3);
    CHECK(stuck.deleted == 0);
    const auto redriven = runLesson("redrive", true);
    const auto summary = redriven->summary();
    CHECK(summary.deadLettered == 3);
    CHECK(summary.deleted == 3);
    CHECK(events(*redriven, Cause::Redrive).size() == 3);
    CHECK(redriven->engine().counters("orders-dlq").value() == QueueCounters { 0, 0, 0 });
    for (const auto& arrival : events(*redriven, Cause::ArriveFromRedrive))
        CHECK(arrival.time == 60000);
    // Each order turns visible after its second timeout and is moved by the broken worker's next receive, before
    // its crash at 30 s; the first order waits two seconds, visible, for that receive.
    const auto stuckRun = runLesson("redrive", false);
    const auto moves = events(*stuckRun, Cause::MoveToDlq);
    REQUIRE(moves.size() == 3);
    for (const auto& move : moves) {
        const auto timeouts = events(*stuckRun, Cause::VisibilityTimeout, move.message);
        REQUIRE(timeouts.size() == 2);
        CHECK(move.time >= timeouts.back().time);
        CHECK(move.time < 30000);
        CHECK(stuckRun->engine().run().actorName(move.actor) == "broken-worker");
    }
    CHECK(moves[0].time - events(*stuckRun, Cause::VisibilityTimeout, moves[0].message).back().time == 2000);
}

TEST_CASE("lesson 16: retention expires what nobody deletes", "[lessons]")
{
    const auto lost = runLesson("retention", false);
    for (const auto& send : events(*lost, Cause::Send))
        CHECK(events(*lost, Cause::Expiry, send.message).at(0).time - send.time == 60000);
    CHECK(lost->summary().expired == 3);
    // The second signup expires while the slow mailer holds it; its later delete is OK and changes nothing.
    const MessageIndex second = events(*lost, Cause::Send).at(1).message;
    const auto expiry = events(*lost, Cause::Expiry, second).at(0);
    CHECK(expiry.time == 65000);
    CHECK(expiry.from == MessageState::InFlight);
    const auto noEffect = events(*lost, Cause::NoEffect, second);
    REQUIRE(noEffect.size() == 1);
    CHECK(noEffect[0].time == 82000);
    CHECK(noEffect[0].noEffect() == NoEffectKind::DeleteOfEndedMessage);
    CHECK(lost->engine().run().actorName(noEffect[0].actor) == "slow-mailer");
    const auto kept = runLesson("retention", true)->summary();
    CHECK(kept.expired == 0);
    CHECK(kept.deleted == 3);
}

// Corrected statements (issue "lessons that are right"): each text says what its run shows.
TEST_CASE("lesson texts: what was corrected is true of the runs", "[lessons][texts]")
{
    const auto text = [](const char* id) { return *findLesson(id)->scenario.lesson; };
    // Lesson 6: no duplicates in this run, but a standard queue delivers at least once.
    CHECK(text("visibility-protects-work").fix.find("exactly once") == std::string::npos);
    CHECK(text("visibility-protects-work").fix.find("at least once") != std::string::npos);
    CHECK(runLesson("visibility-protects-work", true)->summary().duplicates == 0);
    // The seed's defaults, where they belong.
    CHECK(text("visibility-protects-work").idea.find("30 seconds by default, from 0 to 12 hours") != std::string::npos);
    CHECK(text("delay-queue").idea.find("0 by default, up to 900 seconds") != std::string::npos);
    Engine defaults;
    REQUIRE(defaults.createQueue("q").ok());
    CHECK(defaults.getQueueAttributes("q", { "VisibilityTimeout", "DelaySeconds" }).value()
        == AttributeMap { { "DelaySeconds", "0" }, { "VisibilityTimeout", "30" } });
    // Lesson 9: each heartbeat sets the timeout to 10 s from the call; it never runs out while the work goes on.
    CHECK(text("heartbeat").fix.find("sets the timeout to 10 seconds from that moment (it does not add 10)")
        != std::string::npos);
    const auto heartbeat = runLesson("heartbeat", true);
    const auto changes = events(*heartbeat, Cause::VisibilityChanged);
    REQUIRE_FALSE(changes.empty());
    for (const Event& e : changes)
        CHECK(e.visibilitySeconds() == 10);
    CHECK(events(*heartbeat, Cause::VisibilityTimeout).empty());
    // Lesson 10: tried until retention ends, 4 days by default.
    CHECK(text("poison-pill").idea.find("until its retention period ends (4 days by default, 14 at most)")
        != std::string::npos);
    const auto poison = runLesson("poison-pill", false);
    CHECK(
        poison->engine().getQueueAttributes("orders", { "MessageRetentionPeriod" }).value().at("MessageRetentionPeriod")
        == "345600");
    // Lesson 15: a DLQ's retention counts from the original enqueue time on a standard queue.
    CHECK(text("redrive").trap.find("counts from the original enqueue time") != std::string::npos);
    const auto redrive = runLesson("redrive", false);
    const auto arrivals = events(*redrive, Cause::ArriveFromDlqSource);
    REQUIRE(arrivals.size() == 3);
    for (const Event& arrival : arrivals) {
        const MessageIndex source = arrival.linkedLane();
        CHECK(redrive->engine().times(arrival.message).enqueuedAt == redrive->engine().times(source).enqueuedAt);
        CHECK(redrive->engine().times(arrival.message).enqueuedAt < arrival.time);
    }
}

TEST_CASE("scenario: a heartbeat's old key extendBy still reads, as visibilityTimeout", "[scenario]")
{
    for (const char* key : { "visibilityTimeout", "extendBy" }) {
        auto parsed = parseScenario(std::string(R"({"queues": [{"name": "q"}], "consumers": [{"queue": "q",
            "heartbeat": {"every": "5s", ")")
            + key + R"(": 12}}]})");
        REQUIRE(std::holds_alternative<Scenario>(parsed));
        CHECK(std::get<Scenario>(parsed).consumers.at(0).heartbeatVisibilityTimeout == 12);
    }
}

namespace {
// Times (ms) of one cause's events in a queue, in log order.
std::vector<TimeMs> timesOf(const Simulation& s, Cause cause, const std::string& queue)
{
    std::vector<TimeMs> out;
    const QueueIndex index = *s.engine().queueIndex(queue);
    for (const Event& e : events(s, cause))
        if (e.queue == index)
            out.push_back(e.time);
    return out;
}
} // namespace

TEST_CASE(
    "lesson 17: a standard queue charges four times - FIFO deduplicates the retries within 5 minutes", "[lessons]")
{
    const auto standard = runLesson("fifo-deduplication", false);
    CHECK(timesOf(*standard, Cause::Send, "payments") == std::vector<TimeMs> { 0, 20000, 40000, 310000 });
    CHECK(timesOf(*standard, Cause::ProcessingFinished, "payments").size() == 4);
    const auto fifo = runLesson("fifo-deduplication", true);
    // Only the first send and the one past the window are stored; the first was deleted at 2 s, before the retries.
    CHECK(timesOf(*fifo, Cause::Send, "payments.fifo") == std::vector<TimeMs> { 0, 310000 });
    CHECK(timesOf(*fifo, Cause::Delete, "payments.fifo") == std::vector<TimeMs> { 2000, 312000 });
    const auto retries = events(*fifo, Cause::NoEffect);
    REQUIRE(retries.size() == 2);
    for (const Event& e : retries) {
        CHECK(e.noEffect() == NoEffectKind::DeduplicatedSend);
        CHECK(e.message == 0); // on the first message's lane: deleted, and still deduplicating
        CHECK(e.from == MessageState::Deleted);
    }
    CHECK(retries[0].time == 20000);
    CHECK(retries[1].time == 40000);
    CHECK(fifo->summary().received == 2);
}

TEST_CASE("lesson 18: a standard DLQ counts retention from the original send - 14 days keeps the message", "[lessons]")
{
    const auto same = runLesson("dlq-retention", false);
    CHECK(timesOf(*same, Cause::ArriveFromDlqSource, "orders-dlq") == std::vector<TimeMs> { 90000 });
    // 300 s from the send at 0 s, not from the arrival at 90 s
    CHECK(timesOf(*same, Cause::Expiry, "orders-dlq") == std::vector<TimeMs> { 300000 });
    CHECK(same->summary().expired == 1);
    const auto longer = runLesson("dlq-retention", true);
    CHECK(timesOf(*longer, Cause::ArriveFromDlqSource, "orders-dlq") == std::vector<TimeMs> { 90000 });
    CHECK(longer->summary().expired == 0);
    CHECK(longer->engine().counters("orders-dlq").value().visible == 1);
}

TEST_CASE(
    "lesson 19: a purge ends visible - in-flight and delayed messages - a second within 60 s is refused", "[lessons]")
{
    const auto run = runLesson("purge", false);
    std::map<MessageState, int> purgedFrom;
    for (const Event& e : events(*run, Cause::Purge)) {
        CHECK(e.time == 30000);
        ++purgedFrom[e.from];
    }
    CHECK(purgedFrom[MessageState::Visible] > 0);
    CHECK(purgedFrom[MessageState::InFlight] == 1);
    CHECK(purgedFrom[MessageState::Delayed] == 3);
    CHECK(refusedText(*run)
        == "AWS.SimpleQueueService.PurgeQueueInProgress: Only one PurgeQueue operation on jobs is allowed every 60 "
           "seconds.");
    CHECK(events(*run, Cause::RequestRefused).front().time == 45000);
    // The worker's delete of the message it held when the purge came: OK, nothing changed.
    bool heldDeleteNoEffect = false;
    for (const Event& e : events(*run, Cause::NoEffect))
        heldDeleteNoEffect
            = heldDeleteNoEffect || (e.noEffect() == NoEffectKind::DeleteOfEndedMessage && e.time > 30000);
    CHECK(heldDeleteNoEffect);
    const auto fixed = runLesson("purge", true);
    CHECK(events(*fixed, Cause::RequestRefused).empty());
    std::set<TimeMs> purges;
    for (const Event& e : events(*fixed, Cause::Purge))
        purges.insert(e.time);
    CHECK(purges == std::set<TimeMs> { 30000, 91000 });
}

TEST_CASE("lesson 20: a failed message waits out 5 minutes - ChangeMessageVisibility 0 retries it at once", "[lessons]")
{
    const auto waits = runLesson("fail-fast", false);
    const auto poison = laneWithBody(*waits, "poison invoice");
    std::vector<TimeMs> receives;
    for (const Event& e : events(*waits, Cause::Receive, poison))
        receives.push_back(e.time);
    CHECK(receives == std::vector<TimeMs> { 0, 300000, 600000 });
    REQUIRE(events(*waits, Cause::MoveToDlq).size() == 1);
    CHECK(events(*waits, Cause::MoveToDlq).front().time == 900000);
    const auto fast = runLesson("fail-fast", true);
    const auto poisonFast = laneWithBody(*fast, "poison invoice");
    receives.clear();
    for (const Event& e : events(*fast, Cause::Receive, poisonFast))
        receives.push_back(e.time);
    CHECK(receives == std::vector<TimeMs> { 0, 1000, 2000 });
    REQUIRE(events(*fast, Cause::MoveToDlq).size() == 1);
    CHECK(events(*fast, Cause::MoveToDlq).front().time == 3000);
    CHECK(fast->summary().deleted == 2); // the good invoices
}

TEST_CASE("lesson 21: one poison message fails its Lambda batch - ReportBatchItemFailures fails only it", "[lessons]")
{
    const auto whole = runLesson("lambda-partial-batch", false);
    const auto summary = whole->summary();
    CHECK(summary.received == 30); // ten messages, three receives each
    CHECK(summary.deleted == 0);
    CHECK(summary.deadLettered == 10);
    CHECK(events(*whole, Cause::ProcessingStarted).size() == 30);
    for (const Event& e : events(*whole, Cause::MoveToDlq))
        CHECK(e.time == 180000);
    const auto items = runLesson("lambda-partial-batch", true);
    const auto fixed = items->summary();
    CHECK(fixed.received == 12); // nine once, the poison order three times
    CHECK(fixed.deleted == 9);
    CHECK(fixed.deadLettered == 1);
    const auto moved = events(*items, Cause::MoveToDlq);
    REQUIRE(moved.size() == 1);
    CHECK(items->engine().message(moved[0].message).body == "poison order 10");
}

TEST_CASE("the encryption card says who needs which KMS permission - and what a service producer needs", "[lessons]")
{
    const auto& cards = referenceCards();
    const auto card = std::find_if(
        cards.begin(), cards.end(), [](const ReferenceCard& c) { return c.title == "Encryption (SSE)"; });
    REQUIRE(card != cards.end());
    CHECK(card->text.find("producers need kms:GenerateDataKey and kms:Decrypt, consumers (a Lambda trigger's role "
                          "too) kms:Decrypt")
        != std::string::npos);
    CHECK(card->text.find("(SNS, S3 event notifications, EventBridge) needs a customer managed key whose key policy "
                          "allows that service")
        != std::string::npos);
}

TEST_CASE("lesson texts say what their runs show", "[lessons]")
{
    // Lesson 18's on-call engineer is in the run: the DLQ is empty when they look as written, not with the fix.
    for (const bool fix : { false, true }) {
        const auto run = runLesson("dlq-retention", fix);
        const auto summary = run->summary();
        REQUIRE(summary.steps.size() == 1);
        CHECK(summary.steps[0].as == "on-call");
        CHECK(summary.steps[0].at == 330000);
        CHECK(summary.steps[0].answer
            == (fix ? "OK: " + run->engine().messageId(1).substr(0, 8) + " (receive #4)" : "OK: no message"));
    }
    // Lesson 16's fix: the slow mailer completes all three, the mailer finds none.
    const auto retention = runLesson("retention", true)->summary();
    CHECK(retention.expired == 0);
    for (const auto& c : retention.consumers)
        CHECK(c.finished == (c.name == "slow-mailer" ? 3 : 0));
    // Lesson 1: the worker waits in a long poll, so the message is in flight the instant it is sent.
    const auto life = runLesson("life-of-a-message", false);
    const auto sends = events(*life, Cause::Send);
    REQUIRE(sends.size() == 1);
    CHECK(events(*life, Cause::Receive, sends[0].message).at(0).time == sends[0].time);
    CHECK(findLesson("life-of-a-message")->scenario.lesson->watch.find("visible for no time at all")
        != std::string::npos);
    // Lesson 2 as written: the visibility timeout does not hold the order back.
    const auto noDelay = runLesson("delay-queue", false);
    for (const Event& send : events(*noDelay, Cause::Send))
        CHECK(events(*noDelay, Cause::Receive, send.message).at(0).time == send.time);
}

TEST_CASE("lesson 22: only the delays postpone a first receive - the visibility timeout hides while worked on - the "
          "long poll answers on arrival",
    "[lessons]")
{
    const auto firstReceive = [](const Simulation& s, MessageIndex lane) {
        const auto receives = events(s, Cause::Receive, lane);
        REQUIRE_FALSE(receives.empty());
        return receives.front().time;
    };
    const auto sentAt = [](const Simulation& s, MessageIndex lane) {
        const auto sends = events(s, Cause::Send, lane);
        REQUIRE(sends.size() == 1);
        return sends.front().time;
    };
    const auto written = runLesson("four-waits", false);
    const MessageIndex delayed = laneWithBody(*written, "delayed");
    const MessageIndex timed = laneWithBody(*written, "timed");
    const MessageIndex worked = laneWithBody(*written, "worked on");
    const MessageIndex awaited = laneWithBody(*written, "awaited");
    // Hidden before anyone had it: 15 s from the send, the queue's delay and the message's own timer alike.
    CHECK(sentAt(*written, delayed) == 0);
    CHECK(firstReceive(*written, delayed) == 15000);
    CHECK(sentAt(*written, timed) == 3000);
    CHECK(firstReceive(*written, timed) == 18000);
    // Received at once, hidden while worked on, deleted once: the visibility timeout postponed nothing.
    CHECK(firstReceive(*written, worked) == 0);
    CHECK(events(*written, Cause::Receive, worked).size() == 1);
    CHECK(events(*written, Cause::Delete, worked).front().time == 8000);
    // The long poll waited from the start and answered the moment the message arrived; no empty answer meanwhile.
    CHECK(sentAt(*written, awaited) == 10000);
    CHECK(firstReceive(*written, awaited) == 10000);
    const uint32_t poller = events(*written, Cause::Receive, awaited).front().actor;
    for (const Event& e : events(*written, Cause::PollEnded))
        if (e.actor == poller && e.time < 10000)
            FAIL("the poller had an answer before the message arrived");
    // With the delays at 0, both are received the moment they are sent; the other two change nothing.
    const auto fixed = runLesson("four-waits", true);
    CHECK(firstReceive(*fixed, laneWithBody(*fixed, "delayed")) == 0);
    CHECK(firstReceive(*fixed, laneWithBody(*fixed, "timed")) == 3000);
    CHECK(firstReceive(*fixed, laneWithBody(*fixed, "worked on")) == 0);
    CHECK(firstReceive(*fixed, laneWithBody(*fixed, "awaited")) == 10000);
    CHECK(written->summary().longestWaitMs == 15000);
    CHECK(fixed->summary().longestWaitMs == 0);
}

TEST_CASE("lesson 23: every payment is charged twice - idempotent chargers charge each once", "[lessons]")
{
    const auto written = runLesson("idempotency", false);
    const auto fixed = runLesson("idempotency", true);
    CHECK(written->summary().duplicates == 3);
    CHECK(fixed->summary().duplicates == 0);
    for (const Simulation* s : { written.get(), fixed.get() }) {
        CHECK(s->summary().sent == 3);
        CHECK(s->summary().deleted == 3);
    }
    for (MessageIndex lane = 0; lane < 3; ++lane) {
        INFO(lane);
        // As written: two charges, the second started when the timeout ended, 10 s after the first.
        const auto starts = events(*written, Cause::ProcessingStarted, lane);
        REQUIRE(starts.size() == 2);
        CHECK(starts[1].duplicate());
        CHECK(starts[1].time - starts[0].time == 10000);
        CHECK(starts[1].actor != starts[0].actor);
        // Fixed: one charge; the other charger found it in progress, charged nothing and left it.
        CHECK(events(*fixed, Cause::ProcessingStarted, lane).size() == 1);
        const auto left = events(*fixed, Cause::ProcessingFailed, lane);
        REQUIRE(left.size() == 1);
        CHECK(left[0].failure() == FailureKind::InProgressElsewhere);
        CHECK(events(*fixed, Cause::Receive, lane).size() == 2);
        CHECK(events(*fixed, Cause::Delete, lane).size() == 1);
    }
}

TEST_CASE("lesson 24: a concurrency limit throttles thirty pollers' batches - the mapping backs off after - "
          "MaximumConcurrency paces them",
    "[lessons]")
{
    const auto limited = runLesson("lambda-maximum-concurrency", false);
    const auto summary = limited->summary();
    CHECK(summary.sent == 200);
    CHECK(summary.received == 275);
    CHECK(summary.duplicates == 5);
    CHECK(summary.deadLettered == 40);
    CHECK(summary.deleted == 160);
    // Throttled batches: given back when their 30 s ended, never invoked; thirty pollers took 150 orders at 0 s.
    std::map<TimeMs, size_t> throttledAt;
    for (const Event& e : events(*limited, Cause::ProcessingFailed)) {
        REQUIRE(e.failure() == FailureKind::Throttled);
        ++throttledAt[e.time];
    }
    CHECK(throttledAt == std::map<TimeMs, size_t> { { 30000, 60 }, { 33525, 5 }, { 63525, 35 } });
    // The mapping backs off: after the first instant, while batches wait for the function, only its first two
    // pollers (the function's concurrency) receive.
    std::set<uint32_t> receivedAtZero, receivingWhileThrottled;
    for (const Event& e : events(*limited, Cause::Receive))
        if (e.time < 30000) // the first batches given up end the wait
            (e.time == 0 ? receivedAtZero : receivingWhileThrottled).insert(e.actor);
    CHECK(receivedAtZero.size() == 30);
    CHECK(receivingWhileThrottled.size() == 2);
    // At most two invocations at once: the function's limit, whatever its pollers hold.
    int running = 0, most = 0;
    std::map<uint32_t, int> batchOf; // poller -> messages it is running
    const EventLog& log = limited->engine().log();
    for (size_t i = 0; i < log.size(); ++i) {
        const Event e = log[i];
        if (e.cause == Cause::ProcessingStarted && batchOf[e.actor]++ == 0)
            most = std::max(most, ++running);
        if ((e.cause == Cause::ProcessingFinished || e.cause == Cause::ProcessingFailed) && batchOf[e.actor] > 0
            && --batchOf[e.actor] == 0)
            --running;
    }
    CHECK(most == 2);
    CHECK(summary.peakWorking == 2); // the summary's figure, which exercises check, counts the same
    // The tiles say it: at 10 s the pollers whose batches ran are backed off, holding nothing; with the fix none is.
    for (const bool fix : { false, true }) {
        Simulation at10(fix
                ? std::get<scenario::Scenario>(scenario::applyFix(findLesson("lambda-maximum-concurrency")->scenario))
                : findLesson("lambda-maximum-concurrency")->scenario);
        at10.advanceTo(10000);
        int backedOff = 0, throttledTiles = 0;
        for (const auto& tile : at10.consumers()) {
            backedOff += tile.backedOff ? 1 : 0;
            throttledTiles += tile.throttled ? 1 : 0;
            if (tile.backedOff)
                CHECK((tile.waiting == 0 && tile.holding == kNoMessage));
        }
        INFO((fix ? "fixed" : "as written") << ": " << backedOff << " backed off, " << throttledTiles << " throttled");
        CHECK((backedOff > 0) == !fix);
        CHECK(backedOff + throttledTiles <= 28); // two run at a time
    }
    // Each dead-lettered order moves at the receive after its second, both spent waiting for the function.
    for (const Event& e : events(*limited, Cause::MoveToDlq)) {
        CHECK(e.time >= 63525);
        CHECK(limited->engine().message(e.message).receiveCount == 2);
    }

    const auto paced = runLesson("lambda-maximum-concurrency", true);
    const auto fixed = paced->summary();
    CHECK(fixed.received == 200); // each order once
    CHECK(fixed.deleted == 200);
    CHECK(fixed.duplicates == 0);
    CHECK(fixed.deadLettered == 0);
    CHECK(events(*paced, Cause::ProcessingFailed).empty()); // nothing waits for the function: nothing throttled
    CHECK(fixed.moments.empty());
    CHECK(fixed.peakWorking == 2);
    // A crashed consumer stops working at its crash: lesson 7's two workers never overlap.
    CHECK(runLesson("consumer-crash", false)->summary().peakWorking == 1);
}

TEST_CASE("lesson 25: two workers fall minutes behind a flash sale - a backlog policy adds 28 at 2m30s and retires "
          "them at 4m",
    "[lessons]")
{
    const auto fixed = runLesson("scaling-on-the-backlog", false);
    const auto summary = fixed->summary();
    CHECK(summary.sent == 3120); // 2 a second for 6 minutes, 20 a second for 2
    CHECK(summary.deleted == 925); // the rest still wait when the run ends
    CHECK(summary.longestWaitMs == 263182);
    CHECK(summary.peakWorking == 2);

    const auto scaled = runLesson("scaling-on-the-backlog", true);
    const auto withPolicy = scaled->summary();
    CHECK(withPolicy.deleted == 3119); // the last order is being worked on when the run ends
    CHECK(withPolicy.longestWaitMs == 79000);
    CHECK(withPolicy.peakWorking == 30);
    const RunView& run = scaled->engine().run();
    const EventLog& log = run.log();
    std::vector<std::pair<TimeMs, std::string>> decisions;
    std::map<std::string, TimeMs> firstReceive;
    std::map<std::string, int> receivesAfterRetiring;
    for (size_t i = 0; i < log.size(); ++i) {
        const Event& e = log[i];
        if (e.cause == Cause::OperatorAction)
            decisions.emplace_back(e.time, log.text(e.textIndex()));
        if (e.cause == Cause::Receive) {
            firstReceive.try_emplace(run.actorName(e.actor), e.time);
            receivesAfterRetiring[run.actorName(e.actor)] += e.time > 240000 ? 1 : 0;
        }
    }
    // The policy's first look after the sale began (1 min) is at 2 min; its workers receive from 2m30s, 90 s into
    // the surge, as the fix says; at 4 min the backlog is gone and it keeps its minimum of two.
    CHECK(decisions
        == std::vector<std::pair<TimeMs, std::string>> {
            { 120000, "scaling worker: 1160 visible, 2 consumers, a target of 20 a consumer: 30" },
            { 240000, "scaling worker: 0 visible, 30 consumers, a target of 20 a consumer: 2" } });
    REQUIRE(firstReceive.size() == 30);
    for (int k = 3; k <= 30; ++k) {
        const std::string name = "worker-" + std::to_string(k);
        CHECK(firstReceive[name] == 150000);
        // Retired at 4 min, each leaves before its next receive: at most the one its open long poll brings.
        CHECK(receivesAfterRetiring[name] <= 1);
    }
}

TEST_CASE(
    "lesson 26: four invoices of 1.5 MB are refused - through the extended client their pointers arrive", "[lessons]")
{
    const auto written = runLesson("large-messages", false);
    const auto refused = events(*written, Cause::RequestRefused);
    REQUIRE(refused.size() == 4);
    for (size_t i = 0; i < refused.size(); ++i)
        CHECK(refused[i].time == TimeMs(5000 + 20000 * i)); // at 5, 25, 45 and 65 s
    CHECK(refusedText(*written)
        == "InvalidParameterValue: One or more parameters are invalid. Reason: Message must be shorter than 1048576 "
           "bytes.");
    CHECK(written->summary().sent == 0);
    CHECK(written->summary().received == 0);

    const auto pointers = runLesson("large-messages", true);
    const auto fixed = pointers->summary();
    CHECK(fixed.errorsByCode.empty());
    CHECK(fixed.deleted == 4);
    const RunView& run = pointers->engine().run();
    REQUIRE(run.messageCount() == 4);
    for (MessageIndex lane = 0; lane < 4; ++lane) {
        const std::string body(run.message(lane).body.view());
        CHECK(body
            == R"(["software.amazon.payloadoffloading.PayloadS3Pointer",{"s3BucketName":"invoices","s3Key":"invoice-)"
                + std::to_string(lane + 1) + R"(.pdf"}])");
        CHECK(body.size() < 120); // a pointer: about 100 bytes where the invoice was 1.5 MB
    }
}

TEST_CASE("lesson 27: three services on one queue each get some orders - a topic gives each its copy, customs the EU's",
    "[lessons]")
{
    // Which service received each order, in order: as written the three share the queue.
    const auto receivers = [](const Simulation& s) {
        std::map<std::string, std::vector<std::string>> byOrder;
        const RunView& run = s.engine().run();
        for (const Event& e : events(s, Cause::Receive))
            byOrder[run.extra(e.message)->label].push_back(run.actorName(e.actor));
        return byOrder;
    };
    const auto written = runLesson("fan-out", false);
    using Names = std::vector<std::string>;
    CHECK(receivers(*written)
        == std::map<std::string, Names> { { "order 1 (EU)", { "billing" } }, { "order 2 (US)", { "warehouse" } },
            { "order 3 (EU)", { "customs" } }, { "order 4 (US)", { "billing" } }, { "order 5 (EU)", { "warehouse" } },
            { "order 6 (US)", { "customs" } } });
    CHECK(written->summary().sent == 6);

    const auto fanned = runLesson("fan-out", true);
    const Names all { "billing", "warehouse", "customs" };
    const Names noCustoms { "billing", "warehouse" };
    CHECK(receivers(*fanned)
        == std::map<std::string, Names> { { "order 1 (EU)", all }, { "order 2 (US)", noCustoms },
            { "order 3 (EU)", all }, { "order 4 (US)", noCustoms }, { "order 5 (EU)", all },
            { "order 6 (US)", noCustoms } });
    const RunSummary fixed = fanned->summary();
    CHECK(fixed.sent == 15);
    CHECK(fixed.queues.at("eu-customs").sent == 3);
    // The moments' captions, from each run: the receive takes the order from every other reader of its queue.
    CHECK(written->summary().moments.at(1).caption
        == "warehouse receives order 2 (US) from orders: no other reader of orders will get it");
    CHECK(fixed.moments.at(2).caption
        == "customs receives order 1 (EU) from eu-customs: no other reader of eu-customs will get it");
}

namespace {
// Lesson 28 run with its workers changed: as written, or with each tenant's MessageGroupId.
std::unique_ptr<Simulation> runFairQueues(bool fix, int64_t workers)
{
    const LessonEntry* lesson = findLesson("fair-queues");
    REQUIRE(lesson != nullptr);
    Scenario scenario = lesson->scenario;
    if (fix) {
        auto fixed = applyFix(scenario);
        REQUIRE(std::holds_alternative<Scenario>(fixed));
        scenario = std::get<Scenario>(std::move(fixed));
    }
    scenario.consumers.at(0).count = workers;
    auto simulation = std::make_unique<Simulation>(std::move(scenario));
    simulation->runToEnd();
    return simulation;
}

// When bistro's jobs were sent and first received, and how long the longest waited: from the log.
TimeMs longestBistroWait(const Simulation& s)
{
    TimeMs longest = 0;
    for (const Event& e : events(s, Cause::Receive))
        if (e.receiveNumber() == 1 && s.engine().message(e.message).body.view().starts_with("bistro"))
            longest = std::max(longest, e.time - s.engine().times(e.message).sentAt);
    return longest;
}
} // namespace

TEST_CASE("Lesson 28: bistro's jobs wait minutes behind acme's flood, seconds once each tenant has a MessageGroupId")
{
    const auto written = runFairQueues(false, 4);
    const auto fixed = runFairQueues(true, 4);
    const RunSummary a = written->summary(), b = fixed->summary();
    CHECK(a.producers.at("acme").sent == 600);
    CHECK(a.producers.at("bistro").sent == 28);
    CHECK(a.producers.at("bistro").longestWaitMs == 136000);
    CHECK(longestBistroWait(*written) == 136000);
    CHECK(b.producers.at("bistro").longestWaitMs == 6000);
    CHECK(longestBistroWait(*fixed) == 6000);
    // No tenant is noisy without group ids; with them acme turns noisy once its burst is in flight, until it drains.
    CHECK(events(*written, Cause::TenantNoisy).empty());
    const auto noisy = events(*fixed, Cause::TenantNoisy);
    const auto quiet = events(*fixed, Cause::TenantQuiet);
    REQUIRE(noisy.size() == 1);
    REQUIRE(quiet.size() == 1);
    CHECK(noisy[0].time == 6000);
    CHECK(fixed->engine().log().text(noisy[0].textIndex()) == "acme");
    CHECK(quiet[0].time == 156000);
    // The compare headline leads with bistro's wait, from the runs.
    const auto changes = compareSummaries(a, b, "producers.bistro.longestWaitMs", "bistro's longest wait");
    REQUIRE_FALSE(changes.empty());
    CHECK(changes[0].text() == "bistro's longest wait 2 min 16 s \u2192 6 s");
    CHECK(a.moments.at(0).caption
        == "worker-4 receives bistro job 1 only now, 2 min 16 s after its send: it waited behind every job acme sent "
           "before it");
    CHECK(b.moments.at(0).caption
        == "acme turns noisy: a flood of its jobs in flight, so receives take the other tenants' jobs first");
}

TEST_CASE("Lesson 28 with more or fewer workers: the figures and captions follow the run")
{
    for (const int64_t workers : { 5, 6, 10 }) {
        const auto written = runFairQueues(false, workers);
        const auto fixed = runFairQueues(true, workers);
        const RunSummary a = written->summary(), b = fixed->summary();
        INFO(workers << " workers");
        CHECK(a.producers.at("bistro").longestWaitMs == longestBistroWait(*written));
        CHECK(b.producers.at("bistro").longestWaitMs == longestBistroWait(*fixed));
        CHECK(b.producers.at("bistro").longestWaitMs < a.producers.at("bistro").longestWaitMs);
        CHECK(b.producers.at("bistro").longestWaitMs <= 10000); // acme noisy: bistro's jobs served first
        // The caption's wait is bistro job 1's own (sent at 10 s), whenever this run received it; a run where no
        // job of bistro's waited a minute has no such moment.
        REQUIRE(a.moments.empty() == (a.producers.at("bistro").longestWaitMs < 60000));
        if (a.moments.empty())
            continue;
        CHECK(a.moments[0].caption.find(", " + describeDuration(a.moments[0].at - 10000) + " after its send")
            != std::string::npos);
    }
    // Three workers never reach bistro's first job before the run ends: its wait is the run's remaining three
    // minutes less its send at 10 s, and no caption claims a receive.
    const auto starved = runFairQueues(false, 3);
    CHECK(starved->summary().producers.at("bistro").received == 0);
    CHECK(starved->summary().producers.at("bistro").longestWaitMs == 170000);
    CHECK(starved->summary().moments.empty());
    CHECK(runFairQueues(true, 3)->summary().producers.at("bistro").longestWaitMs <= 10000);
}

TEST_CASE("Lesson 28's charts: each tenant's dwell climbs while it waits - the fair queue's metrics from the run",
    "[lessons][tenants]")
{
    const auto written = runFairQueues(false, 4);
    const auto fixed = runFairQueues(true, 4);
    TenantSeries a, b;
    a.sync(written->engine().run());
    b.sync(fixed->engine().run());
    REQUIRE(a.shared());
    REQUIRE(a.dwellNames() == std::vector<std::string> { "acme", "bistro" });
    REQUIRE(b.dwellNames() == std::vector<std::string> { "acme", "bistro" });
    const auto peak = [](const TenantSeries& s, size_t line) {
        return *std::max_element(s.dwell()[line].begin(), s.dwell()[line].end());
    };
    // The longest dwell is the summary's longest wait for a first receive, read as the wait climbed.
    CHECK(peak(a, 1) == written->summary().producers.at("bistro").longestWaitMs);
    CHECK(peak(b, 1) == fixed->summary().producers.at("bistro").longestWaitMs);
    CHECK(peak(a, 1) == 136000);
    CHECK(peak(b, 1) == 6000);
    const auto at
        = [](const TenantSeries& s, size_t line, TimeMs t) { return s.dwell()[line][size_t(t / s.bucketMs())]; };
    // As written, bistro's first job (sent at 10 s) has waited 50 s at 60 s, and 110 s at 120 s.
    CHECK(at(a, 1, 60'000) >= 50'000);
    CHECK(at(a, 1, 60'000) <= 50'000 + a.bucketMs());
    CHECK(at(a, 1, 120'000) >= 110'000);
    // No group ids: no fair queue, no noisy group, nothing counted in quiet groups.
    for (const TenantSample& sample : a.buckets())
        CHECK((sample.noisyGroups == 0 && sample.quietVisible == 0 && sample.quietInFlight == 0));
    // With them, acme is the one noisy group from 6 s to 156 s, and bistro's messages are the quiet groups'.
    const auto sample = [](const TenantSeries& s, TimeMs t) { return s.buckets()[size_t(t / s.bucketMs())]; };
    CHECK(sample(b, 3'000).noisyGroups == 0);
    CHECK(sample(b, 60'000).noisyGroups == 1);
    CHECK(sample(b, 170'000).noisyGroups == 0);
    int32_t quietPeak = 0; // while acme is noisy
    for (size_t i = size_t(10'000 / b.bucketMs()); i < size_t(150'000 / b.bucketMs()); ++i) {
        const TenantSample& s = b.buckets()[i];
        quietPeak = std::max(quietPeak, s.quietVisible + s.quietInFlight + s.quietDelayed);
    }
    CHECK(quietPeak >= 1);
    // Only bistro's: one job every 5 s, each received within 6 s and worked within a worker's batch of ten.
    CHECK(quietPeak <= 4);
    // Before acme turns noisy its own messages are quiet too: all 600 at 5.5 s.
    CHECK(sample(b, 5'500).quietVisible + sample(b, 5'500).quietInFlight == 600);
}
