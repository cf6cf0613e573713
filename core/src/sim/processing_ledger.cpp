#include "lifeline/sim/processing_ledger.h"

#include "lifeline/run/run_view.h"

namespace lifeline::sim {

ProcessingLedger::Processing& ProcessingLedger::record(MessageIndex message)
{
    while (message >= m_records.size())
        m_records.push_back({});
    return m_records.released(message) ? m_kept[message] : m_records[message];
}

bool ProcessingLedger::start(MessageIndex message)
{
    Processing& p = record(message);
    const bool duplicate = p.active > 0 || p.completed;
    ++p.active;
    if (duplicate)
        ++m_duplicates;
    return duplicate;
}

void ProcessingLedger::end(MessageIndex message, bool completed)
{
    Processing& p = record(message);
    --p.active;
    p.completed = p.completed || completed;
}

void ProcessingLedger::forget(const RunView& run)
{
    constexpr size_t kChunk = decltype(m_records)::kChunkSize;
    static_assert(kChunk == RunView::kLaneRecordChunk);
    for (; (m_chunksDone + 1) * kChunk <= m_records.size()
         && run.recordChunkReleased(MessageIndex(m_chunksDone * kChunk));
         ++m_chunksDone) {
        for (size_t lane = m_chunksDone * kChunk; lane < (m_chunksDone + 1) * kChunk; ++lane) {
            const Processing& p = m_records[lane];
            if ((p.active != 0 || p.completed) && (p.active != 0 || !run.forgotten(MessageIndex(lane))))
                m_kept.emplace(MessageIndex(lane), p);
        }
        m_records.releaseChunk(m_chunksDone);
    }
    // The kept ones go once their lane is forgotten and nothing processes them, swept when the map has doubled.
    if (m_kept.size() > 2 * m_keptSwept + 1024) {
        std::erase_if(m_kept, [&](const auto& kept) { return kept.second.active == 0 && run.forgotten(kept.first); });
        m_keptSwept = m_kept.size();
    }
}

} // namespace lifeline::sim
