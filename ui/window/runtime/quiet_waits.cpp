#include "window/runtime/quiet_waits.h"

#include <algorithm>
#include <iterator>

namespace lifeline::ui {

int QuietWaits::factor() const
{
    if (m_quietWallMs < kQuietBeforeFaster)
        return 1;
    const auto step = size_t(1 + (m_quietWallMs - kQuietBeforeFaster) / kFasterEvery);
    return kFactors[std::min(step, std::size(kFactors) - 1)];
}

void QuietWaits::noteFrame(TimeMs from, TimeMs to, int64_t wallMs, int factor, bool changed)
{
    m_quietWallMs = changed ? 0 : m_quietWallMs + wallMs;
    if (factor <= 1 || to <= from)
        return;
    // A frame that goes on from the last span at its factor lengthens it: the ruler shows one note per wait.
    if (!m_spans.empty() && m_spans.back().to == from && m_spans.back().factor == factor)
        m_spans.back().to = to;
    else
        m_spans.push_back({ from, to, factor });
}

void QuietWaits::forget()
{
    m_quietWallMs = 0;
    m_spans.clear();
}

bool QuietWaits::changedSince(const RunView& run, size_t& seen)
{
    const EventLog& log = run.log();
    if (log.size() < seen) { // the log forgot its start: say it changed, and read on from its end
        seen = log.size();
        return true;
    }
    seen = std::max(seen, log.firstRetained());
    for (; seen < log.size(); ++seen) {
        const Event e = log[seen];
        if (e.from != e.to) {
            seen = log.size();
            return true;
        }
    }
    return false;
}

} // namespace lifeline::ui
