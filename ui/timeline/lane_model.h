// The lanes as an item model: one top-level row per queue (its message lanes below it, a DLQ's in its own group)
// and a last group for the actors (consumers, Lambda pollers). sync() reads only what is new in the engine's log
// and tells views in batches: one insert per group per sync, one dataChanged per run of adjacent changed rows.
#pragma once

#include "lifeline/sim/moments.h"
#include "lifeline/timeline/density_series.h"
#include "lifeline/timeline/lane_index.h"

#include <QAbstractItemModel>
#include <deque>

namespace lifeline::ui {

class LaneModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Role {
        KindRole = Qt::UserRole + 1, // RowKind
        LaneRole, // MessageIndex (message rows) or actor id (actor rows)
        StateRole, // MessageState as int
        ReceiveCountRole,
        DuplicatesRole,
        QueueRole, // QueueIndex
    };
    // The item model has the first four; the timeline's rows add density bands (a queue's, a consumer group's)
    // when lanes are too many to read.
    enum RowKind { QueueGroup, MessageRow, ActorGroup, ActorRow, QueueBand, ActorBand };

    explicit LaneModel(QObject* parent = nullptr);

    // A new run: the whole model resets (the only reset there is).
    void setEngine(const Engine* engine, std::vector<std::string> actorNames = {});
    const Engine* engine() const { return m_engine; }
    // Actors added while the run goes on (consumers added by the operator) get their names; no reset.
    void setActorNames(std::vector<std::string> actorNames) { m_actorNames = std::move(actorNames); }
    const std::vector<std::string>& actorNames() const { return m_actorNames; }
    // The moments to find in the runs shown from now on (a lesson's; none for other runs). Takes effect at the next
    // setEngine.
    void setMomentSpecs(std::vector<sim::MomentSpec> specs) { m_momentSpecs = std::move(specs); }
    // The moments found so far, in time order (momentsChanged when there are more).
    const std::vector<sim::Moment>& moments() const { return m_moments.moments(); }
    // Reads what the engine logged since the last sync and signals the changes.
    void sync();
    const LaneIndex& lanes() const { return m_index; }
    // Messages by state and consumers' activity over time, per queue and consumer group: the density bands. Read
    // from the log when first asked for (only a view with bands needs it), then as the log grows.
    const DensitySeries& density() const;

    QModelIndex indexOfLane(MessageIndex lane) const;
    QModelIndex actorGroup() const;
    int queueGroupCount() const { return int(m_groups.size()); }
    using Lanes = std::deque<MessageIndex>; // grows without moving what is there (no copy stalls mid-run)
    const Lanes& lanesOfGroup(int group) const { return m_groups[size_t(group)].lanes; }
    const std::vector<uint32_t>& shownActors() const { return m_actors; }
    QString actorName(uint32_t actor) const;
    size_t bytesUsed() const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void momentsChanged();

private:
    int rowInGroup(MessageIndex lane) const; // -1 when not (yet) in the model
    struct Group {
        Lanes lanes;
    };

    const Engine* m_engine = nullptr;
    std::vector<std::string> m_actorNames;
    LaneIndex m_index;
    mutable DensitySeries m_density; // brought up to date by density()
    std::vector<sim::MomentSpec> m_momentSpecs;
    sim::MomentFinder m_moments;
    std::vector<Group> m_groups; // one per queue, in queue order
    std::vector<uint32_t> m_actors; // actor group rows: actor ids in order of first appearance
    std::vector<bool> m_actorShown;
};

} // namespace lifeline::ui
