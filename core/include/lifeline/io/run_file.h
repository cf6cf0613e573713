// A run saved to a file and opened again without simulating: the event log, every lane, the queues and the
// actors' names, in CBOR; the events and lanes as compressed columns (version 3, io/run_columns.h). Opening builds a
// RunStore that viewers read exactly as they read a live run (through a RunView). A damaged or foreign file gives a
// clear error and nothing else.
#pragma once

#include "lifeline/run/run_store.h"
#include "lifeline/support/outcome.h"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace lifeline {

struct RecordedRun {
    std::unique_ptr<RunStore> run; // its clock stands at the moment the run was saved
    std::string title;
};

// The file is written whole or not at all.
Outcome<> saveRun(const RunView& run, const std::string& title, const std::string& path);
Outcome<RecordedRun> openRun(const std::string& path);
// The file's bytes into `out`, written while the run is read (no document of the whole run in memory).
void writeRun(const RunView& run, const std::string& title, std::ostream& out);
// Version 2's layout (every event and lane a CBOR array, 174 bytes a message where version 3 takes 29), which
// Lifeline builds before version 3 read; the tests craft damaged files from it.
void writeRunVersion2(const RunView& run, const std::string& title, std::ostream& out);
// The same from bytes in memory (the fuzzer's door); `path` only names the file in the error.
Outcome<RecordedRun> readRun(const std::vector<uint8_t>& bytes, const std::string& path);

} // namespace lifeline
