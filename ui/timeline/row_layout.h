// Which rows the timeline shows, in which order: each queue's group row and its message lanes (those the filter
// lets through), then the actors' group and one row per actor. Maps a flat row number to what it shows and back.
#pragma once

#include "timeline/lane_model.h"

#include <QString>
#include <vector>

namespace lifeline::ui {

struct RowRef {
    LaneModel::RowKind kind = LaneModel::QueueGroup;
    int group = 0; // queue group (for QueueGroup / MessageRow)
    uint32_t id = 0; // lane (MessageRow) or actor (ActorRow)
};

// Which message lanes to show: by text (MessageId prefix, body, FIFO group, or a consumer's name: the messages it
// worked on) and by state.
struct LaneFilter {
    enum class State { All, Live, InFlight, Ended, DeadLettered, Duplicates };
    QString text;
    State state = State::All;
    bool active() const { return !text.isEmpty() || state != State::All; }
};

class RowLayout {
public:
    explicit RowLayout(const LaneModel& model);

    void setFilter(const LaneFilter& filter);
    const LaneFilter& filter() const { return m_filter; }
    void refreshFilter(); // re-evaluates the filter over the lanes as they are now (new lanes, new states)
    size_t shownLanes() const;

    int totalRows() const;
    RowRef rowAt(int flatRow) const;
    int rowOfLane(MessageIndex lane) const; // -1 when not shown
    int rowOfQueue(QueueIndex queue) const; // its group row; -1 when there is none
    int rowOfActor(uint32_t actor) const; // -1 when not shown

private:
    const LaneModel::Lanes& lanesOf(int group) const;
    bool matches(MessageIndex lane, const std::vector<bool>& workedOnByNamedActor) const;

    const LaneModel& m_model;
    LaneFilter m_filter;
    std::vector<LaneModel::Lanes> m_filtered; // per group, while a filter is active
};

} // namespace lifeline::ui
