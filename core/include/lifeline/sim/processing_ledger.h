// Which messages the run's clients are processing and which they completed, kept by the message's first lane (a
// message moved to a DLQ is still the same message): what makes a processing a duplicate, and what an idempotent
// consumer looks up. With a bounded history it lets go of what the run forgot.
#pragma once

#include "lifeline/run/event_log.h"
#include "lifeline/run/run_view.h"
#include "lifeline/support/chunked_vector.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace lifeline::sim {

class ProcessingLedger {
public:
    struct Processing {
        int32_t active = 0; // processings going on
        bool completed = false; // one ended with the work done
    };

    // A processing of `message` (its first lane) starts: true when it is a duplicate, starting while another is
    // going on or after one completed it.
    bool start(MessageIndex message);
    void end(MessageIndex message, bool completed);
    const Processing& of(MessageIndex message) { return record(message); }
    size_t duplicates() const { return m_duplicates; }
    // Lets go of the records of the chunks of lanes the run released, keeping aside those still needed (a message
    // still live, or being processed) until their lane is forgotten and nothing processes them.
    void forget(const RunView& run);

private:
    Processing& record(MessageIndex message);

    // In chunks: growing never copies it.
    ChunkedVector<Processing, 12> m_records;
    std::unordered_map<MessageIndex, Processing> m_kept; // by first lane, once its chunk was released
    size_t m_chunksDone = 0;
    size_t m_keptSwept = 0; // the map's size at its last sweep
    size_t m_duplicates = 0;
};

} // namespace lifeline::sim
