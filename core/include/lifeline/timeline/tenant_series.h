// Tenants over time, for the charts. Per bucket, four of the five CloudWatch metrics SQS added for fair queues, as a
// run has them: ApproximateNumberOfNoisyGroups, and the messages visible, in flight and delayed in quiet groups
// (...VisibleInQuietGroups, ...NotVisibleInQuietGroups, ...DelayedInQuietGroups), summed over the standard queues
// whose messages carry MessageGroupIds (ApproximateAgeOfOldestMessageInQuietGroups is not kept: docs/decisions.md,
// "Fair queues"). And each tenant's dwell, what fair queues protect: how long its oldest message not yet received
// has waited since its send (a message's dwell up to its first receive, climbing while it waits). Tenants are
// LaneTenants' (a standard queue's MessageGroupId, else the sender); the first kTenantLines to send have a line each,
// any later ones share "other tenants".
//
// Read incrementally from the log into at most `maxBuckets` buckets; when the run outgrows them, neighbours merge
// keeping each bucket's peak, as DepthSeries does.
#pragma once

#include "lifeline/run/run_view.h"
#include "lifeline/timeline/lane_tenants.h"

#include <algorithm>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace lifeline {

struct TenantSample {
    int32_t noisyGroups = 0;
    int32_t quietVisible = 0;
    int32_t quietInFlight = 0;
    int32_t quietDelayed = 0;
};

class TenantSeries {
public:
    static constexpr size_t kTenantLines = 5;
    static constexpr int32_t kNoDwell = -1; // no first receive of the tenant in the bucket

    explicit TenantSeries(size_t maxBuckets = 512, TimeMs initialBucketMs = 100);

    void sync(const RunView& run); // reads only what is new
    void clear();

    // Some queue is shared by two tenants or more: the charts are worth showing.
    bool shared() const { return m_shared; }
    // Some standard queue has messages with a MessageGroupId: it is a fair queue, and the metrics are its.
    bool fair() const
    {
        return std::any_of(m_queues.begin(), m_queues.end(), [](const FairQueue& q) { return q.fair; });
    }
    TimeMs bucketMs() const { return m_bucketMs; }
    const std::vector<TenantSample>& buckets() const { return m_buckets; } // bucket i covers [i, i+1) x bucketMs
    TenantSample current() const { return m_current; }
    // The dwell lines' names, in order of each tenant's first send ("other tenants" last, once there are more).
    const std::vector<std::string>& dwellNames() const { return m_dwellNames; }
    // Per line, per bucket: the longest its oldest message not yet received had waited in the bucket (ms), or kNoDwell
    // when none was waiting.
    const std::vector<std::vector<int32_t>>& dwell() const { return m_dwell; }
    size_t eventsRead() const { return m_read; }

private:
    struct Counts {
        int32_t visible = 0, inFlight = 0, delayed = 0;
        void shift(MessageState state, int delta);
    };
    struct FairQueue {
        bool fair = false; // a message with a MessageGroupId was sent to it
        Counts all; // every message of the queue
        std::unordered_map<std::string, Counts> groups;
        std::set<std::string> noisy;
    };

    void record(TimeMs time);
    void merge();
    void onSend(const RunView& run, const Event& e);
    void onMessageEvent(const Event& e);
    size_t lineOf(uint32_t tenant);
    void recount();
    void catchUp(const RunView& run);

    size_t m_maxBuckets;
    TimeMs m_initialBucketMs;
    TimeMs m_bucketMs;
    size_t m_read = 0;
    bool m_shared = false;
    LaneTenants m_tenants;
    std::vector<FairQueue> m_queues;
    std::unordered_map<MessageIndex, const std::string*> m_groupOf; // live lanes of fair queues: their group
    std::vector<TenantSample> m_buckets;
    TenantSample m_current;
    std::vector<std::string> m_dwellNames;
    std::vector<uint32_t> m_dwellTenants; // LaneTenants ids, by line (the first kTenantLines)
    std::vector<std::vector<int32_t>> m_dwell;
    std::vector<std::set<std::pair<TimeMs, MessageIndex>>>
        m_waiting; // per line: messages not yet received, oldest first
    std::unordered_map<MessageIndex, std::pair<size_t, TimeMs>> m_waitingOf; // their line and send time
};

} // namespace lifeline
