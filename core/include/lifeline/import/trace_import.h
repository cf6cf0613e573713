// `lifeline import`: real messages drawn from the SQS calls a system already traces (OpenTelemetry spans; CloudTrail
// records), without a proxy. Each instrumentation says a different part of what happened (docs/import.md has the
// table): the spans are sorted by their own times (never by the order a file holds them), read into observed calls,
// and handed to the recording proxy's Observer, which draws what they say and, given the queues' settings, what SQS's
// rules say happened between them (a visibility timeout ending, retention passing, the move to a dead-letter queue),
// marked inferred (Event::inferred). What cannot be tied to a message is counted by kind, never guessed; what
// contradicts the rules is listed with the span it comes from.
#pragma once

#include "lifeline/check/template_reader.h"
#include "lifeline/import/otlp_spans.h"
#include "lifeline/observe/observer.h"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace lifeline::import {

// What the import knows of each queue: attributes as GetQueueAttributes names them. A queue with none follows SQS's
// defaults (visibility timeout 30 s, retention 4 days, no dead-letter queue), and the report says so.
struct QueueSettings {
    std::map<std::string, AttributeMap> byQueue;
    // A template's queues without a QueueName, by logical id: CloudFormation names such a queue
    // "{stack}-{LogicalId}-{suffix}", so a traced queue named that way takes its settings.
    std::map<std::string, AttributeMap> byLogicalId;
    std::optional<AttributeMap> everyQueue; // `--attributes F`: for every queue the trace names but byQueue's
};

struct ImportReport {
    size_t spansRead = 0; // every span of the files
    size_t sqsCalls = 0; // spans of SQS calls (and the process spans of their messages)
    size_t messages = 0; // lanes drawn
    size_t inferredEvents = 0; // what the rules filled in
    // What could not be tied to a message, by what it is ("a batch send's messages have no MessageId in its span"):
    // each a count, never drawn.
    std::map<std::string, size_t> notJoined;
    std::vector<observe::Contradiction> contradictions;
    std::vector<std::string> queuesWithDefaults; // named by the trace, with no settings given
    nlohmann::json toJson(const RunView& run) const;
    std::string text(const RunView& run) const; // for the terminal: a few lines
};

struct ImportedRun {
    std::unique_ptr<observe::Observer> observer;
    ImportReport report;
    int64_t epochMs = 0; // the run's time 0: the first SQS span's start, in ms since 1970
    const RunView& run() const { return observer->run(); }
};

// An import fed a batch of spans at a time (a file's, or an exporter's request at `POST /v1/traces`) and played up to
// a time: what `lifeline import` does at once, and a live receiver as spans come in. Spans may come in any order; a
// call is played when the time it happened is reached, so one that comes in for a time already played is drawn late,
// at the run's time (the live receiver waits before playing so that this stays rare: live_import.h).
class TraceImport {
public:
    // `options`: inferring, always; historyMs bounds what a live receiver remembers (and then spans are let go a
    // minute after they are played; a batch import keeps them all, so a call can name any span above it).
    explicit TraceImport(QueueSettings settings, observe::ObserverOptions options = { .inferring = true });
    ~TraceImport();
    TraceImport(const TraceImport&) = delete;
    TraceImport& operator=(const TraceImport&) = delete;

    void add(std::vector<Span> spans);
    // Plays every call that happened up to `atMs` (ms since 1970, the spans' clock), in time order, and moves the
    // run's clock there (never back).
    void playUntil(int64_t atMs);
    // Plays every call still waiting and moves the clock to the end of the latest span played.
    void finish();

    const RunView& run() const;
    ImportReport report() const;
    int64_t epochMs() const; // the run's time 0 (0 until an SQS span came)
    int64_t latestEndMs() const; // the latest end of an SQS span seen, ms since 1970 (0: none yet)
    size_t waiting() const; // calls not yet played
    size_t spansHeld() const; // spans kept for the calls below them to find
    // The import so far, taken out: nothing more can be added.
    ImportedRun take();

private:
    class Importer;
    std::unique_ptr<Importer> m_importer;
};

// Spans from any number of files, in any order: added at once and played to the end.
ImportedRun importSpans(std::vector<Span> spans, const QueueSettings& settings);

} // namespace lifeline::import

namespace lifeline::import {

// Adds a queue's attributes from `aws sqs get-queue-attributes --attribute-names All` output ({"Attributes": {...}}
// or the map itself) to `settings`: for the queue named by `queue`, else for the queue its QueueArn names, else for
// every queue. A value SQS would refuse is an error with SQS's own text, naming the attribute.
Outcome<> addQueueAttributes(QueueSettings& settings, const nlohmann::json& document, const std::string& queue);

// Adds the settings of every queue a template or plan describes (as `lifeline check` reads it), by the name it gives
// the queue; `byLogicalId`: a CloudFormation template's, also by logical id (QueueSettings::byLogicalId).
Outcome<> addTemplateQueues(QueueSettings& settings, const std::vector<check::TemplateQueue>& queues, bool byLogicalId);

} // namespace lifeline::import
