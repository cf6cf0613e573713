// When each lane was alive: sent (its first event) until it ended (entered a terminal state), with a summary per
// block of 256 lanes, so the lanes alive in a time window of a long run are found without visiting every lane:
// lanes are born in index order, so a binary search cuts off those born after the window, and a block whose lanes
// all ended before it is skipped whole.
#pragma once

#include "lifeline/chunked_vector.h"
#include "lifeline/event_log.h"

#include <cstdint>
#include <vector>

namespace lifeline {

class LaneSpans {
public:
    // One lane event that is not a refusal: a new lane is born with it, a terminal state ends it.
    void add(MessageIndex lane, TimeMs time, MessageState to);
    void clear() { *this = LaneSpans(); }

    size_t size() const { return m_born.size(); }
    TimeMs bornAt(MessageIndex lane) const { return TimeMs(m_born[lane]); }
    // When the lane entered a terminal state; -1 while it is live.
    TimeMs endedAt(MessageIndex lane) const { return m_ended[lane] == kLive ? -1 : TimeMs(m_ended[lane]); }
    // The lanes with a segment in [from, to] (born by `to`, not ended before `from`), ascending, into `out`.
    void alive(TimeMs from, TimeMs to, std::vector<MessageIndex>& out) const;
    size_t bytesUsed() const { return (m_born.capacity() + m_ended.capacity()) * 4 + m_blocks.capacity() * 8; }

private:
    static constexpr uint32_t kLive = UINT32_MAX;
    static constexpr unsigned kBlockBits = 8;
    struct Block {
        uint32_t live = 0; // lanes of the block not ended
        uint32_t lastEnd = 0; // the latest end among those that ended
    };

    ChunkedVector<uint32_t, 14> m_born;
    ChunkedVector<uint32_t, 14> m_ended;
    std::vector<Block> m_blocks;
};

} // namespace lifeline
