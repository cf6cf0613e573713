// Queue depth by state over time, read incrementally from the event log and kept to a bounded number of buckets
// (when the run outgrows them, neighbours merge keeping each bucket's peak), so an overview or a chart of a
// million-message run stays small and fast. Counts every queue together; DLQ depth separately.
#pragma once

#include "lifeline/run/run_view.h"

#include <array>
#include <vector>

namespace lifeline {

struct DepthSample {
    int32_t delayed = 0;
    int32_t visible = 0;
    int32_t inFlight = 0;
    int32_t deadLetter = 0; // live messages in queues that are some queue's DLQ
    int32_t emptyReceives = 0; // in this bucket (a sum, not a peak)
    int32_t duplicates = 0; // in this bucket (a sum)
    int32_t faults = 0; // SQS's faults injected in this bucket (a sum: docs/faults.md), a duplicate's copy included
};

class DepthSeries {
public:
    explicit DepthSeries(size_t maxBuckets = 512, TimeMs initialBucketMs = 100);

    void sync(const RunView& run); // reads only what is new
    void clear();
    // A series of levels someone else measured (the recording proxy polls GetQueueAttributes): the depth is
    // `level` from `time` on, and the buckets up to then carry the depth before it. Not mixed with sync().
    void push(TimeMs time, const DepthSample& level);
    void advance(TimeMs now) { record(now); } // the last level lasts up to now

    TimeMs bucketMs() const { return m_bucketMs; }
    const std::vector<DepthSample>& buckets() const { return m_buckets; } // bucket i covers [i, i+1) x bucketMs
    DepthSample current() const { return m_current; }
    size_t eventsRead() const { return m_read; } // how far into the log sync() has read

private:
    void record(TimeMs time);
    void merge();

    size_t m_maxBuckets;
    TimeMs m_initialBucketMs;
    TimeMs m_bucketMs;
    size_t m_read = 0;
    std::vector<DepthSample> m_buckets;
    DepthSample m_current;
    std::vector<bool> m_isDeadLetterQueue;
};

} // namespace lifeline
