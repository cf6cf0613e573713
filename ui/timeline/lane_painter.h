// Paints the rows about messages: a message's lane (its state segments, end cap and marks) and a queue's group row
// (refused requests, operator actions and warnings as badges).
#pragma once

#include "timeline/lane_model.h"
#include "timeline/segment_words.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <array>
#include <optional>

namespace lifeline::ui {

// Segments narrower than this merge into one counted block; actor bars of this width or less merge into runs.
inline constexpr double kMinSegmentPixels = 3.0;

// What a lane marks at an event: a heartbeat extending its visibility (◆), the consumer holding it crashed (✕), a
// second processing of it (2×), its move to the DLQ (➜), a receive by a crashed consumer (⊘).
enum class LaneMarkKind { Extended, Crash, Duplicate, DeadLetter, ReceivedByNobody };
inline constexpr std::array kLaneMarkKinds { LaneMarkKind::Extended, LaneMarkKind::Crash, LaneMarkKind::Duplicate,
    LaneMarkKind::DeadLetter, LaneMarkKind::ReceivedByNobody };
std::optional<LaneMarkKind> laneMarkAt(const Event& e);
QString laneMarkGlyph(LaneMarkKind kind);
QColor laneMarkColor(LaneMarkKind kind, const TimelineStyle& style);

void paintMessageRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, MessageIndex lane);
void paintQueueRow(QPainter& p, const QRect& row, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue);

} // namespace lifeline::ui
