// The run as data: every event as CSV (RFC 4180), and the lanes as a Chrome Trace Event file that opens in
// ui.perfetto.dev and chrome://tracing (a queue is a process, a message lane a thread, a state segment an "X"
// event, a mark an "i" event, queue depth "C" counters).
#pragma once

#include "lifeline/run/run_view.h"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline {

// The CSV's columns: time_ms, queue, message_id, lane, from, to, cause, actor, note, body (its first
// kCsvBodyCharacters characters), group, dedup. Actors and notes are named by event_text.h, as everywhere else.
inline constexpr size_t kCsvBodyCharacters = 256;
void writeEventsCsv(const RunView& run, std::ostream& out);
void writeChromeTrace(const RunView& run, std::ostream& out);

// The first `characters` UTF-8 characters of a text (never half a character).
std::string utf8Prefix(std::string_view text, size_t characters);

// One CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180); one a spreadsheet would take for
// a formula (it starts with =, +, -, @, a tab or a carriage return) quoted after an apostrophe.
std::string csvField(const std::string& text);

} // namespace lifeline
