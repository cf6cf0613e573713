// Two charts under the timeline: queue depth by state (visible, in flight, delayed, in DLQs) and activity (empty
// receives and duplicate processing per bucket). Read from the log incrementally by DepthSeries, which keeps at
// most ~500 buckets (each keeping its peak), and handed to the charts as one bulk replace per update.
#pragma once

#include "depth_chart.h"
#include "lifeline/depth_series.h"

#include <QWidget>

namespace lifeline::ui {

class ChartsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(QWidget* parent = nullptr);

    void setEngine(const Engine* engine);
    void sync(); // reads what is new and redraws
    void setTimeRange(TimeMs from, TimeMs to);
    void setHighlight(TimeMs from, TimeMs to);
    void setDark(bool dark);

    const DepthSeries& series() const { return m_series; }
    DepthChart* depthChart() const { return m_depth; }
    DepthChart* activityChart() const { return m_activity; }

private:
    const Engine* m_engine = nullptr;
    DepthSeries m_series { 500, 100 };
    DepthChart* m_depth;
    DepthChart* m_activity;
    size_t m_drawnEvents = SIZE_MAX;
};

} // namespace lifeline::ui
