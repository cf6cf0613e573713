#include "lifeline/timeline/density_series.h"

#include "lifeline/timeline/lane_index.h"

#include <algorithm>

namespace lifeline {

DensitySeries::DensitySeries(size_t maxBuckets, TimeMs initialBucketMs)
    : m_maxBuckets(std::max<size_t>(maxBuckets, 2))
    , m_initialBucketMs(std::max<TimeMs>(initialBucketMs, 1))
    , m_bucketMs(m_initialBucketMs)
{
}

void DensitySeries::clear()
{
    *this = DensitySeries(m_maxBuckets, m_initialBucketMs);
}

const std::vector<QueueDensity>& DensitySeries::queue(QueueIndex queue) const
{
    static const std::vector<QueueDensity> none;
    return queue < m_queues.size() ? m_queues[queue] : none;
}

void DensitySeries::halve()
{
    const size_t count = (m_bucketCount + 1) / 2;
    for (auto& buckets : m_queues) {
        for (size_t i = 0; i < count; ++i) {
            QueueDensity merged = buckets[2 * i];
            if (2 * i + 1 < m_bucketCount) {
                const QueueDensity& later = buckets[2 * i + 1];
                merged.delayed = later.delayed; // the level at the merged bucket's end
                merged.visible = later.visible;
                merged.inFlight = later.inFlight;
                merged.sent += later.sent;
                merged.deleted += later.deleted;
                merged.deadLettered += later.deadLettered;
                merged.expired += later.expired;
            }
            buckets[i] = merged;
        }
        buckets.resize(count);
    }
    for (Group& group : m_groups) {
        for (size_t i = 0; i < count; ++i) {
            ActivityDensity merged = group.buckets[2 * i];
            if (2 * i + 1 < m_bucketCount) {
                merged.pollingMs += group.buckets[2 * i + 1].pollingMs;
                merged.workingMs += group.buckets[2 * i + 1].workingMs;
            }
            group.buckets[i] = merged;
        }
        group.buckets.resize(count);
    }
    m_bucketCount = count;
    m_bucketMs *= 2;
}

void DensitySeries::extendTo(TimeMs time)
{
    while (bucketOf(time) >= m_maxBuckets)
        halve();
    const size_t needed = bucketOf(time) + 1;
    if (needed <= m_bucketCount)
        return;
    for (size_t q = 0; q < m_queues.size(); ++q) {
        QueueDensity carry; // the levels go on; nothing was sent or deleted in a bucket not reached yet
        carry.delayed = m_current[q].delayed;
        carry.visible = m_current[q].visible;
        carry.inFlight = m_current[q].inFlight;
        m_queues[q].resize(needed, carry);
    }
    for (Group& group : m_groups)
        group.buckets.resize(needed);
    m_bucketCount = needed;
}

void DensitySeries::onMessageEvent(const Event& e)
{
    if (e.queue >= m_queues.size()) {
        m_queues.resize(e.queue + 1, std::vector<QueueDensity>(m_bucketCount));
        m_current.resize(e.queue + 1);
    }
    QueueDensity& now = m_current[e.queue];
    const auto shift = [&](MessageState state, int32_t delta) {
        if (state == MessageState::Delayed)
            now.delayed += delta;
        else if (state == MessageState::Visible)
            now.visible += delta;
        else if (state == MessageState::InFlight)
            now.inFlight += delta;
    };
    shift(e.from, -1);
    shift(e.to, +1);
    QueueDensity& bucket = m_queues[e.queue][bucketOf(e.time)];
    bucket.delayed = now.delayed;
    bucket.visible = now.visible;
    bucket.inFlight = now.inFlight;
    if (e.from == MessageState::None)
        ++bucket.sent;
    else if (e.to == MessageState::Deleted)
        ++bucket.deleted;
    else if (e.to == MessageState::DeadLettered)
        ++bucket.deadLettered;
    else if (e.to == MessageState::Expired)
        ++bucket.expired;
}

void DensitySeries::credit(Group& group, Activity activity, TimeMs from, TimeMs to)
{
    if (activity == Activity::Idle)
        return;
    for (TimeMs t = from; t < to;) {
        const size_t b = bucketOf(t);
        const TimeMs bucketEnd = TimeMs(b + 1) * m_bucketMs;
        const auto ms = uint32_t(std::min(to, bucketEnd) - t);
        if (activity == Activity::Polling)
            group.buckets[b].pollingMs += ms;
        else
            group.buckets[b].workingMs += ms;
        t = bucketEnd;
    }
}

void DensitySeries::settle(ActorState& actor, TimeMs time)
{
    if (actor.group >= 0 && time > actor.since)
        credit(m_groups[size_t(actor.group)], actor.activity, actor.since, time);
    actor.since = std::max(actor.since, time);
    actor.activity = actor.working > 0 ? Activity::Working : actor.polling ? Activity::Polling : Activity::Idle;
}

void DensitySeries::onActorEvent(const RunView& run, const Event& e)
{
    if (e.actor >= m_actors.size())
        m_actors.resize(e.actor + 1);
    ActorState& actor = m_actors[e.actor];
    if (actor.group < 0) { // its first step: join its group
        const std::string name = run.actorGroup(e.actor);
        auto it = std::find_if(m_groups.begin(), m_groups.end(), [&](const Group& g) { return g.name == name; });
        if (it == m_groups.end()) {
            m_groups.push_back(Group { name, 0, std::vector<ActivityDensity>(m_bucketCount) });
            it = std::prev(m_groups.end());
        }
        ++it->actors;
        actor.group = int(it - m_groups.begin());
        actor.since = e.time;
    }
    settle(actor, e.time);
    switch (e.cause) {
    case Cause::PollStarted:
        actor.polling = true;
        break;
    case Cause::PollEnded:
        actor.polling = false;
        break;
    case Cause::ProcessingStarted:
        ++actor.working;
        break;
    case Cause::ProcessingFinished:
    case Cause::ProcessingFailed:
        actor.working = uint16_t(actor.working > 0 ? actor.working - 1 : 0);
        break;
    default: // a crash or a restart: nothing held, nothing waited on
        actor.working = 0;
        actor.polling = false;
        break;
    }
    settle(actor, e.time);
}

void DensitySeries::sync(const RunView& run)
{
    const EventLog& log = run.log();
    if (m_read == log.size() && m_syncedTo == run.now())
        return;
    m_syncedTo = run.now();
    m_read = std::max(m_read, log.firstRetained()); // a bounded history forgot what was not read yet
    for (; m_read < log.size(); ++m_read) {
        const Event& e = log[m_read];
        extendTo(e.time);
        if (e.message != kNoMessage && e.queue != kNoQueue && e.cause != Cause::RequestRefused && e.from != e.to)
            onMessageEvent(e);
        if (e.actor >= kFirstActor && LaneIndex::isActorWork(e.cause))
            onActorEvent(run, e);
    }
    // Activity goes on up to now: what is under way is credited so far.
    extendTo(run.now());
    for (ActorState& actor : m_actors)
        settle(actor, run.now());
}

} // namespace lifeline
