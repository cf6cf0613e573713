// A message's whole history, for the details panel: every event of its lane (and of the lane it continues, when
// it arrived in a DLQ) with time, transition, cause and who did it.
#pragma once

#include "lifeline/timeline/lane_index.h"

#include <QString>
#include <vector>

namespace lifeline::ui {

struct HistoryEntry {
    TimeMs time = 0;
    QueueIndex queue = kNoQueue;
    MessageState from = MessageState::None;
    MessageState to = MessageState::None;
    Cause cause = Cause::Send;
    uint32_t actor = 0;
    QString text; // "receive #2 by worker-2", "visibility extended to 10 s", ...
};

std::vector<HistoryEntry> laneHistory(const RunView& run, const LaneIndex& index, MessageIndex lane);

// The times of a lane's events, for `.` and `,` (next and previous event).
std::vector<TimeMs> laneEventTimes(const RunView& run, const LaneIndex& index, MessageIndex lane);

} // namespace lifeline::ui
