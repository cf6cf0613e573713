#include "timeline/overview_strip.h"

#include <QMouseEvent>
#include <QPainter>

namespace lifeline::ui {

OverviewStrip::OverviewStrip(QWidget* parent)
    : QWidget(parent)
{
    setFixedHeight(56);
    setToolTip(tr("Messages by state over the whole run (delayed, visible, in flight). Click or drag to go there."));
}

void OverviewStrip::setRun(const RunView* run)
{
    m_run = run;
    m_series.clear();
    sync();
}

void OverviewStrip::sync()
{
    if (m_run)
        m_series.sync(*m_run);
    // Painted again only when what it draws changed: a frame of an idle run changes nothing here.
    const Drawn drawn { m_series.eventsRead(), m_series.buckets().size(), m_series.bucketMs(), span() };
    if (drawn == m_drawn)
        return;
    m_drawn = drawn;
    update();
}

void OverviewStrip::setWindow(TimeMs from, TimeMs to)
{
    m_from = from;
    m_to = to;
    update();
}

void OverviewStrip::setTimelineStyle(const TimelineStyle& style)
{
    m_style = style;
    update();
}

TimeMs OverviewStrip::span() const
{
    // Past the run's end the strip grows a quarter at a time, not with every frame: each growth repaints it whole.
    const TimeMs now = m_run ? m_run->now() : 0;
    TimeMs span = std::max(m_runEnd, TimeMs(1000));
    while (span < now)
        span += std::max<TimeMs>(1000, span / 4);
    return span;
}

void OverviewStrip::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QRect area = rect().adjusted(m_style.labelWidth, 2, -1, -2);
    p.fillRect(rect(), m_style.groupBackground);
    p.fillRect(area, m_style.background);
    p.setPen(m_style.text);
    p.drawText(QRect(4, 0, m_style.labelWidth - 8, height()), Qt::AlignVCenter | Qt::AlignLeft, tr("Overview"));
    const auto& buckets = m_series.buckets();
    int32_t peak = 1;
    for (const auto& b : buckets)
        peak = std::max(peak, b.delayed + b.visible + b.inFlight);
    const double xPerMs = double(area.width()) / double(span());
    const double yPerMessage = double(area.height()) / double(peak);
    for (size_t i = 0; i < buckets.size(); ++i) {
        const auto& b = buckets[i];
        const double x0 = area.left() + double(TimeMs(i) * m_series.bucketMs()) * xPerMs;
        const double w = std::max(1.0, double(m_series.bucketMs()) * xPerMs);
        double y = area.bottom();
        const std::pair<int32_t, MessageState> layers[] = { { b.inFlight, MessageState::InFlight },
            { b.visible, MessageState::Visible }, { b.delayed, MessageState::Delayed } };
        for (const auto& [count, state] : layers) {
            const double h = count * yPerMessage;
            if (h > 0)
                p.fillRect(QRectF(x0, y - h, w, h), m_style.fill(state));
            y -= h;
        }
    }
    // The timeline's window.
    const double wx0 = area.left() + double(m_from) * xPerMs, wx1 = area.left() + double(m_to) * xPerMs;
    p.setPen(QPen(m_style.selection, 1));
    p.setBrush(QColor(128, 128, 128, 40));
    p.drawRect(QRectF(std::max<double>(wx0, area.left()), area.top(),
        std::max(2.0, std::min<double>(wx1, area.right()) - std::max<double>(wx0, area.left())), area.height()));
    p.setPen(m_style.text);
    p.drawText(area.adjusted(4, 0, -4, 0), Qt::AlignTop | Qt::AlignRight, tr("peak %1").arg(peak));
}

void OverviewStrip::mousePressEvent(QMouseEvent* event)
{
    mouseMoveEvent(event);
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* event)
{
    if (!(event->buttons() & Qt::LeftButton))
        return;
    const QRect area = rect().adjusted(m_style.labelWidth, 2, -1, -2);
    const double fraction = std::clamp((event->position().x() - area.left()) / std::max(1, area.width()), 0.0, 1.0);
    emit timeRequested(TimeMs(fraction * double(span())));
}

} // namespace lifeline::ui
