#include "timeline/lane_model.h"

#include <algorithm>

namespace lifeline::ui {

namespace {
constexpr quintptr kTopLevel = 0;
constexpr quintptr kActorsParent = UINT32_MAX; // internal id of actor rows
} // namespace

LaneModel::LaneModel(QObject* parent)
    : QAbstractItemModel(parent)
{
}

void LaneModel::setEngine(const Engine* engine, std::vector<std::string> actorNames)
{
    beginResetModel();
    m_engine = engine;
    m_actorNames = std::move(actorNames);
    m_index.clear();
    m_density.clear();
    m_groups.clear();
    m_actors.clear();
    m_actorShown.clear();
    m_moments = sim::MomentFinder(m_momentSpecs);
    endResetModel();
    sync();
    emit momentsChanged();
}

void LaneModel::sync()
{
    if (!m_engine)
        return;
    // New queues: their group rows go in before the actor group.
    const size_t queues = m_engine->queueCount();
    if (queues > m_groups.size()) {
        beginInsertRows({}, int(m_groups.size()), int(queues) - 1);
        m_groups.resize(queues);
        endInsertRows();
    }
    const auto result = m_index.sync(*m_engine);
    const size_t momentsBefore = m_moments.moments().size();
    m_moments.advance(*m_engine, m_actorNames);
    // New lanes: one insert per group that received any.
    size_t lane = result.firstNewLane;
    while (lane < m_index.laneCount()) {
        const QueueIndex queue = m_engine->message(MessageIndex(lane)).queue;
        size_t end = lane;
        std::vector<MessageIndex> added;
        // Lanes of one queue arriving together are inserted together; another queue's lanes wait for the next loop.
        for (; end < m_index.laneCount() && m_engine->message(MessageIndex(end)).queue == queue; ++end)
            added.push_back(MessageIndex(end));
        Group& group = m_groups[queue];
        const int first = int(group.lanes.size());
        beginInsertRows(index(int(queue), 0), first, first + int(added.size()) - 1);
        group.lanes.insert(group.lanes.end(), added.begin(), added.end());
        endInsertRows();
        lane = end;
    }
    // New actors.
    std::vector<uint32_t> newActors;
    for (size_t a = 0; a < m_index.actorCount(); ++a) {
        if (a < m_actorShown.size() && m_actorShown[a])
            continue;
        if (m_index.actorSteps(uint32_t(a)).empty())
            continue;
        newActors.push_back(uint32_t(a));
    }
    if (!newActors.empty()) {
        m_actorShown.resize(m_index.actorCount(), false);
        const int first = int(m_actors.size());
        beginInsertRows(actorGroup(), first, first + int(newActors.size()) - 1);
        for (const uint32_t a : newActors) {
            m_actors.push_back(a);
            m_actorShown[a] = true;
        }
        endInsertRows();
    }
    // Changed lanes: one dataChanged per run of adjacent rows in one group.
    static const QList<int> kRoles { StateRole, ReceiveCountRole, DuplicatesRole, Qt::ToolTipRole };
    const auto& changed = result.changedLanes;
    for (size_t i = 0; i < changed.size();) {
        const QueueIndex queue = m_engine->message(changed[i]).queue;
        size_t j = i + 1;
        while (j < changed.size() && m_engine->message(changed[j]).queue == queue
            && rowInGroup(changed[j]) == rowInGroup(changed[j - 1]) + 1)
            ++j;
        const QModelIndex parent = index(int(queue), 0);
        emit dataChanged(
            index(rowInGroup(changed[i]), 0, parent), index(rowInGroup(changed[j - 1]), 0, parent), kRoles);
        i = j;
    }
    if (m_moments.moments().size() != momentsBefore)
        emit momentsChanged();
}

const DensitySeries& LaneModel::density() const
{
    if (m_engine)
        m_density.sync(*m_engine, m_actorNames); // returns at once when nothing is new
    return m_density;
}

QModelIndex LaneModel::indexOfLane(MessageIndex lane) const
{
    if (!m_engine || lane >= m_index.laneCount())
        return {};
    const int row = rowInGroup(lane);
    return row < 0 ? QModelIndex() : index(row, 0, index(int(m_engine->message(lane).queue), 0));
}

int LaneModel::rowInGroup(MessageIndex lane) const
{
    // A group's lanes are in lane order (they are appended as they appear), so a binary search finds the row.
    const auto& lanes = m_groups[m_engine->message(lane).queue].lanes;
    const auto it = std::lower_bound(lanes.begin(), lanes.end(), lane);
    return it != lanes.end() && *it == lane ? int(it - lanes.begin()) : -1;
}

QModelIndex LaneModel::actorGroup() const
{
    return index(int(m_groups.size()), 0);
}

QString LaneModel::actorName(uint32_t actor) const
{
    if (actor < m_actorNames.size())
        return QString::fromStdString(m_actorNames[actor]);
    return tr("client %1").arg(actor);
}

QModelIndex LaneModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column != 0 || row < 0 || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, 0, kTopLevel);
    if (parent.internalId() != kTopLevel)
        return {};
    if (parent.row() == int(m_groups.size()))
        return createIndex(row, 0, kActorsParent);
    return createIndex(row, 0, quintptr(parent.row()) + 1);
}

