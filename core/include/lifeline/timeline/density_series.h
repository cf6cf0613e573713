// A run's density over time, for a timeline with more lanes than rows can show: per queue, how many messages were
// delayed, visible and in flight at the end of each bucket (what the engine counted at that instant) and how many
// were sent, deleted, dead-lettered or expired in it; per consumer group (consumers NAME-1..NAME-N are group NAME),
// how many actor-milliseconds of each bucket went to polling and to working. Read incrementally from the log; every
// queue and group shares one grid of at most `maxBuckets` buckets, which halves its resolution when the run
// outgrows it (levels keep the later bucket's, counts and milliseconds add).
#pragma once

#include "lifeline/run/run_view.h"

#include <string>
#include <vector>

namespace lifeline {

struct QueueDensity {
    int32_t delayed = 0; // at the bucket's end
    int32_t visible = 0;
    int32_t inFlight = 0;
    int32_t sent = 0; // in the bucket
    int32_t deleted = 0;
    int32_t deadLettered = 0;
    int32_t expired = 0;
    int32_t live() const { return delayed + visible + inFlight; }
};

struct ActivityDensity {
    uint32_t pollingMs = 0; // actor-milliseconds of the bucket spent waiting on a receive
    uint32_t workingMs = 0; // ... working on a message
};

class DensitySeries {
public:
    explicit DensitySeries(size_t maxBuckets = 8192, TimeMs initialBucketMs = 10);

    // Reads what the log added since the last call; actors are gathered by their group (RunView::actorGroup). Nothing
    // to do (no new event, the clock where it was) returns at once, so a painter may ask for every band.
    void sync(const RunView& run);
    void clear();

    TimeMs bucketMs() const { return m_bucketMs; }
    size_t bucketCount() const { return m_bucketCount; } // bucket i covers [i, i + 1) x bucketMs
    size_t bucketOf(TimeMs time) const { return size_t(std::max<TimeMs>(time, 0) / m_bucketMs); }
    // One queue's buckets (empty for a queue not seen yet).
    const std::vector<QueueDensity>& queue(QueueIndex queue) const;

    size_t groupCount() const { return m_groups.size(); }
    const std::string& groupName(size_t group) const { return m_groups[group].name; }
    uint32_t groupActors(size_t group) const { return m_groups[group].actors; } // seen so far
    const std::vector<ActivityDensity>& groupActivity(size_t group) const { return m_groups[group].buckets; }
    // The group of an actor that has done something (-1: none yet).
    int groupOf(uint32_t actor) const { return actor < m_actors.size() ? m_actors[actor].group : -1; }

private:
    enum class Activity : uint8_t { Idle, Polling, Working };
    struct ActorState {
        int group = -1;
        Activity activity = Activity::Idle;
        bool polling = false;
        uint16_t working = 0; // messages being worked on
        TimeMs since = 0;
    };
    struct Group {
        std::string name;
        uint32_t actors = 0;
        std::vector<ActivityDensity> buckets;
    };

    void extendTo(TimeMs time); // buckets up to the one holding `time`, carrying each queue's levels
    void halve();
    void onMessageEvent(const Event& e);
    void onActorEvent(const RunView& run, const Event& e);
    void settle(ActorState& actor, TimeMs time); // credits the actor's activity since `since` and reads it anew
    void credit(Group& group, Activity activity, TimeMs from, TimeMs to);

    size_t m_maxBuckets;
    TimeMs m_initialBucketMs;
    TimeMs m_bucketMs;
    size_t m_bucketCount = 0;
    size_t m_read = 0;
    TimeMs m_syncedTo = -1; // the engine's clock at the last sync
    std::vector<std::vector<QueueDensity>> m_queues;
    std::vector<QueueDensity> m_current; // per queue: the levels now
    std::vector<Group> m_groups;
    std::vector<ActorState> m_actors;
};

} // namespace lifeline
