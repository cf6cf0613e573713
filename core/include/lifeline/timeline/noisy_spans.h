#pragma once
// Fair queues on the timeline: when each tenant of a queue was noisy, read from the TenantNoisy and TenantQuiet notes
// the lane index keeps per queue. The queue's row draws them as bands, its hover names them, tests read them.
#include "lifeline/run/run_view.h"
#include "lifeline/timeline/lane_index.h"

#include <string>
#include <vector>

namespace lifeline {

struct NoisySpan {
    std::string tenant; // its MessageGroupId
    TimeMs from = 0; // when it turned noisy (the held history's start when that was forgotten)
    TimeMs to = 0; // when it was quiet again, or `now` while it still is noisy
    bool open = false; // still noisy at `now`
    int slot = 0; // 0, 1, ...: its place among the spans that overlap it, for drawing them one above another
};

// The queue's noisy spans in the order they began.
std::vector<NoisySpan> noisySpans(const RunView& run, const LaneIndex& index, QueueIndex queue, TimeMs now);

} // namespace lifeline
