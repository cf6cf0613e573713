// What the timeline and the exports draw of one run: the lanes grouped by queue (a DLQ's in its own group), the
// actors (consumers, Lambda pollers, clients) in order of first appearance, the lane index, the density series and
// the moments found. sync() reads only what is new in the engine's log and says so once (lanesChanged). A plain
// QObject: the timeline paints from it directly, no item view shows it.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/timeline/density_series.h"
#include "lifeline/timeline/lane_index.h"
#include "lifeline/timeline/lane_tenants.h"

#include <QObject>
#include <algorithm>
#include <deque>

namespace lifeline::ui {

class LaneModel : public QObject {
    Q_OBJECT
public:
    // The kinds of the timeline's rows: a queue's header, a message lane, the actors' header, an actor's row, and
    // the density bands (a queue's, a consumer group's) shown when lanes are too many to read.
    enum RowKind { QueueGroup, MessageRow, ActorGroup, ActorRow, QueueBand, ActorBand };

    explicit LaneModel(QObject* parent = nullptr);

    // A new run: everything is read again (runReset, then lanesChanged).
    void setEngine(const RunView* engine);
    const RunView* engine() const { return m_engine; }
    // The moments to find in the runs shown from now on (a lesson's; none for other runs). Takes effect at the next
    // setEngine.
    void setMomentSpecs(std::vector<sim::MomentSpec> specs) { m_momentSpecs = std::move(specs); }
    // The moments found so far, in time order (momentsChanged when there are more).
    const std::vector<sim::Moment>& moments() const { return m_moments.moments(); }
    // The moments the run will have: the lesson's, or as many as were found (room is kept for their callouts).
    size_t expectedMoments() const { return std::max(m_momentSpecs.size(), moments().size()); }
    // Reads what the engine logged since the last sync; lanesChanged when lanes, actors or states changed.
    void sync();
    const LaneIndex& lanes() const { return m_index; }
    // Whose each message is (a tenant: its MessageGroupId on a standard queue, else its sender).
    const LaneTenants& tenants() const { return m_tenants; }
    // Messages by state and consumers' activity over time, per queue and consumer group: the density bands. Read
    // from the log when first asked for (only a view with bands needs it), then as the log grows.
    const DensitySeries& density() const;

    int queueGroupCount() const { return int(m_groups.size()); }
    using Lanes = std::deque<MessageIndex>; // grows without moving what is there (no copy stalls mid-run)
    const Lanes& lanesOfGroup(int group) const { return m_groups[size_t(group)].lanes; }
    const std::vector<uint32_t>& shownActors() const { return m_actors; }
    QString actorName(uint32_t actor) const; // the run's name for it
    size_t bytesUsed() const;

signals:
    void runReset();
    void lanesChanged();
    void momentsChanged();

private:
    struct Group {
        Lanes lanes;
    };

    const RunView* m_engine = nullptr;
    LaneIndex m_index;
    LaneTenants m_tenants;
    mutable DensitySeries m_density; // brought up to date by density()
    std::vector<sim::MomentSpec> m_momentSpecs;
    sim::MomentFinder m_moments;
    // Removes the lanes the index cleared (a bounded history forgot them) from the groups; whether any went.
    bool dropClearedLanes();

    std::vector<Group> m_groups; // one per queue, in queue order
    size_t m_clearedDropped = 0; // the index's clearedCount() when the groups last dropped cleared lanes
    std::vector<uint32_t> m_actors; // actor group rows: actor ids in order of first appearance
    std::vector<bool> m_actorShown;
};

} // namespace lifeline::ui
