#include "lifeline/sim/mapping_scaler.h"

#include <algorithm>

namespace lifeline::sim {

MappingScaler::MappingScaler(int64_t pollers, int64_t concurrency, int64_t starting, TimeMs every)
    : m_pollers(pollers)
    , m_floor(std::clamp<int64_t>(concurrency, 1, std::max<int64_t>(pollers, 1)))
    , m_every(std::max<TimeMs>(every, 1))
    , m_allowed(std::clamp<int64_t>(starting, 1, std::max<int64_t>(pollers, 1)))
    , m_reached(m_allowed)
    , m_active(m_allowed >= pollers)
{
}

int64_t MappingScaler::allowed(TimeMs now) const
{
    if (m_throttling || m_regrowingSince < 0)
        return m_allowed;
    return std::min(m_pollers, m_allowed + (now - m_regrowingSince) / m_every);
}

std::optional<TimeMs> MappingScaler::backedOffUntil(int64_t rank, TimeMs now) const
{
    if (rank < allowed(now) || now == m_throttledAt)
        return std::nullopt; // polls at the instant of a throttle went out with the throttled one's, before its answer
    if (m_throttling || m_regrowingSince < 0)
        return kWhileThrottled;
    return m_regrowingSince + (rank + 1 - m_allowed) * m_every;
}

bool MappingScaler::notScaledUpTo(int64_t rank, TimeMs now) const
{
    return rank >= std::max(m_reached, allowed(now));
}

bool MappingScaler::received(TimeMs now)
{
    if (m_active)
        return false;
    m_active = true;
    if (!m_throttling)
        m_regrowingSince = now;
    return true;
}

void MappingScaler::throttled(TimeMs now)
{
    const int64_t before = allowed(now);
    m_reached = std::max(m_reached, before);
    m_allowed = std::max(std::min(m_floor, before), before - 1);
    m_throttling = true;
    m_throttledAt = now;
}

void MappingScaler::noneWaiting(TimeMs now)
{
    if (!m_throttling)
        return;
    m_throttling = false;
    m_regrowingSince = now;
}

} // namespace lifeline::sim
