// Run file version 3's two big tables, the events and the lanes, as columns of small numbers (time deltas,
// lane deltas, small enums) in blocks, compressed as one zstd stream each, written while the run is read. A
// day of traffic is tens of millions of lanes: as CBOR arrays (version 2) a lane and its seven events took 174 bytes,
// as columns 29 (the MessageId's 16 random bytes are most of what is left).
#pragma once

#include "lifeline/run/run_view.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <vector>

namespace lifeline::run_columns {

// Each writes one CBOR byte string of indefinite length (its chunks as the compressor fills them).
void writeEvents(const EventLog& log, std::ostream& out);
void writeLanes(const RunView& run, std::ostream& out);

// Each decodes exactly `count` items from what the writer wrote, handing them over in order, and throws
// std::runtime_error saying what is wrong with damaged bytes (a stream that ends early or goes on, a count that
// the bytes cannot hold, a value out of its range). The caller checks what the items refer to.
void readEvents(const std::vector<uint8_t>& compressed, size_t count, const std::function<void(const Event&)>& take);
// Each lane comes with its MessageId (lanes do not keep theirs: RunView::messageIdParts).
void readLanes(const std::vector<uint8_t>& compressed, size_t count,
    const std::function<void(MessageRecord&&, const LaneTimes&, MessageIdParts)>& take);

} // namespace lifeline::run_columns
