// What a run amounts to: the figures `lifeline run --summary` prints, computed from the event log.
#pragma once

#include "lifeline/run/run_view.h"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifeline::analysis {

struct ConsumerSummary {
    std::string name;
    int64_t received = 0;
    int64_t finished = 0;
    int64_t failed = 0;
    int64_t heldAtCrash = 0;
};

// One queue's share of a run: what a fan-out delivers to each subscribed queue, and what its consumers did with it.
struct QueueFigures {
    int64_t sent = 0;
    int64_t received = 0;
    int64_t deleted = 0;
};

// One producer's (or client's) messages: how long they waited for their first receive. What fair queues protect is a
// quiet tenant's wait while another floods the queue; a producer stands for a tenant whether or not it sends a
// MessageGroupId.
struct ProducerFigures {
    int64_t sent = 0;
    int64_t received = 0; // of its messages, those received at least once
    int64_t longestWaitMs = 0; // from a send to its first receive (or to the run's end, for one never received)
};

struct RunSummary {
    int64_t until = 0; // virtual ms
    int64_t sent = 0;
    int64_t received = 0;
    int64_t deleted = 0;
    int64_t duplicates = 0;
    int64_t deadLettered = 0;
    int64_t expired = 0;
    int64_t emptyReceives = 0;
    int64_t alarmsFired = 0; // the scenario's CloudWatch alarms gone to ALARM, each time
    int64_t firstAlarmMs = 0; // when an alarm first went to ALARM (0: none did)
    // What the clients' SQS calls cost, counted by a simulation as it calls (sim/request_meter.h): calls, and calls
    // billed by 64 KB chunk of payload. A recorded run does not know them (0).
    int64_t requests = 0;
    int64_t billedRequests = 0;
    int64_t longestWaitMs = 0; // the longest a message waited from its send to its first receive
    int64_t shortestWaitMs = 0; // the shortest (0 when nothing was received)
    int64_t longestToDeleteMs = 0; // the longest from a message's send to its delete
    int64_t longestToDlqMs = 0; // the longest from a message's send to its move to a dead-letter queue
    // The most actors at work at once (a consumer working on its messages, a function invocation on its batch): what
    // a database behind them sees.
    int64_t peakWorking = 0;
    std::map<std::string, int64_t> errorsByCode;
    // Faults injected (docs/faults.md), by kind ("duplicate": the copies made, "throttling", ...); empty without any.
    std::map<std::string, int64_t> faultsByKind;
    struct Peak {
        int64_t visible = 0;
        int64_t inFlight = 0;
        int64_t delayed = 0;
        int64_t deadLetterQueues = 0;
    } peak;
    std::vector<ConsumerSummary> consumers;
    std::map<std::string, QueueFigures> queues; // by name: every queue the run sent to
    std::map<std::string, ProducerFigures> producers; // by name: every actor that sent (not the operator)
    std::vector<std::string> warnings;
    struct MomentLine {
        TimeMs at = 0;
        std::string lane; // the lane's label (its MessageId's first 8 characters), or the queue's name
        std::string caption;
    };
    std::vector<MomentLine> moments; // a lesson's key moments, in time order
    struct StepLine {
        TimeMs at = 0; // when it was answered
        std::string as; // the client
        std::string call; // SendMessage, ReceiveMessage, ...
        std::string answer; // "m1 OK: MessageId 1a2b3c4d", "InvalidParameterValue: ..."
    };
    std::vector<StepLine> steps; // a script's steps and their answers, in the order answered ("steps": only when any)

    nlohmann::json toJson() const;
    // What the run measured, in words, for an image's caption line: "2 duplicate processings · 1 moved to a DLQ";
    // empty receives only when there is nothing else to say and they outnumber the receives that found something
    // tenfold (short polling).
    std::string claim() const;
    // A lesson's measure (LessonText::measure, a figure of comparedFigures()) in words, as far as the run has got:
    // "the order done after its send: 40s", "duplicate processings: 2"; a time not measured yet (no receive, delete
    // or move to a DLQ so far) is "not yet". Without a measure, claim(). An animation's frames say it as they go.
    std::string measureClaim(const std::string& measure, const std::string& label) const;
};

// The figures of a run from its event log alone (all a recorded run has): consumers are the actors that received
// a message, in the order they first did; warnings are the log's Warning events.
// A lesson as written against its fix: the figures that differ, in the summary's order ("duplicates 2 → 0").
struct FigureChange {
    std::string figure; // the summary's key: "duplicates", "emptyReceives", "errors"
    std::string label; // in words: "duplicate processings", "empty receives"
    int64_t asWritten = 0;
    int64_t fixed = 0;
    std::string text() const; // "duplicate processings 2 → 0", "first receive after its send 0 s → 30 s"
};
// The figures that differ. With a lesson's measure (LessonText::measure) that figure comes first, under the
// lesson's words, whether it changed or not.
std::vector<FigureChange> compareSummaries(const RunSummary& asWritten, const RunSummary& fixed,
    const std::string& measure = {}, const std::string& measureLabel = {});
// The figures compareSummaries knows, by their summary keys. A measure may also be one producer's figure,
// "producers.NAME.longestWaitMs" (or .sent, .received): a lesson's quiet tenant.
const std::vector<std::string>& comparedFigures();
bool isComparedFigure(const std::string& figure);
// {"asWritten": {...}, "fixed": {...}, "differences": [{"figure", "asWritten", "fixed"}]}: the figures
// compareSummaries gives for `measure`.
nlohmann::json comparisonJson(const RunSummary& asWritten, const RunSummary& fixed, const std::string& measure = {});

struct Moment;
// How a summary names a moment's row: the consumer's name (a crash, an empty receive), the lane's label (its
// MessageId's first 8 characters) or the queue's name.
std::string momentLaneLabel(const RunView& run, const Moment& moment);

RunSummary summarizeLog(const RunView& run);

} // namespace lifeline::analysis
