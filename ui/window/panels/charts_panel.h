// Two charts under the timeline: queue depth by state (visible, in flight, delayed, in DLQs) and activity (empty
// receives and duplicate processing per bucket). Drawn from a DepthSeries (the overview's: one read of the log for
// both), which keeps at most ~500 buckets (each keeping its peak), handed to the charts as one bulk replace: only the
// buckets in the time range shown (and one either side, so the lines run to the edges). Qt Charts strokes a line's
// every point, shown or not: a quarter of the run in view was four times the painting (3 ms a frame at 100x).
//
// A run whose queue is shared by tenants (TenantSeries: two senders, or MessageGroupIds on a standard queue) shows,
// in place of the activity chart, each tenant's dwell (its oldest message not yet received: what a fair queue
// protects) and the fair queue's CloudWatch metrics (noisy groups; visible, in flight and delayed in quiet groups).
#pragma once

#include "lifeline/timeline/depth_series.h"
#include "lifeline/timeline/tenant_series.h"
#include "window/panels/depth_chart.h"

#include <QWidget>

namespace lifeline::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    // The series is read (synced) by its owner; the panel redraws from it when the log has grown.
    void setSource(const RunView* run, const DepthSeries* series);
    void sync();
    void setTimeRange(TimeMs from, TimeMs to);
    void setHighlight(TimeMs from, TimeMs to);
    std::pair<TimeMs, TimeMs> highlight() const { return m_highlight; } // from > to: none
    void setDark(bool dark);

    const DepthSeries& series() const { return *m_series; }
    DepthChart* depthChart() const { return m_depth; }
    DepthChart* activityChart() const { return m_activity; }
    DepthChart* dwellChart() const { return m_dwell; }
    DepthChart* fairChart() const { return m_fair; }
    const TenantSeries& tenants() const { return m_tenants; }

private:
    void drawTenants(size_t first, size_t end);

    const RunView* m_run = nullptr;
    const DepthSeries* m_series = nullptr;
    DepthChart* m_depth;
    DepthChart* m_activity;
    DepthChart* m_dwell;
    DepthChart* m_fair;
    TenantSeries m_tenants; // read here: only these charts need it
    size_t m_drawnEvents = SIZE_MAX; // the log's size when last drawn
    size_t m_drawnRead = SIZE_MAX; // and how much of it the series had read (its owner may sync it later)
    TimeMs m_drawnAt = 0;
    TimeMs m_from = 0; // the time range shown
    TimeMs m_to = INT64_MAX;
    std::pair<TimeMs, TimeMs> m_highlight { 1, 0 };
};

} // namespace lifeline::ui