QModelIndex LaneModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == kTopLevel)
        return {};
    if (child.internalId() == kActorsParent)
        return createIndex(int(m_groups.size()), 0, kTopLevel);
    return createIndex(int(child.internalId() - 1), 0, kTopLevel);
}

int LaneModel::rowCount(const QModelIndex& parent) const
{
    if (!m_engine)
        return 0;
    if (!parent.isValid())
        return int(m_groups.size()) + 1;
    if (parent.internalId() != kTopLevel)
        return 0;
    if (parent.row() == int(m_groups.size()))
        return int(m_actors.size());
    return int(m_groups[size_t(parent.row())].lanes.size());
}

int LaneModel::columnCount(const QModelIndex&) const
{
    return 1;
}

QVariant LaneModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_engine)
        return {};
    const quintptr id = index.internalId();
    if (id == kTopLevel) {
        const bool actors = index.row() == int(m_groups.size());
        if (role == KindRole)
            return actors ? ActorGroup : QueueGroup;
        if (role == Qt::DisplayRole)
            return actors ? tr("Consumers") : QString::fromStdString(m_engine->queueInfo(QueueIndex(index.row())).name);
        if (role == QueueRole && !actors)
            return index.row();
        return {};
    }
    if (id == kActorsParent) {
        const uint32_t actor = m_actors[size_t(index.row())];
        if (role == KindRole)
            return ActorRow;
        if (role == LaneRole)
            return actor;
        if (role == Qt::DisplayRole)
            return actorName(actor);
        return {};
    }
    const MessageIndex lane = m_groups[id - 1].lanes[size_t(index.row())];
    const MessageRecord& record = m_engine->message(lane);
    const LaneChain& chain = m_index.lane(lane);
    switch (role) {
    case KindRole:
        return MessageRow;
    case LaneRole:
        return lane;
    case StateRole:
        return int(chain.state);
    case ReceiveCountRole:
        return record.receiveCount;
    case DuplicatesRole:
        return chain.duplicates;
    case QueueRole:
        return record.queue;
    case Qt::DisplayRole:
        return QString::fromStdString(m_engine->messageId(lane).substr(0, 8));
    case Qt::ToolTipRole:
        return tr("%1: %2, received %3 time(s)")
            .arg(QString::fromStdString(m_engine->messageId(lane)), QString::fromLatin1(toString(chain.state)))
            .arg(record.receiveCount);
    default:
        return {};
    }
}

QHash<int, QByteArray> LaneModel::roleNames() const
{
    auto names = QAbstractItemModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(LaneRole, "lane");
    names.insert(StateRole, "state");
    names.insert(ReceiveCountRole, "receiveCount");
    names.insert(DuplicatesRole, "duplicates");
    names.insert(QueueRole, "queue");
    return names;
}

size_t LaneModel::bytesUsed() const
{
    size_t bytes = m_index.bytesUsed();
    for (const auto& g : m_groups)
        bytes += sizeof(Group) + g.lanes.size() * sizeof(MessageIndex);
    return bytes + m_actors.capacity() * sizeof(uint32_t) + m_actorShown.capacity() / 8;
}

} // namespace lifeline::ui
