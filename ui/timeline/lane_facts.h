// What a row of the timeline says at the run's now, in words: for a message, its name, queue, state, since when, its
// receives, who holds it and what happens next ("visible again in 23 s"); for a consumer, what it is doing. The
// accessible table reads its cells here, and the status bar tells the same words as a sentence (story()), so a
// screen reader and a sighted learner get one account of the lane.
#pragma once

#include "timeline/lane_model.h"
#include "timeline/row_layout.h"

#include <QString>
#include <array>

namespace lifeline::ui {

struct LaneFacts {
    enum Column { Name, Queue, State, Since, Receives, HeldBy, Next, ColumnCount };
    std::array<QString, ColumnCount> cells;
    // "order-1 in orders: in flight since 5s, received 1 time, held by worker-1, visible again in 25 s."
    QString story() const;
};

// The column headings: "Message", "Queue", "State", ...
QString factsHeading(LaneFacts::Column column);

// A message row's or a consumer row's facts (other rows, such as a queue's or a band's, have only a name).
LaneFacts rowFacts(const LaneModel& model, const RowRef& row);

} // namespace lifeline::ui
