// Paints the rows about messages: a message's lane (its state segments, end cap and marks) and a queue's group row
// (refused requests, operator actions and warnings as badges).
#pragma once

#include "lifeline/picture/lane_segments.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>

namespace lifeline::ui {

// Segments narrower than this merge into one counted block; actor bars of this width or less merge into runs.
inline constexpr double kMinSegmentPixels = 3.0;

// A lane mark's colour (core's picture_words.h says which marks there are, at which events, and their glyphs): the
// window's, the images' and, through its palette, the web page's.
QColor laneMarkColor(picture::LaneMark mark, const TimelineStyle& style);

// A state's colour as words on the view's background (a lane's countdown): darkened, or in a dark theme lightened,
// until it reads at 4.5:1.
QColor stateInk(MessageState state, const TimelineStyle& style);

void paintMessageRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, MessageIndex lane);
void paintQueueRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue);

} // namespace lifeline::ui
