// What is under the mouse on a row, for the tooltip: a message lane's segment and its cause, a queue row's refusal
// or operator note, an actor's work (a message's processing or a Lambda invocation's batch).
#pragma once

#include "lifeline/timeline/time_axis.h"
#include "timeline/lane_model.h"
#include "timeline/row_layout.h"

#include <optional>

namespace lifeline::ui {

struct TimelineHit {
    RowRef row;
    TimeMs from = 0, to = 0;
    MessageState state = MessageState::None;
    QString text;
};

// `axis` has its left edge where the lanes begin; `x` is the mouse's position on it.
std::optional<TimelineHit> hitRow(const LaneModel& model, const RowRef& row, const TimeAxis& axis, TimeMs now, int x);

} // namespace lifeline::ui
