// What a run's SQS calls cost: every call a client of the scenario makes is one request, however many messages it
// carries (a batch of up to 10 is one), and AWS bills "each 64 KB chunk of a payload" as one request ("an API action
// with a 256 KB payload is billed as 4 requests"; Amazon SQS pricing). Counted as the simulation makes its calls: the
// producers' sends, the consumers' and pollers' receives (empty ones too), deletes and visibility changes, the
// script's and the operator's calls. The payload counted is the message bodies a call sends or receives; deliveries by
// AWS services (an SNS topic's, S3's) are theirs, not the scenario's clients' (docs/decisions.md, "Requests and billed
// requests").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace lifeline::sim {

class RequestMeter {
public:
    static constexpr size_t kBilledChunk = size_t(64) * 1024;
    static constexpr size_t kBatchBytes = size_t(1024) * 1024;

    // One call with `payloadBytes` of message bodies.
    void count(size_t payloadBytes)
    {
        ++m_requests;
        m_billed += std::max<int64_t>(1, int64_t((payloadBytes + kBilledChunk - 1) / kBilledChunk));
    }
    // A SendMessageBatch being filled: an entry joins it until it has `most` entries or its bodies would pass 1 MiB
    // (SQS's limits for a batch), and closeBatch() sends it. A batch of `most` 1 is a SendMessage.
    void batchEntry(size_t bodyBytes, int64_t most)
    {
        if (m_open.entries >= most || m_open.bytes + bodyBytes > kBatchBytes)
            closeBatch();
        m_open.bytes += bodyBytes;
        ++m_open.entries;
    }
    void closeBatch()
    {
        if (m_open.entries > 0)
            count(m_open.bytes);
        m_open = {};
    }
    int64_t requests() const { return m_requests; }
    int64_t billed() const { return m_billed; }

private:
    struct OpenBatch {
        size_t bytes = 0;
        int64_t entries = 0;
    } m_open;
    int64_t m_requests = 0;
    int64_t m_billed = 0;
};

} // namespace lifeline::sim
