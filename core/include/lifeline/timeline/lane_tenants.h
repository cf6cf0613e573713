// Whose each message is: its tenant, read from the log as it grows. On a standard queue a message's MessageGroupId
// is its tenant, the unit a fair queue is fair between; a message sent without one is its sender's (the producer or
// client that sent it), so a queue shared by tenants that do not say so still shows them apart, as a learner sees
// them. A FIFO queue's groups keep order, they are not tenants: its messages are their senders'. A message SQS made
// (a DLQ arrival, a redrive) or the operator sent by hand has no tenant.
//
// The timeline keeps a small tenant's lanes apart from a flood's density band (RowLayout). One id per lane, in chunks
// released with the run's forgotten lanes, so the index stays as bounded as the run.
#pragma once

#include "lifeline/run/run_view.h"
#include "lifeline/support/chunked_vector.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace lifeline {

class LaneTenants {
public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // Reads the sends the log added since the last call.
    void sync(const RunView& run);
    void clear();

    uint32_t tenantOf(MessageIndex lane) const
    {
        return lane < m_ofLane.size() && !m_ofLane.released(lane) ? m_ofLane[lane] : kNone;
    }
    const std::string& name(uint32_t tenant) const { return m_names[tenant]; }
    size_t tenantCount() const { return m_names.size(); }
    // How many tenants have sent to the queue (a queue with one needs no keeping apart).
    size_t tenantsOfQueue(QueueIndex queue) const
    {
        return queue < m_queueTenants.size() ? m_queueTenants[queue].size() : 0;
    }

    size_t bytesUsed() const;

private:
    static constexpr size_t kChunkBits = 12;
    uint32_t idOf(const std::string& name);

    size_t m_read = 0;
    size_t m_releasedChunks = 0; // chunks below this one are released
    ChunkedVector<uint32_t, kChunkBits> m_ofLane;
    std::vector<std::string> m_names;
    std::unordered_map<std::string, uint32_t> m_ids;
    std::vector<std::vector<uint32_t>> m_queueTenants; // per queue, the tenants seen, in order of first send
};

} // namespace lifeline
