// The overview over the whole run: how many messages are delayed, visible and in flight over time (stacked),
// so even a million lanes read at a glance, with the timeline's current window marked. Click or drag to move the
// timeline there.
#pragma once

#include "lifeline/timeline/depth_series.h"
#include "timeline/timeline_style.h"

#include <QWidget>
#include <functional>

namespace lifeline::ui {

class OverviewStrip : public QWidget {
    Q_OBJECT
public:
    explicit OverviewStrip(QWidget* parent = nullptr);

    void setRun(const RunView* run);
    void sync(); // reads what is new
    void setWindow(TimeMs from, TimeMs to); // the timeline's visible range
    void setRunEnd(TimeMs end) { m_runEnd = end; }
    void setTimelineStyle(const TimelineStyle& style);
    const DepthSeries& series() const { return m_series; }
    TimeMs span() const;

signals:
    void timeRequested(lifeline::TimeMs centre);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    const RunView* m_run = nullptr;
    DepthSeries m_series { 512, 100 };
    TimelineStyle m_style = TimelineStyle::light();
    TimeMs m_from = 0, m_to = 0, m_runEnd = 0;
    struct Drawn {
        size_t events = 0, buckets = 0;
        TimeMs bucketMs = 0, span = 0;
        bool operator==(const Drawn&) const = default;
    } m_drawn;
};

} // namespace lifeline::ui
