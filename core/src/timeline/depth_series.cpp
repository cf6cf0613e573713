#include "lifeline/timeline/depth_series.h"

#include <algorithm>

namespace lifeline {

DepthSeries::DepthSeries(size_t maxBuckets, TimeMs initialBucketMs)
    : m_maxBuckets(std::max<size_t>(maxBuckets, 2))
    , m_initialBucketMs(std::max<TimeMs>(initialBucketMs, 1))
    , m_bucketMs(m_initialBucketMs)
{
}

void DepthSeries::clear()
{
    *this = DepthSeries(m_maxBuckets, m_initialBucketMs);
}

void DepthSeries::merge()
{
    // Halve the resolution: each new bucket keeps the peak of the two it replaces (sums add).
    std::vector<DepthSample> merged((m_buckets.size() + 1) / 2);
    for (size_t i = 0; i < m_buckets.size(); ++i) {
        DepthSample& m = merged[i / 2];
        const DepthSample& b = m_buckets[i];
        m.delayed = std::max(m.delayed, b.delayed);
        m.visible = std::max(m.visible, b.visible);
        m.inFlight = std::max(m.inFlight, b.inFlight);
        m.deadLetter = std::max(m.deadLetter, b.deadLetter);
        m.emptyReceives += b.emptyReceives;
        m.duplicates += b.duplicates;
        m.faults += b.faults;
    }
    m_buckets.swap(merged);
    m_bucketMs *= 2;
}

void DepthSeries::record(TimeMs time)
{
    time = std::max<TimeMs>(time, 0);
    size_t index = size_t(time / m_bucketMs);
    while (index >= m_maxBuckets) {
        merge();
        index = size_t(time / m_bucketMs);
    }
    // Buckets between the last one and this time carry the depth they had (nothing changed there).
    while (m_buckets.size() <= index) {
        DepthSample carry = m_current;
        carry.emptyReceives = carry.duplicates = carry.faults = 0;
        m_buckets.push_back(carry);
    }
    DepthSample& b = m_buckets[index];
    b.delayed = std::max(b.delayed, m_current.delayed);
    b.visible = std::max(b.visible, m_current.visible);
    b.inFlight = std::max(b.inFlight, m_current.inFlight);
    b.deadLetter = std::max(b.deadLetter, m_current.deadLetter);
}

void DepthSeries::push(TimeMs time, const DepthSample& level)
{
    record(time);
    m_current.delayed = level.delayed;
    m_current.visible = level.visible;
    m_current.inFlight = level.inFlight;
    m_current.deadLetter = level.deadLetter;
    record(time);
}

void DepthSeries::sync(const RunView& run)
{
    const EventLog& log = run.log();
    m_isDeadLetterQueue.resize(run.queueCount(), false);
    for (size_t q = 0; q < run.queueCount(); ++q) {
        const auto* attributes = run.queueAttributes(QueueIndex(q));
        if (attributes && attributes->redrivePolicy)
            for (size_t d = 0; d < run.queueCount(); ++d)
                if (run.queueInfo(QueueIndex(d)).arn == attributes->redrivePolicy->deadLetterTargetArn)
                    m_isDeadLetterQueue[d] = true;
    }
    const auto shift = [&](QueueIndex queue, MessageState state, int delta) {
        if (queue < m_isDeadLetterQueue.size() && m_isDeadLetterQueue[queue]) {
            if (isLive(state))
                m_current.deadLetter += delta;
        } else if (state == MessageState::Delayed) {
            m_current.delayed += delta;
        } else if (state == MessageState::Visible) {
            m_current.visible += delta;
        } else if (state == MessageState::InFlight) {
            m_current.inFlight += delta;
        }
    };
    m_read = std::max(m_read, log.firstRetained()); // a bounded history forgot what was not read yet
    for (; m_read < log.size(); ++m_read) {
        const Event& e = log[m_read];
        record(e.time); // the buckets up to here carry the depth from before this event
        if (e.message != kNoMessage && e.from != e.to && e.cause != Cause::RequestRefused) {
            shift(e.queue, e.from, -1);
            shift(e.queue, e.to, +1);
            record(e.time);
        }
        if (e.cause == Cause::PollEnded && e.messagesReturned() == 0)
            ++m_buckets[size_t(e.time / m_bucketMs)].emptyReceives;
        else if (e.cause == Cause::ProcessingStarted && e.duplicate())
            ++m_buckets[size_t(e.time / m_bucketMs)].duplicates;
        else if (e.cause == Cause::InjectedCopy || e.cause == Cause::FaultInjected) // as the summary counts them
            ++m_buckets[size_t(e.time / m_bucketMs)].faults;
    }
    record(run.now());
}

} // namespace lifeline
