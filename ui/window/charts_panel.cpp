#include "window/charts_panel.h"

#include "timeline/timeline_style.h"

#include <QHBoxLayout>
#include <algorithm>

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
    setMinimumHeight(150); // its axes still read; a 1024x700 screen keeps the timeline readable above it
}

void ChartsPanel::setSource(const RunView* engine, const DepthSeries* series)
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
    // Redraw when something happened, or when "now" moved a bucket on (the lines reach up to now).
    // Or when "now", where the lines end, moved on a bucket inside the time shown (past it, nothing drawn moves).
    const bool nowShown = std::min(m_drawnAt, m_engine->now()) <= m_to + m_series->bucketMs();
    if (m_drawnEvents == m_engine->log().size() && m_drawnRead == m_series->eventsRead()
        && (m_engine->now() - m_drawnAt < m_series->bucketMs() || !nowShown))
        return;
    m_drawnEvents = m_engine->log().size();
    m_drawnRead = m_series->eventsRead();
    m_drawnAt = m_engine->now();
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
    const TimeMs bucketMs = m_series->bucketMs();
    const size_t first = size_t(std::max<TimeMs>(0, m_from / bucketMs - 1));
    const size_t end = std::min(buckets.size(), size_t(std::max<TimeMs>(0, m_to / bucketMs + 2)));
    for (auto& s : depth)
        s.points.reserve(2 * (end - std::min(first, end)) + 1);
    for (auto& s : activity)
        s.points.reserve(2 * (end - std::min(first, end)));
    // Steps: a bucket's value holds across the whole bucket (at the time it happened, under the timeline's instant),
    // never a slope from one bucket's start to the next.
    const double now = double(m_engine->now()) / 1000.0;
    const auto level = [](ChartSeries& s, double from, double to, double value) {
        s.points.emplace_back(from, value);
        s.points.emplace_back(to, value);
    };
    for (size_t i = first; i < end; ++i) {
        const double x = double(i) * step, x1 = std::min(double(i + 1) * step, std::max(x, now));
        const auto& b = buckets[i];
        level(depth[0], x, x1, b.visible);
        level(depth[1], x, x1, b.inFlight);
        level(depth[2], x, x1, b.delayed);
        level(depth[3], x, x1, b.deadLetter);
        level(activity[0], x, x1, b.emptyReceives);
        level(activity[1], x, x1, b.duplicates);
    }
    // The depth holds from the last event until now.
    if (!buckets.empty() && end == buckets.size() && now > double(buckets.size()) * step) {
        const DepthSample last = m_series->current();
        depth[0].points.emplace_back(now, last.visible);
        depth[1].points.emplace_back(now, last.inFlight);
        depth[2].points.emplace_back(now, last.delayed);
        depth[3].points.emplace_back(now, last.deadLetter);
    }
    m_depth->setSeries(depth);
    m_activity->setSeries(activity);
}

void ChartsPanel::setTimeRange(TimeMs from, TimeMs to)
{
    m_depth->setTimeRange(from, to);
    m_activity->setTimeRange(from, to);
    if (from == m_from && to == m_to)
        return;
    m_from = from;
    m_to = to;
    m_drawnEvents = SIZE_MAX; // other buckets are in view
    sync();
}

void ChartsPanel::setHighlight(TimeMs from, TimeMs to)
{
    m_highlight = { from, to };
    m_depth->setHighlight(from, to);
    m_activity->setHighlight(from, to);
}

void ChartsPanel::setDark(bool dark)
{
    m_depth->setDark(dark);
    m_activity->setDark(dark);
}

} // namespace lifeline::ui
