#include "charts_panel.h"

#include "timeline_style.h"

#include <QHBoxLayout>

namespace lifeline::ui {

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent)
    , m_depth(createDepthChart(this))
    , m_activity(createDepthChart(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_depth, 3);
    layout->addWidget(m_activity, 2);
    m_depth->setTitle(tr("Queue depth (peak per bucket)"));
    m_activity->setTitle(tr("Empty receives and duplicates (per bucket)"));
    setMinimumHeight(160);
}

void ChartsPanel::setSource(const Engine* engine, const DepthSeries* series)
{
    m_engine = engine;
    m_series = series;
    m_drawnEvents = SIZE_MAX;
    sync();
}

void ChartsPanel::sync()
{
    if (!m_engine || !m_series)
        return;
    if (m_drawnEvents == m_engine->log().size())
        return; // nothing new: no redraw
    m_drawnEvents = m_engine->log().size();
    const auto& buckets = m_series->buckets();
    const double step = double(m_series->bucketMs()) / 1000.0;
    const TimelineStyle style = TimelineStyle::light();
    std::vector<ChartSeries> depth {
        { tr("visible"), style.stateColor[size_t(MessageState::Visible)], {} },
        { tr("in flight"), style.stateColor[size_t(MessageState::InFlight)], {} },
        { tr("delayed"), style.stateColor[size_t(MessageState::Delayed)], {} },
        { tr("in DLQs"), style.stateColor[size_t(MessageState::DeadLettered)], {} },
    };
    std::vector<ChartSeries> activity {
        { tr("empty receives"), style.polling, {} },
        { tr("duplicates"), style.duplicate, {} },
    };
    for (auto& s : depth)
        s.points.reserve(buckets.size());
    for (auto& s : activity)
        s.points.reserve(buckets.size());
    for (size_t i = 0; i < buckets.size(); ++i) {
        const double x = double(i) * step;
        const auto& b = buckets[i];
        depth[0].points.emplace_back(x, b.visible);
        depth[1].points.emplace_back(x, b.inFlight);
        depth[2].points.emplace_back(x, b.delayed);
        depth[3].points.emplace_back(x, b.deadLetter);
        activity[0].points.emplace_back(x, b.emptyReceives);
        activity[1].points.emplace_back(x, b.duplicates);
    }
    m_depth->setSeries(depth);
    m_activity->setSeries(activity);
}

void ChartsPanel::setTimeRange(TimeMs from, TimeMs to)
{
    m_depth->setTimeRange(from, to);
    m_activity->setTimeRange(from, to);
}

void ChartsPanel::setHighlight(TimeMs from, TimeMs to)
{
    m_depth->setHighlight(from, to);
    m_activity->setHighlight(from, to);
}

void ChartsPanel::setDark(bool dark)
{
    m_depth->setDark(dark);
    m_activity->setDark(dark);
}

} // namespace lifeline::ui
