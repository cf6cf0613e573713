// Paints density bands, the timeline's rows when lanes are too many to read: a queue's messages by state over time
// (delayed, visible, in flight stacked in the lanes' colours, scaled to the most the window shows, with a strip
// under them of what ended: deleted, or dead-lettered and expired in their colours when there were any) and a
// consumer group's share of its consumers polling and working. One column of pixels reads the density buckets it
// covers, so a band costs the same at any zoom; the hover says the counts.
#pragma once

#include "timeline/lane_model.h"
#include "timeline/timeline_frame.h"
#include "timeline/timeline_style.h"

#include <QPainter>
#include <QRect>
#include <vector>

namespace lifeline::ui {

// One pixel column of a queue's band: the levels at the column's end, what ended within it.
struct BandColumn {
    bool known = false; // false past "now", where there is nothing yet
    int32_t delayed = 0, visible = 0, inFlight = 0;
    int32_t sent = 0, deleted = 0, deadLettered = 0, expired = 0;
    int32_t live() const { return delayed + visible + inFlight; }
};
// Levels: the mean of the bucket ends in [from, to) (one bucket: the engine's counts at its end); flows: their sum.
BandColumn queueBandColumn(const DensitySeries& density, QueueIndex queue, TimeMs from, TimeMs to);

// The columns counted from the lanes themselves (each lane's segments over the columns whose start they cover):
// exact at any zoom, used when the buckets are coarser than the pixels and the queue lists few enough lanes.
inline constexpr size_t kLaneColumnsUpTo = 20000;
std::vector<BandColumn> laneColumns(
    const LaneModel& model, const LaneModel::Lanes& lanes, const TimeAxis& axis, int x0, int x1, TimeMs now);

// Returns the count the band's height stands for (the most the window shows), for its label. `listed`: the
// queue's lanes in the rows (those alive in view), counted themselves when zoomed in past the buckets.
int32_t paintQueueBand(QPainter& p, const QRect& band, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, QueueIndex queue, const LaneModel::Lanes* listed = nullptr);
void paintActorBand(QPainter& p, const QRect& band, const TimelineFrame& frame, const LaneModel& model,
    const TimelineStyle& style, size_t group);

// The hover: the counts at the instant under the mouse.
QString queueBandText(const LaneModel& model, QueueIndex queue, TimeMs at);
QString actorBandText(const LaneModel& model, size_t group, TimeMs at);

} // namespace lifeline::ui
