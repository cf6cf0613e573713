#include "timeline/row_layout.h"

#include <algorithm>

namespace lifeline::ui {

RowLayout::RowLayout(const LaneModel& model)
    : m_model(model)
{
}

void RowLayout::setFilter(const LaneFilter& filter)
{
    m_filter = filter;
    refreshFilter();
}

const LaneModel::Lanes& RowLayout::lanesOf(int group) const
{
    if (m_filter.active() && size_t(group) < m_filtered.size())
        return m_filtered[size_t(group)];
    return m_model.lanesOfGroup(group);
}

size_t RowLayout::shownLanes() const
{
    size_t n = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        n += lanesOf(g).size();
    return n;
}

bool RowLayout::matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const
{
    const Engine& engine = *m_model.engine();
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
            && !(engine.extra(lane) && !engine.extra(lane)->deadLetterQueueSourceArn.empty()))
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
    const MessageRecord& record = engine.message(lane);
    const std::string needle = m_filter.text.toStdString();
    if (record.messageId().starts_with(needle) || record.body.find(needle) != std::string::npos)
        return true;
    const MessageExtra* extra = engine.extra(lane);
    return extra && extra->groupId == needle;
}

void RowLayout::refreshFilter()
{
    m_filtered.clear();
    if (!m_filter.active() || !m_model.engine())
        return;
    // A consumer's name selects the messages it worked on.
    std::vector<bool> workedOn;
    const LaneIndex& index = m_model.lanes();
    for (const uint32_t actor : m_model.shownActors()) {
        if (m_model.actorName(actor).compare(m_filter.text, Qt::CaseInsensitive) != 0)
            continue;
        workedOn.resize(index.laneCount(), false);
        const auto& steps = index.actorSteps(actor);
        for (size_t i = 0; i < steps.size(); ++i)
            if (steps[i].cause() == Cause::ProcessingStarted && steps[i].lane() < workedOn.size())
                workedOn[steps[i].lane()] = true;
    }
    m_filtered.resize(size_t(m_model.queueGroupCount()));
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        for (const MessageIndex lane : m_model.lanesOfGroup(g))
            if (matches(lane, workedOn))
                m_filtered[size_t(g)].push_back(lane);
}

int RowLayout::totalRows() const
{
    int rows = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        rows += 1 + int(lanesOf(g).size());
    return rows + 1 + int(m_model.shownActors().size());
}

RowRef RowLayout::rowAt(int flatRow) const
{
    for (int g = 0; g < m_model.queueGroupCount(); ++g) {
        const int lanes = int(lanesOf(g).size());
        if (flatRow == 0)
            return RowRef { LaneModel::QueueGroup, g, 0 };
        if (flatRow <= lanes)
            return RowRef { LaneModel::MessageRow, g, lanesOf(g)[size_t(flatRow - 1)] };
        flatRow -= lanes + 1;
    }
    if (flatRow <= 0)
        return RowRef { LaneModel::ActorGroup, 0, 0 };
    const auto& actors = m_model.shownActors();
    return RowRef { LaneModel::ActorRow, 0, actors[std::min<size_t>(size_t(flatRow - 1), actors.size() - 1)] };
}

int RowLayout::rowOfQueue(QueueIndex queue) const
{
    if (queue == kNoQueue || int(queue) >= m_model.queueGroupCount())
        return -1;
    int row = 0;
    for (int g = 0; g < int(queue); ++g)
        row += 1 + int(lanesOf(g).size());
    return row;
}

int RowLayout::rowOfActor(uint32_t actor) const
{
    const auto& actors = m_model.shownActors();
    const auto it = std::find(actors.begin(), actors.end(), actor);
    if (it == actors.end())
        return -1;
    int row = 0;
    for (int g = 0; g < m_model.queueGroupCount(); ++g)
        row += 1 + int(lanesOf(g).size());
    return row + 1 + int(it - actors.begin()); // below the actors' group row
}

int RowLayout::rowOfLane(MessageIndex lane) const
{
    const QModelIndex index = m_model.indexOfLane(lane);
    if (!index.isValid())
        return -1;
    const int group = index.parent().row();
    int row = 0;
    for (int g = 0; g < group; ++g)
        row += 1 + int(lanesOf(g).size());
    const auto& lanes = lanesOf(group);
    const auto it = std::lower_bound(lanes.begin(), lanes.end(), lane);
    if (it == lanes.end() || *it != lane)
        return -1; // filtered out
    return row + 1 + int(it - lanes.begin());
}

} // namespace lifeline::ui
