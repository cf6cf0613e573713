// A lesson's long waits where nothing changes (idle polling, a 15-minute delay) pass faster: after two seconds of
// wall time in which no lane changed state the clock runs 4 times faster, a second later 16 times, and back to the
// lesson's pace at the first change, which is then shown at that pace. The spans passed faster are kept, so the time
// axis can say so ("16× faster" on the ruler).
#pragma once

#include "lifeline/run/run_view.h"
#include "timeline/timeline_frame.h"

#include <cstdint>
#include <vector>

namespace lifeline::ui {

class QuietWaits {
public:
    static constexpr int64_t kQuietBeforeFaster = 2000; // wall ms without a change before the clock speeds up
    static constexpr int64_t kFasterEvery = 1000; // and faster again after each such time
    static constexpr int kFactors[] = { 1, 4, 16 };

    // How much faster the next frame plays.
    int factor() const;
    // A frame of `wallMs` took the clock from `from` to `to` at `factor`; `changed`: a lane changed state in it.
    void noteFrame(TimeMs from, TimeMs to, int64_t wallMs, int factor, bool changed);
    // Back to the chosen speed: a pause, a user's action, a new run (`forget` also drops the spans: the axis restarts).
    void interrupt() { m_quietWallMs = 0; }
    void forget();
    const std::vector<FastSpan>& spans() const { return m_spans; }

    // Did a lane change state in the events the log gained since `seen` (which is moved to the log's end)?
    static bool changedSince(const RunView& run, size_t& seen);

private:
    int64_t m_quietWallMs = 0;
    std::vector<FastSpan> m_spans;
};

} // namespace lifeline::ui
