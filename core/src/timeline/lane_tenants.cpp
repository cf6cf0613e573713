#include "lifeline/timeline/lane_tenants.h"

#include <algorithm>

namespace lifeline {

uint32_t LaneTenants::idOf(const std::string& name)
{
    const auto [it, added] = m_ids.try_emplace(name, uint32_t(m_names.size()));
    if (added)
        m_names.push_back(name);
    return it->second;
}

void LaneTenants::sync(const RunView& run)
{
    const EventLog& log = run.log();
    m_read = std::max(m_read, log.firstRetained());
    for (; m_read < log.size(); ++m_read) {
        const Event& e = log[m_read];
        if (e.message == kNoMessage || e.message < m_ofLane.size() || run.forgotten(e.message))
            continue; // a lane's first event, once
        while (m_ofLane.size() <= e.message)
            m_ofLane.emplace_back() = kNone;
        if (e.cause != Cause::Send || e.actor < kFirstActor)
            continue;
        const QueueIndex queue = run.message(e.message).queue;
        const MessageExtra* extra = run.extra(e.message);
        const bool grouped = extra && !extra->groupId.empty() && queue < run.queueCount() && !run.queueInfo(queue).fifo;
        const uint32_t tenant = idOf(grouped ? extra->groupId : run.actorName(e.actor));
        m_ofLane[e.message] = tenant;
        if (m_queueTenants.size() <= queue)
            m_queueTenants.resize(size_t(queue) + 1);
        auto& seen = m_queueTenants[queue];
        if (std::find(seen.begin(), seen.end(), tenant) == seen.end())
            seen.push_back(tenant);
    }
    // A chunk whose lanes the run has all forgotten is forgotten here too.
    constexpr size_t chunk = size_t(1) << kChunkBits;
    while ((m_releasedChunks + 1) * chunk <= m_ofLane.size() && run.forgotten(MessageIndex(m_releasedChunks * chunk))
        && run.forgotten(MessageIndex((m_releasedChunks + 1) * chunk - 1)))
        m_ofLane.releaseChunk(m_releasedChunks++);
}

size_t LaneTenants::bytesUsed() const
{
    size_t bytes = m_ofLane.capacity() * sizeof(uint32_t);
    for (const std::string& name : m_names)
        bytes += sizeof(std::string) + name.capacity() + sizeof(uint32_t) * 4; // and its map entry
    for (const auto& seen : m_queueTenants)
        bytes += seen.capacity() * sizeof(uint32_t);
    return bytes;
}

void LaneTenants::clear()
{
    *this = LaneTenants {};
}

} // namespace lifeline
