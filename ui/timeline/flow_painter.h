// A selected message's flows (as Perfetto draws flows between slices): an arrow from each receive on the consumer's
// row up (or down) to the message's lane at that instant, and the consumer work boxes that held the message
// outlined in the selection colour.
#pragma once

#include "timeline/lane_model.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <functional>

namespace lifeline::ui {

// `laneRow`: the selected lane's row box; `actorRow(actor)`: an actor's row box, or a null rect when not shown.
void paintFlows(QPainter& p, const QRect& lanes, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, const QRect& laneRow, const std::function<QRect(uint32_t)>& actorRow);

} // namespace lifeline::ui
