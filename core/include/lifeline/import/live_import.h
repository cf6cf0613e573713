// Spans as they happen: an application's OpenTelemetry exporter (or a Collector's otlphttp exporter) posts OTLP/HTTP
// JSON to `POST /v1/traces` (`lifeline import --listen`, the window's File > Receive traces), and the messages are
// drawn live. Exporters send a span when it ends, in batches (every 5 s by default), so what happened at a moment is
// all in only a while later: the receiver plays the calls `lagMs` behind the spans' own clock (estimated from the
// latest span end against this machine's clock, so two clocks need not agree), and a call that still comes in later is
// drawn late, at the run's time. A bounded history (`historyMs`) keeps memory to what is live and what ended within it,
// however many spans come. docs/import.md, "Live".
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/import/trace_import.h"

namespace lifeline::import {

struct LiveImportOptions {
    TimeMs lagMs = 8000; // the exporters' 5 s batches, and the way here
    TimeMs historyMs = 600000; // what ended is remembered this long; negative: everything
    size_t maxBodyBytes = size_t(64) * 1024 * 1024; // a request, once decompressed
};

class LiveImport {
public:
    LiveImport(QueueSettings settings, LiveImportOptions options);

    // One request's spans (an ExportTraceServiceRequest in JSON, already decompressed), come at `wallMs` (this
    // machine's clock, ms since 1970): how many spans it held. A malformed body adds nothing and says what is wrong.
    Outcome<size_t> addRequest(std::string_view body, int64_t wallMs);
    // Plays what has happened up to `lagMs` before now, by the spans' clock.
    void advance(int64_t wallMs);
    // Plays everything that came (the receiver stops).
    void finish() { m_import.finish(); }

    const RunView& run() const { return m_import.run(); }
    ImportReport report() const { return m_import.report(); }
    const TraceImport& import() const { return m_import; }
    TraceImport& import() { return m_import; }
    size_t requests() const { return m_requests; }
    const LiveImportOptions& options() const { return m_options; }
    ImportedRun take() { return m_import.take(); } // the run so far: nothing more can be added

private:
    TraceImport m_import;
    LiveImportOptions m_options;
    int64_t m_clockOffsetMs = INT64_MIN; // the spans' clock minus this machine's, at least (the latest end seen)
    int64_t m_playedMs = INT64_MIN;
    size_t m_requests = 0;
};

// `POST /v1/traces` as OTLP/HTTP specifies it, with no socket in sight: JSON bodies (gzip or not) added to `live`,
// answered 200 with an ExportTraceServiceResponse; a malformed one 400 with a google.rpc.Status naming what is wrong;
// protobuf bodies 415 (this receiver reads JSON: the exporter's or the Collector's `encoding: json`); other paths 404,
// other methods 405.
endpoint::HttpResponse otlpHttpReply(const endpoint::HttpRequest& request, LiveImport& live, int64_t wallMs);

} // namespace lifeline::import
