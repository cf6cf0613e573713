#include "lifeline/timeline/tenant_series.h"

#include <algorithm>

namespace lifeline {

TenantSeries::TenantSeries(size_t maxBuckets, TimeMs initialBucketMs)
    : m_maxBuckets(std::max<size_t>(maxBuckets, 2))
    , m_initialBucketMs(std::max<TimeMs>(initialBucketMs, 1))
    , m_bucketMs(m_initialBucketMs)
{
}

void TenantSeries::clear()
{
    *this = TenantSeries(m_maxBuckets, m_initialBucketMs);
}

void TenantSeries::Counts::shift(MessageState state, int delta)
{
    if (state == MessageState::Visible)
        visible += delta;
    else if (state == MessageState::InFlight)
        inFlight += delta;
    else if (state == MessageState::Delayed)
        delayed += delta;
}

void TenantSeries::merge()
{
    // Halve the resolution: levels keep the peak of the two buckets, dwell the longer.
    std::vector<TenantSample> merged((m_buckets.size() + 1) / 2);
    for (size_t i = 0; i < m_buckets.size(); ++i) {
        TenantSample& m = merged[i / 2];
        const TenantSample& b = m_buckets[i];
        m.noisyGroups = std::max(m.noisyGroups, b.noisyGroups);
        m.quietVisible = std::max(m.quietVisible, b.quietVisible);
        m.quietInFlight = std::max(m.quietInFlight, b.quietInFlight);
        m.quietDelayed = std::max(m.quietDelayed, b.quietDelayed);
    }
    m_buckets.swap(merged);
    for (auto& line : m_dwell) {
        std::vector<int32_t> halved((line.size() + 1) / 2, kNoDwell);
        for (size_t i = 0; i < line.size(); ++i)
            halved[i / 2] = std::max(halved[i / 2], line[i]);
        line.swap(halved);
    }
    m_bucketMs *= 2;
}

void TenantSeries::record(TimeMs time)
{
    time = std::max<TimeMs>(time, 0);
    size_t index = size_t(time / m_bucketMs);
    while (index >= m_maxBuckets) {
        merge();
        index = size_t(time / m_bucketMs);
    }
    const size_t before = m_buckets.size();
    while (m_buckets.size() <= index)
        m_buckets.push_back(m_current); // nothing changed there: the levels carry on
    for (size_t line = 0; line < m_dwell.size(); ++line) {
        auto& dwell = m_dwell[line];
        dwell.resize(m_buckets.size(), kNoDwell);
        if (m_waiting[line].empty())
            continue;
        // The oldest waiting message's age at the end of each bucket passed, and at this instant.
        const TimeMs sent = m_waiting[line].begin()->first;
        const auto age = [&](TimeMs at) { return int32_t(std::clamp<TimeMs>(at - sent, 0, INT32_MAX)); };
        for (size_t i = std::max<size_t>(before, 1) - 1; i < index; ++i)
            dwell[i] = std::max(dwell[i], age(TimeMs(i + 1) * m_bucketMs - 1));
        dwell[index] = std::max(dwell[index], age(time));
    }
    TenantSample& b = m_buckets[index];
    b.noisyGroups = std::max(b.noisyGroups, m_current.noisyGroups);
    b.quietVisible = std::max(b.quietVisible, m_current.quietVisible);
    b.quietInFlight = std::max(b.quietInFlight, m_current.quietInFlight);
    b.quietDelayed = std::max(b.quietDelayed, m_current.quietDelayed);
}

void TenantSeries::recount()
{
    // Quiet groups: every message of a fair queue but the noisy groups' (a message without a group is a tenant of
    // its own, never noisy).
    m_current = TenantSample {};
    for (const FairQueue& q : m_queues) {
        if (!q.fair)
            continue;
        Counts quiet = q.all;
        for (const std::string& name : q.noisy)
            if (const auto it = q.groups.find(name); it != q.groups.end()) {
                quiet.visible -= it->second.visible;
                quiet.inFlight -= it->second.inFlight;
                quiet.delayed -= it->second.delayed;
            }
        m_current.noisyGroups += int32_t(q.noisy.size());
        m_current.quietVisible += quiet.visible;
        m_current.quietInFlight += quiet.inFlight;
        m_current.quietDelayed += quiet.delayed;
    }
}

// A send joins its group's counts (a MessageGroupId on a standard queue: the queue is fair from then on) and its
// tenant's waiting messages.
void TenantSeries::onSend(const RunView& run, const Event& e)
{
    FairQueue& q = m_queues[e.queue];
    const MessageExtra* extra = run.extra(e.message);
    if (extra && !extra->groupId.empty() && !run.queueInfo(e.queue).fifo) {
        q.fair = true;
        m_groupOf[e.message] = &q.groups.try_emplace(extra->groupId).first->first;
    }
    if (const uint32_t tenant = m_tenants.tenantOf(e.message); tenant != LaneTenants::kNone) {
        const size_t line = lineOf(tenant);
        m_waiting[line].emplace(e.time, e.message);
        m_waitingOf[e.message] = { line, e.time };
    }
}

void TenantSeries::onMessageEvent(const Event& e)
{
    FairQueue& q = m_queues[e.queue];
    q.all.shift(e.from, -1);
    q.all.shift(e.to, +1);
    if (const auto group = m_groupOf.find(e.message); group != m_groupOf.end()) {
        Counts& counts = q.groups[*group->second];
        counts.shift(e.from, -1);
        counts.shift(e.to, +1);
        if (!isLive(e.to))
            m_groupOf.erase(group); // its counts are done: the map holds live messages only
    }
    // A message waits from its send to its first receive, or to its end if it never had one (expired, purged).
    if (e.cause != Cause::Receive && isLive(e.to))
        return;
    const auto waiting = m_waitingOf.find(e.message);
    if (waiting == m_waitingOf.end())
        return;
    const auto [line, sent] = waiting->second;
    // Its last instant of waiting counts: a message received after 2 minutes waited 2 minutes.
    int32_t& at = m_dwell[line][size_t(e.time / m_bucketMs)];
    at = std::max(at, int32_t(std::clamp<TimeMs>(e.time - sent, 0, INT32_MAX)));
    m_waiting[line].erase({ sent, e.message });
    m_waitingOf.erase(waiting);
}

size_t TenantSeries::lineOf(uint32_t tenant)
{
    const auto found = std::find(m_dwellTenants.begin(), m_dwellTenants.end(), tenant);
    if (found != m_dwellTenants.end())
        return size_t(found - m_dwellTenants.begin());
    if (m_dwellTenants.size() < kTenantLines) {
        m_dwellTenants.push_back(tenant);
        m_dwellNames.push_back(m_tenants.name(tenant));
    } else if (m_dwellNames.size() > kTenantLines) {
        return kTenantLines; // "other tenants" is there already
    } else {
        m_dwellNames.emplace_back("other tenants");
    }
    m_dwell.emplace_back(m_buckets.size(), kNoDwell);
    m_waiting.emplace_back();
    return m_dwell.size() - 1;
}

// A bounded history released events before they were read: the counts are read again from the run's states now
// (its counters, and the lanes known to be in a group), and a message whose first receive or end went unread no longer
// waits (kept, a forgotten wait would climb for ever). A group's messages sent in the gap are not counted in it.
void TenantSeries::catchUp(const RunView& run)
{
    std::erase_if(m_waitingOf, [&](const auto& entry) {
        const MessageIndex lane = entry.first;
        const MessageRecord& m = run.message(lane);
        const bool waits = !run.forgotten(lane) && m.receiveCount == 0 && isLive(m.state);
        if (!waits)
            m_waiting[entry.second.first].erase({ entry.second.second, lane });
        return !waits;
    });
    std::erase_if(m_groupOf,
        [&](const auto& entry) { return run.forgotten(entry.first) || !isLive(run.message(entry.first).state); });
    for (FairQueue& q : m_queues)
        for (auto& [name, counts] : q.groups)
            counts = Counts {};
    for (const auto& [lane, group] : m_groupOf) {
        const MessageRecord& m = run.message(lane);
        if (m.queue < m_queues.size())
            m_queues[m.queue].groups[*group].shift(m.state, +1);
    }
    for (size_t q = 0; q < m_queues.size() && q < run.queueCount(); ++q) {
        const QueueCounters& c = run.queueInfo(QueueIndex(q)).counters;
        m_queues[q].all = Counts { int32_t(c.visible), int32_t(c.inFlight), int32_t(c.delayed) };
    }
}

void TenantSeries::sync(const RunView& run)
{
    m_tenants.sync(run);
    for (size_t q = 0; q < run.queueCount() && !m_shared; ++q)
        m_shared = m_tenants.tenantsOfQueue(QueueIndex(q)) >= 2;
    m_queues.resize(std::max(m_queues.size(), run.queueCount()));
    const EventLog& log = run.log();
    // After a gap the events still held are already in the run's states: their sends and noisy turns are read, and
    // the counts taken from the run (catchUp).
    const bool gap = log.firstRetained() > m_read;
    m_read = std::max(m_read, log.firstRetained());
    for (; m_read < log.size(); ++m_read) {
        const Event& e = log[m_read];
        if (!gap)
            record(e.time); // the buckets up to here carry the levels from before this event
        if (e.cause == Cause::TenantNoisy || e.cause == Cause::TenantQuiet) {
            auto& noisy = m_queues[e.queue].noisy;
            if (e.cause == Cause::TenantNoisy)
                noisy.insert(log.text(e.textIndex()));
            else
                noisy.erase(log.text(e.textIndex()));
        } else if (e.message != kNoMessage && e.from != e.to && e.cause != Cause::RequestRefused
            && e.queue < m_queues.size()) {
            if (e.cause == Cause::Send)
                onSend(run, e);
            if (!gap)
                onMessageEvent(e);
        } else {
            continue;
        }
        if (!gap) {
            recount();
            record(e.time);
        }
    }
    if (gap)
        catchUp(run);
    recount();
    record(run.now());
}

} // namespace lifeline
