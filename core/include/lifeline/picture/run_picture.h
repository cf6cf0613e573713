// What every renderer draws of one run: the lanes grouped by queue (a DLQ's in its own group), the actors (consumers,
// Lambda pollers, clients) in order of first appearance, the lane index (each lane's events, read through
// SegmentReader and laneMarkAt), the tenants, the density series for the bands, and the moments found. sync() reads
// only what is new in the run's log and says what changed. The window's LaneModel is this with Qt's signals; the web
// page and the control API's JSON serialise it (picture_json.h).
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/picture/story_frame.h"
#include "lifeline/timeline/density_series.h"
#include "lifeline/timeline/lane_index.h"
#include "lifeline/timeline/lane_tenants.h"

#include <algorithm>
#include <deque>
#include <vector>

namespace lifeline::picture {

class RunPicture {
public:
    struct Changes {
        bool lanes = false; // lanes, actors or states changed
        bool moments = false; // more moments were found
    };

    // A new run: everything is read again. `moments` are the ones to find (a lesson's; none for other runs).
    void setRun(const RunView* run, std::vector<analysis::MomentSpec> moments);
    const RunView* run() const { return m_run; }
    // Reads what the run logged since the last sync.
    Changes sync();

    const LaneIndex& lanes() const { return m_index; }
    // Whose each message is (a tenant: its MessageGroupId on a standard queue, else its sender).
    const LaneTenants& tenants() const { return m_tenants; }
    // Messages by state and consumers' activity over time, per queue and consumer group: the density bands. Read
    // from the log when first asked for (only a view with bands needs it), then as the log grows.
    const DensitySeries& density() const;
    // The moments found so far, in time order.
    const std::vector<analysis::Moment>& moments() const { return m_moments.moments(); }
    // The moments the run will have: the lesson's, or as many as were found (room is kept for their callouts).
    size_t expectedMoments() const { return std::max(m_momentSpecs.size(), moments().size()); }

    // The story so far: first send to last change of a lane's state (storySpan, read as the log grows).
    TimeSpan story() const { return m_story; }

    size_t queueGroupCount() const { return m_groups.size(); }
    using Lanes = std::deque<MessageIndex>; // grows without moving what is there (no copy stalls mid-run)
    const Lanes& lanesOfGroup(size_t group) const { return m_groups[group]; }
    const std::vector<uint32_t>& shownActors() const { return m_actors; }
    size_t bytesUsed() const;

private:
    // Removes the lanes the index cleared (a bounded history forgot them) from the groups; whether any went.
    bool dropClearedLanes();
    void readStory();

    const RunView* m_run = nullptr;
    LaneIndex m_index;
    LaneTenants m_tenants;
    mutable DensitySeries m_density; // brought up to date by density()
    std::vector<analysis::MomentSpec> m_momentSpecs;
    analysis::MomentFinder m_moments;
    std::vector<Lanes> m_groups; // one per queue, in queue order
    size_t m_clearedDropped = 0; // the index's clearedCount() when the groups last dropped cleared lanes
    std::vector<uint32_t> m_actors; // actor rows: actor ids in order of first appearance
    std::vector<bool> m_actorShown;
    TimeSpan m_story;
    size_t m_storyRead = 0; // the next event the story reads
};

} // namespace lifeline::picture
