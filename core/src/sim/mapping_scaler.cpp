#include "lifeline/sim/mapping_scaler.h"

#include <algorithm>

namespace lifeline::sim {

MappingScaler::MappingScaler(int64_t pollers, int64_t concurrency)
    : m_pollers(pollers)
    , m_floor(std::clamp<int64_t>(concurrency, 1, std::max<int64_t>(pollers, 1)))
    , m_allowed(pollers)
{
}

int64_t MappingScaler::allowed(TimeMs now) const
{
    if (m_throttling || m_regrowingSince < 0)
        return m_allowed;
    return std::min(m_pollers, m_allowed + (now - m_regrowingSince) / kRegrowEvery);
}

std::optional<TimeMs> MappingScaler::backedOffUntil(int64_t rank, TimeMs now) const
{
    if (rank < allowed(now) || now == m_throttledAt)
        return std::nullopt; // polls at the instant of a throttle went out with the throttled one's, before its answer
    if (m_throttling)
        return kWhileThrottled;
    return m_regrowingSince + (rank + 1 - m_allowed) * kRegrowEvery;
}

void MappingScaler::throttled(TimeMs now)
{
    m_allowed = std::max(m_floor, allowed(now) - 1);
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
