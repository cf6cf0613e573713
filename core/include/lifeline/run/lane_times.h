// A lane's five times, and how a lane keeps them in 24 bytes instead of 40 (docs/decisions.md, "The event log
// keeps each event in 8 bytes"): every simulated message holds them, so the 16 bytes saved are 16 bytes of every
// message of a run of millions.
#pragma once

#include <cstdint>
#include <limits>

namespace lifeline {

using TimeMs = int64_t; // virtual milliseconds since the run started (as in event_log.h)

struct LaneTimes {
    TimeMs sentAt = 0;
    TimeMs enqueuedAt = 0; // retention counts from here
    TimeMs dueAt = 0; // Delayed: when it becomes visible; InFlight: when its visibility ends
    TimeMs firstReceiveAt = -1; // -1: never received
    TimeMs receivedAt = 0; // the latest receive (the 12-hour cap counts from it)
    friend bool operator==(const LaneTimes&, const LaneTimes&) = default;
};

// The enqueue time whole, the other four as signed 32-bit offsets from it (±24.8 days). The engine's own times stay
// within that of the enqueue: a message lives at most 14 days after it, its visibility ends at most 12 hours after a
// receive, its delay at most 15 minutes. What can reach further is kept whole beside by the engine, and wide() says
// so: a message dead-lettered through two FIFO queues (each restarts its retention; its SentTimestamp and first
// receive stay), a recording proxy's session of weeks, a run file's times as written. Not a clamp: every value
// packs or goes whole.
class PackedLaneTimes {
public:
    TimeMs enqueuedAt() const { return m_enqueuedAt; } // whole even when wide(): the retention lists read it often
    bool wide() const { return m_sent == kWide; }

    // The times, when !wide().
    LaneTimes unpack() const
    {
        return LaneTimes { m_enqueuedAt + m_sent, m_enqueuedAt, m_enqueuedAt + m_due,
            m_firstReceive == kNever ? TimeMs(-1) : m_enqueuedAt + m_firstReceive, m_enqueuedAt + m_received };
    }

    // Packs `times`, or, when one of them is too far from the enqueue, keeps only the enqueue and says wide():
    // the caller keeps the whole times. Returns !wide().
    bool pack(const LaneTimes& times)
    {
        m_enqueuedAt = times.enqueuedAt;
        int32_t sent = 0, due = 0, firstReceive = kNever, received = 0;
        const bool fits = offset(times.sentAt, sent) && offset(times.dueAt, due) && offset(times.receivedAt, received)
            && (times.firstReceiveAt == -1 || offset(times.firstReceiveAt, firstReceive));
        m_sent = fits ? sent : kWide;
        m_due = due;
        m_firstReceive = firstReceive;
        m_received = received;
        return fits;
    }

private:
    // The most negative offset is no offset: it marks a lane kept wide (m_sent) or never received (m_firstReceive).
    static constexpr int32_t kWide = std::numeric_limits<int32_t>::min();
    static constexpr int32_t kNever = std::numeric_limits<int32_t>::min();

    bool offset(TimeMs time, int32_t& out) const
    {
        // The distance in unsigned arithmetic, which cannot overflow: a run file's time may be anything an int64
        // holds. Back at most 2^31 - 1 (2^31 is the marker), forward at most 2^31 - 1.
        const uint64_t distance
            = time < m_enqueuedAt ? uint64_t(m_enqueuedAt) - uint64_t(time) : uint64_t(time) - uint64_t(m_enqueuedAt);
        if (distance > uint64_t(std::numeric_limits<int32_t>::max()))
            return false;
        out = int32_t(time - m_enqueuedAt);
        return true;
    }

    TimeMs m_enqueuedAt = 0;
    int32_t m_sent = 0;
    int32_t m_due = 0;
    int32_t m_firstReceive = kNever;
    int32_t m_received = 0;
};

} // namespace lifeline
