// The run as data: every event as CSV (RFC 4180), and the lanes as a Chrome Trace Event file that opens in
// ui.perfetto.dev and chrome://tracing (a queue is a process, a message lane a thread, a state segment an "X"
// event, a mark an "i" event, queue depth "C" counters).
#pragma once

#include "lifeline/engine.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline {

// actorNames[actor id] names who did what; missing names are written as "actor N".
void writeEventsCsv(const Engine& engine, const std::vector<std::string>& actorNames, std::ostream& out);
void writeChromeTrace(const Engine& engine, const std::vector<std::string>& actorNames, std::ostream& out);

// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csvField(const std::string& text);

} // namespace lifeline
