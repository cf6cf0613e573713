#include "timeline/row_layout.h"

#include <algorithm>
#include <unordered_map>

namespace lifeline::ui {

namespace {
// LaneOrder::State: the states that find problems first, then the live ones, then the ended ones.
int stateRank(MessageState state)
{
    switch (state) {
    case MessageState::DeadLettered:
        return 0;
    case MessageState::Expired:
        return 1;
    case MessageState::InFlight:
        return 2;
    case MessageState::Visible:
        return 3;
    case MessageState::Delayed:
        return 4;
    case MessageState::Redriven:
        return 5;
    case MessageState::Purged:
        return 6;
    default:
        return 7;
    }
}
} // namespace

RowLayout::RowLayout(const LaneModel& model)
    : m_model(model)
{
}

void RowLayout::setFilter(const LaneFilter& filter)
{
    m_filter = filter;
    refreshFilter();
}

void RowLayout::setAliveOnly(bool alive)
{
    m_aliveOnly = alive;
    refreshFilter();
}

void RowLayout::setOrder(LaneOrder order)
{
    m_order = order;
    refreshFilter();
}

void RowLayout::setDensityAllowed(bool allowed)
{
    m_densityAllowed = allowed;
    refreshFilter();
}

void RowLayout::setExpanded(QueueIndex queue, bool expanded)
{
    if (expanded)
        m_expanded.insert(queue);
    else
        m_expanded.erase(queue);
}

const LaneModel::Lanes& RowLayout::lanesOf(int group) const
{
    if (listing() && size_t(group) < m_listed.size())
        return m_listed[size_t(group)];
    return m_model.lanesOfGroup(group);
}

size_t RowLayout::shownLanes() const
{
    size_t n = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        n += lanesOf(g).size();
    return n;
}

bool RowLayout::isBand(int group) const
{
    return m_dense && lanesOf(group).size() > kBandAbove && !m_expanded.contains(QueueIndex(group));
}

const LaneModel::Lanes& RowLayout::tenantLanes(int group) const
{
    static const LaneModel::Lanes none;
    return size_t(group) < m_tenantLanes.size() && isBand(group) ? m_tenantLanes[size_t(group)] : none;
}

bool RowLayout::splitTenants()
{
    // The smallest tenants, as many as fit kTenantLanesAtMost, never the largest: the band is the flood's.
    std::vector<LaneModel::Lanes> split(size_t(m_model.queueGroupCount()));
    const LaneTenants& tenants = m_model.tenants();
    for (int g = 0; g < m_model.queueGroupCount(); ++g) {
        if (!isBand(g) || tenants.tenantsOfQueue(QueueIndex(g)) < 2)
            continue;
        std::unordered_map<uint32_t, size_t> counts;
        for (const MessageIndex lane : lanesOf(g))
            if (const uint32_t tenant = tenants.tenantOf(lane); tenant != LaneTenants::kNone)
                ++counts[tenant];
        std::vector<std::pair<size_t, uint32_t>> bySize;
        bySize.reserve(counts.size());
        for (const auto& [tenant, count] : counts)
            bySize.emplace_back(count, tenant);
        std::sort(bySize.begin(), bySize.end());
        std::vector<uint32_t> small;
        size_t taken = 0;
        for (size_t i = 0; i + 1 < bySize.size() && taken + bySize[i].first <= kTenantLanesAtMost; ++i) {
            taken += bySize[i].first;
            small.push_back(bySize[i].second);
        }
        if (small.empty())
            continue;
        for (const MessageIndex lane : lanesOf(g))
            if (std::find(small.begin(), small.end(), tenants.tenantOf(lane)) != small.end())
                split[size_t(g)].push_back(lane);
    }
    if (split == m_tenantLanes)
        return false;
    m_tenantLanes = std::move(split);
    return true;
}

bool RowLayout::actorsAsBands() const
{
    return m_dense && m_model.shownActors().size() > kActorBandsAbove && m_model.density().groupCount() > 0;
}

bool RowLayout::matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const
{
    const RunView& run = *m_model.run();
    const LaneChain& chain = m_model.lanes().lane(lane);
    switch (m_filter.state) {
    case LaneFilter::State::All:
        break;
    case LaneFilter::State::Live:
        if (!isLive(chain.state))
            return false;
        break;
    case LaneFilter::State::InFlight:
        if (chain.state != MessageState::InFlight)
            return false;
        break;
    case LaneFilter::State::Ended:
        if (isLive(chain.state))
            return false;
        break;
    case LaneFilter::State::DeadLettered:
        if (chain.state != MessageState::DeadLettered
            && !(run.extra(lane) && !run.extra(lane)->deadLetterQueueSourceArn.empty()))
            return false;
        break;
    case LaneFilter::State::Duplicates:
        if (chain.duplicates == 0)
            return false;
        break;
    }
    if (m_filter.text.isEmpty())
        return true;
    if (lane < workedOnByNamedActor.size() && workedOnByNamedActor[lane])
        return true;
    const MessageRecord& record = run.message(lane);
    const std::string needle = m_filter.text.toStdString();
    if (run.messageId(lane).starts_with(needle) || record.body.view().find(needle) != std::string::npos)
        return true;
    const MessageExtra* extra = run.extra(lane);
    return extra && (extra->groupId == needle || extra->label.find(needle) != std::string::npos);
}

std::vector<bool> RowLayout::workedOnByNamedActor() const
{
    // A consumer's name selects the messages it worked on.
    std::vector<bool> workedOn;
    const LaneIndex& index = m_model.lanes();
    for (const uint32_t actor : m_model.shownActors()) {
        if (m_filter.text.isEmpty() || m_model.actorName(actor).compare(m_filter.text, Qt::CaseInsensitive) != 0)
            continue;
        workedOn.resize(index.laneCount(), false);
        const auto& steps = index.actorSteps(actor);
        for (size_t i = index.firstStepHeld(actor); i < steps.size(); ++i)
            if (steps[i].cause() == Cause::ProcessingStarted && steps[i].lane() < workedOn.size())
                workedOn[steps[i].lane()] = true;
    }
    return workedOn;
}

void RowLayout::sortLanes(LaneModel::Lanes& lanes) const
{
    if (m_order == LaneOrder::Sent)
        return;
    // Keys first (one read of the engine per lane, not one per comparison); ties keep the send order.
    const RunView& run = *m_model.run();
    const LaneIndex& index = m_model.lanes();
    std::vector<std::pair<int64_t, MessageIndex>> keyed;
    keyed.reserve(lanes.size());
    for (const MessageIndex lane : lanes) {
        int64_t key = 0;
        if (m_order == LaneOrder::MostReceived) {
            key = -int64_t(run.message(lane).receiveCount);
        } else if (m_order == LaneOrder::LongestInQueue) {
            const TimeMs ended = index.endedAt(lane);
            key = -((ended < 0 ? run.now() : ended) - index.bornAt(lane));
        } else {
            key = stateRank(index.lane(lane).state);
        }
        keyed.emplace_back(key, lane);
    }
    std::sort(keyed.begin(), keyed.end());
    for (size_t i = 0; i < keyed.size(); ++i)
        lanes[i] = keyed[i].second;
}

void RowLayout::refreshFilter()
{
    m_listed.clear();
    m_eventsRead = m_model.lanes().eventsRead();
    if (m_model.run() && listing()) {
        const std::vector<bool> workedOn = workedOnByNamedActor();
        const RunView& run = *m_model.run();
        m_listed.resize(size_t(m_model.queueGroupCount()));
        const auto take = [&](MessageIndex lane) {
            if (run.forgotten(lane) || m_model.lanes().cleared(lane))
                return; // the run no longer knows its queue
            const QueueIndex queue = run.message(lane).queue;
            if (queue < m_listed.size() && (!m_filter.active() || matches(lane, workedOn)))
                m_listed[queue].push_back(lane);
        };
        if (m_aliveOnly) {
            m_model.lanes().lanesAlive(m_from, m_to, m_alive);
            for (const MessageIndex lane : m_alive)
                take(lane);
        } else {
            for (int g = 0; g < m_model.queueGroupCount(); ++g)
                for (const MessageIndex lane : m_model.lanesOfGroup(g))
                    take(lane);
        }
        for (auto& lanes : m_listed)
            sortLanes(lanes);
    }
    m_dense = m_densityAllowed && m_legibleRows > 0 && shownLanes() > size_t(m_legibleRows);
    splitTenants();
}

bool RowLayout::arrange(TimeMs from, TimeMs to, int legibleRows)
{
    const bool windowMoved = m_aliveOnly && (from != m_from || to != m_to);
    const bool logGrew = m_eventsRead != m_model.lanes().eventsRead();
    const bool roomChanged = legibleRows != m_legibleRows;
    m_from = from;
    m_to = to;
    m_legibleRows = legibleRows;
    if (!windowMoved && !roomChanged && !(logGrew && listing())) {
        // Listed lanes are read anew as the log grows; the run's own lanes grow in place, their tenants with them.
        if (logGrew && m_dense)
            return splitTenants();
        return false;
    }
    refreshFilter();
    return true;
}

int RowLayout::groupRows(int group) const
{
    return 1 + (isBand(group) ? kQueueBandRows + int(tenantLanes(group).size()) : int(lanesOf(group).size()));
}

int RowLayout::actorRows() const
{
    if (actorsAsBands())
        return 1 + int(m_model.density().groupCount()) * kActorBandRows;
    return 1 + int(m_model.shownActors().size());
}

int RowLayout::actorsTop() const
{
    int rows = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        rows += groupRows(g);
    return rows;
}

int RowLayout::totalRows() const
{
    return actorsTop() + actorRows();
}

RowRef RowLayout::rowAt(int flatRow) const
{
    for (int g = 0; g < m_model.queueGroupCount(); ++g) {
        const int rows = groupRows(g);
        if (flatRow == 0)
            return RowRef { LaneModel::QueueGroup, g, 0, 0 };
        if (flatRow < rows) {
            if (isBand(g) && flatRow - 1 < kQueueBandRows)
                return RowRef { LaneModel::QueueBand, g, 0, flatRow - 1 };
            if (isBand(g))
                return RowRef { LaneModel::MessageRow, g, tenantLanes(g)[size_t(flatRow - 1 - kQueueBandRows)], 0 };
            return RowRef { LaneModel::MessageRow, g, lanesOf(g)[size_t(flatRow - 1)], 0 };
        }
        flatRow -= rows;
    }
    if (flatRow <= 0)
        return RowRef { LaneModel::ActorGroup, 0, 0, 0 };
    if (actorsAsBands()) {
        const int band = std::min((flatRow - 1) / kActorBandRows, int(m_model.density().groupCount()) - 1);
        return RowRef { LaneModel::ActorBand, band, 0,
            std::min(flatRow - 1 - band * kActorBandRows, kActorBandRows - 1) };
    }
    const auto& actors = m_model.shownActors();
    if (actors.empty())
        return RowRef { LaneModel::ActorGroup, 0, 0, 0 };
    return RowRef { LaneModel::ActorRow, 0, actors[std::min<size_t>(size_t(flatRow - 1), actors.size() - 1)], 0 };
}

int RowLayout::rowOfQueue(QueueIndex queue) const
{
    if (queue == kNoQueue || int(queue) >= m_model.queueGroupCount())
        return -1;
    int row = 0;
    for (int g = 0; g < int(queue); ++g)
        row += groupRows(g);
    return row;
}

int RowLayout::rowOfActor(uint32_t actor) const
{
    if (actorsAsBands())
        return -1;
    const auto& actors = m_model.shownActors();
    const auto it = std::find(actors.begin(), actors.end(), actor);
    if (it == actors.end())
        return -1;
    return actorsTop() + 1 + int(it - actors.begin()); // below the actors' group row
}

int RowLayout::rowOfLane(MessageIndex lane) const
{
    if (!m_model.run() || lane >= m_model.lanes().laneCount())
        return -1;
    const int group = int(m_model.run()->message(lane).queue);
    if (group >= m_model.queueGroupCount())
        return -1;
    const bool band = isBand(group);
    const auto& lanes = band ? tenantLanes(group) : lanesOf(group);
    // In send order a binary search finds it; another order is searched through.
    const auto it = m_order == LaneOrder::Sent ? std::lower_bound(lanes.begin(), lanes.end(), lane)
                                               : std::find(lanes.begin(), lanes.end(), lane);
    if (it == lanes.end() || *it != lane)
        return -1; // filtered out
    return rowOfQueue(QueueIndex(group)) + 1 + (band ? kQueueBandRows : 0) + int(it - lanes.begin());
}

int RowLayout::rowNear(const RowRef& row, int oldFlatRow) const
{
    const int actorsGroupRow = actorsTop();
    switch (row.kind) {
    case LaneModel::QueueGroup:
        return rowOfQueue(QueueIndex(row.group));
    case LaneModel::MessageRow: {
        if (const int found = rowOfLane(row.id); found >= 0)
            return found;
        const int queueRow = rowOfQueue(QueueIndex(row.group));
        if (queueRow < 0 || isBand(row.group))
            return queueRow < 0 ? -1 : queueRow + 1;
        // Gone from the list (ended before the window): the lane that follows it in send order takes its place.
        const auto& lanes = lanesOf(row.group);
        if (lanes.empty())
            return queueRow;
        const size_t at = m_order == LaneOrder::Sent
            ? size_t(std::lower_bound(lanes.begin(), lanes.end(), row.id) - lanes.begin())
            : size_t(std::max(0, oldFlatRow - queueRow - 1));
        return queueRow + 1 + int(std::min(at, lanes.size() - 1));
    }
    case LaneModel::QueueBand: {
        const int queueRow = rowOfQueue(QueueIndex(row.group));
        return queueRow < 0 ? -1 : queueRow + (isBand(row.group) ? 1 + row.part : 0);
    }
    case LaneModel::ActorRow:
        if (const int found = rowOfActor(row.id); found >= 0)
            return found;
        return actorsGroupRow;
    case LaneModel::ActorBand:
        return actorsAsBands() ? actorsGroupRow + 1 + row.group * kActorBandRows + row.part : actorsGroupRow;
    case LaneModel::ActorGroup:
        return actorsGroupRow;
    }
    return -1;
}

} // namespace lifeline::ui
