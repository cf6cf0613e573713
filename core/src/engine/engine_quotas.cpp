// SQS's quotas, when EngineOptions::quotas asks for them ("Amazon SQS message quotas", SQS Developer Guide):
// - In flight: at most 120,000 messages received and not yet deleted on a queue. A standard queue's short poll over
//   it answers OverLimit (403) with the text a real response carried; a long poll and a FIFO queue's receive get
//   what room is left, and no error.
// - A FIFO queue's throughput: 300 calls a second for each of SendMessage, ReceiveMessage and DeleteMessage (a
//   batch is one call: that is how batching reaches 3,000 messages a second); 70,000 in high-throughput mode
//   (DeduplicationScope messageGroup with FifoThroughputLimit perMessageGroupId), the figure of the Regions with the
//   most. Over it: ThrottlingException, as the API reference's common errors word it. The readings: docs/decisions.md.
#include "engine_internal.h"

namespace lifeline {

namespace {

constexpr size_t kInFlightQuota = 120000;
constexpr int64_t kFifoCallsPerSecond = 300;
constexpr int64_t kHighThroughputCallsPerSecond = 70000;

bool highThroughput(const QueueAttributes& attributes)
{
    return attributes.deduplicationScope == "messageGroup" && attributes.fifoThroughputLimit == "perMessageGroupId";
}

} // namespace

std::optional<SqsError> Engine::throttle(QueueState& queue, QuotaAction action)
{
    if (!m_options.quotas || !queue.fifo())
        return std::nullopt;
    const int64_t limit = highThroughput(queue.attributes()) ? kHighThroughputCallsPerSecond : kFifoCallsPerSecond;
    if (!queue.callRate.admit(size_t(action), now(), limit))
        return makeError(codes::ThrottlingException, "The request was denied due to request throttling.");
    return std::nullopt;
}

size_t Engine::inFlightRoom(const QueueState& queue) const
{
    if (!m_options.quotas)
        return SIZE_MAX;
    const auto inFlight = size_t(std::max<int64_t>(0, queue.counters().inFlight));
    return inFlight >= kInFlightQuota ? 0 : kInFlightQuota - inFlight;
}

} // namespace lifeline
