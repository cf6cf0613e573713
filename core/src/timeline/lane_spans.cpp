#include "lifeline/timeline/lane_spans.h"

#include <algorithm>

namespace lifeline {

namespace {
uint32_t clampTime(TimeMs time)
{
    return uint32_t(std::clamp<TimeMs>(time, 0, UINT32_MAX - 1));
}
} // namespace

void LaneSpans::add(MessageIndex lane, TimeMs time, MessageState to)
{
    const uint32_t t = clampTime(time);
    while (m_born.size() <= lane) { // lanes appear in order; one without events yet is born ended
        m_born.push_back(t);
        m_ended.push_back(t);
        if ((m_born.size() - 1) >> kBlockBits >= m_blocks.size())
            m_blocks.emplace_back();
        Block& block = m_blocks.back();
        block.lastEnd = std::max(block.lastEnd, t);
    }
    Block& block = m_blocks[lane >> kBlockBits];
    const bool wasLive = m_ended[lane] == kLive;
    if (wasLive && !isLive(to)) {
        m_ended[lane] = t;
        --block.live;
        block.lastEnd = std::max(block.lastEnd, t);
    } else if (!wasLive && isLive(to)) {
        m_ended[lane] = kLive;
        ++block.live;
    }
}

void LaneSpans::alive(TimeMs from, TimeMs to, std::vector<MessageIndex>& out) const
{
    out.clear();
    if (to < from || m_born.empty())
        return;
    const uint32_t start = clampTime(from), end = clampTime(to);
    // Births are in lane order: the first lane born after the window ends the search.
    size_t low = 0, high = m_born.size();
    while (low < high) {
        const size_t mid = (low + high) / 2;
        if (m_born[mid] <= end)
            low = mid + 1;
        else
            high = mid;
    }
    const size_t limit = low;
    for (size_t b = 0; b < m_blocks.size() && (b << kBlockBits) < limit; ++b) {
        if (m_blocks[b].live == 0 && m_blocks[b].lastEnd < start)
            continue;
        const size_t last = std::min(limit, (b + 1) << kBlockBits);
        for (size_t lane = b << kBlockBits; lane < last; ++lane)
            if (m_ended[lane] >= start) // kLive is above every time
                out.push_back(MessageIndex(lane));
    }
}

} // namespace lifeline
