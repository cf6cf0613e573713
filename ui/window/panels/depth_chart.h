// A chart of a few series over virtual time: the small interface the window draws its charts through, so the chart
// library behind it (Qt Charts today, see qt_depth_chart.cpp) can change without touching anything else.
// Series are replaced whole (one call per update, never point by point); callers downsample first.
#pragma once

#include "lifeline/run/event_log.h"

#include <QColor>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <vector>

namespace lifeline::ui {

struct ChartSeries {
    QString name;
    QColor colour;
    std::vector<QPointF> points; // x in virtual seconds, y a count
};

class DepthChart : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Same names in the same order as last time: the series are updated in place (a bulk replace each).
    virtual void setSeries(const std::vector<ChartSeries>& series) = 0;
    virtual void setTimeRange(TimeMs from, TimeMs to) = 0; // in step with the timeline's visible window
    virtual void setHighlight(TimeMs from, TimeMs to)
        = 0; // a shaded band (the selected message's life); from > to: none
    virtual void setDark(bool dark) = 0;
    virtual void setTitle(const QString& title) = 0;
    // What the chart draws now, for tests: per series, its point count.
    virtual std::vector<size_t> pointCounts() const = 0;
    virtual std::vector<QPointF> points(size_t series) const = 0;
    virtual double timeTickInterval() const = 0; // seconds between the time axis's labels
};

DepthChart* createDepthChart(QWidget* parent);

} // namespace lifeline::ui
