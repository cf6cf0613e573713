// `lifeline import --listen [ADDRESS:]PORT`: spans received live at POST /v1/traces (ui/http/trace_receiver.h) until
// Ctrl+C, then the import's outputs as for files (app/cli.cpp).
#pragma once

#include "lifeline/import/live_import.h"

#include <QHostAddress>
#include <iosfwd>
#include <string>

namespace lifeline::app {

struct TraceListening {
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 4318;
    import::LiveImportOptions live;
};

// "4318", "0.0.0.0:4318", "[::1]:4318": where to listen; an error names what is wrong.
std::optional<std::string> parseListenAddress(const std::string& text, TraceListening& listening);

// Receives until SIGINT, SIGTERM or SIGHUP, saying on `err` each request refused; then plays every call that came.
Outcome<import::ImportedRun> receiveTraces(
    const TraceListening& listening, import::QueueSettings settings, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
