#include "window/panels/charts_panel.h"

#include "timeline/timeline_style.h"

#include <QHBoxLayout>
#include <algorithm>
#include <array>
#include <cmath>

namespace lifeline::ui {

ChartsPanel::ChartsPanel(QWidget* parent)
    : QWidget(parent)
    , m_depth(createDepthChart(this))
    , m_activity(createDepthChart(this))
    , m_dwell(createDepthChart(this))
    , m_fair(createDepthChart(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_depth, 3);
    layout->addWidget(m_activity, 2);
    layout->addWidget(m_dwell, 2);
    layout->addWidget(m_fair, 2);
    m_depth->setTitle(tr("Queue depth (peak per bucket)"));
    // The exam asks for the CloudWatch names: each line says which metric it is (CloudWatch samples once a minute).
    m_depth->setToolTip(
        tr("As CloudWatch names them: visible is ApproximateNumberOfMessagesVisible, in flight "
           "ApproximateNumberOfMessagesNotVisible, delayed ApproximateNumberOfMessagesDelayed. In DLQs: "
           "the messages the redrive policy moved, which the dead-letter queue's "
           "ApproximateNumberOfMessagesVisible counts until they are received there (its "
           "NumberOfMessagesSent does not: alarm on the visible count). CloudWatch samples once a "
           "minute; these lines take the peak of each bucket."));
    m_activity->setToolTip(tr("Empty receives is CloudWatch's NumberOfEmptyReceives. Duplicates has no CloudWatch "
                              "metric: it is a message worked on again while or after another consumer had it. "
                              "Faults injected (a run with a faults plan only): SQS's own faults put in on purpose, "
                              "a duplicate delivery's copy and each refused or sampled call."));
    m_dwell->setTitle(tr("Dwell per tenant (s)"));
    m_dwell->setToolTip(tr("Per tenant, how long its oldest message not yet received has waited since its send: a "
                           "message's dwell up to its first receive, climbing while it waits"));
    m_fair->setToolTip(tr("A standard queue whose messages carry MessageGroupIds is a fair queue. CloudWatch's "
                          "ApproximateNumberOfNoisyGroups, and the messages visible, in flight and delayed in quiet "
                          "groups (all but the noisy groups')"));
    m_dwell->hide();
    m_fair->hide();
    setMinimumHeight(150); // its axes still read; a 1024x700 screen keeps the timeline readable above it
}

void ChartsPanel::setSource(const RunView* run, const DepthSeries* series)
{
    m_run = run;
    m_series = series;
    m_tenants.clear();
    m_drawnEvents = SIZE_MAX;
    sync();
}

void ChartsPanel::sync()
{
    if (!m_run || !m_series)
        return;
    // Redraw when something happened, or when "now" moved a bucket on (the lines reach up to now).
    // Or when "now", where the lines end, moved on a bucket inside the time shown (past it, nothing drawn moves).
    const bool nowShown = std::min(m_drawnAt, m_run->now()) <= m_to + m_series->bucketMs();
    if (m_drawnEvents == m_run->log().size() && m_drawnRead == m_series->eventsRead()
        && (m_run->now() - m_drawnAt < m_series->bucketMs() || !nowShown))
        return;
    m_drawnEvents = m_run->log().size();
    m_drawnRead = m_series->eventsRead();
    m_drawnAt = m_run->now();
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
        { tr("faults injected"), style.failed, {} },
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
    const double now = double(m_run->now()) / 1000.0;
    const auto level = [](ChartSeries& s, double from, double to, double value) {
        s.points.emplace_back(from, value);
        s.points.emplace_back(to, value);
    };
    // SQS's own faults are a line only in a run that injects some (docs/faults.md): the others keep two.
    const bool faults = std::ranges::any_of(buckets, [](const DepthSample& b) { return b.faults > 0; });
    for (size_t i = first; i < end; ++i) {
        const double x = double(i) * step, x1 = std::min(double(i + 1) * step, std::max(x, now));
        const auto& b = buckets[i];
        level(depth[0], x, x1, b.visible);
        level(depth[1], x, x1, b.inFlight);
        level(depth[2], x, x1, b.delayed);
        level(depth[3], x, x1, b.deadLetter);
        level(activity[0], x, x1, b.emptyReceives);
        level(activity[1], x, x1, b.duplicates);
        level(activity[2], x, x1, b.faults);
    }
    if (!faults)
        activity.pop_back();
    m_activity->setTitle(faults ? tr("Empty receives, duplicates and injected faults (per bucket)")
                                : tr("Empty receives and duplicates (per bucket)"));
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
    drawTenants(first, end);
}

void ChartsPanel::drawTenants(size_t first, size_t end)
{
    m_tenants.sync(*m_run);
    const bool shared = m_tenants.shared();
    m_activity->setVisible(!shared);
    m_dwell->setVisible(shared);
    m_fair->setVisible(shared);
    if (!shared)
        return;
    // Okabe and Ito's colours, told apart with any colour vision: one per tenant line.
    static const std::array<QColor, TenantSeries::kTenantLines + 1> kTenantColours { QColor(0x00, 0x72, 0xb2),
        QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7), QColor(0xd5, 0x5e, 0x00),
        QColor(0x99, 0x99, 0x99) };
    const TimelineStyle style = TimelineStyle::light();
    std::vector<ChartSeries> dwell;
    for (size_t line = 0; line < m_tenants.dwellNames().size(); ++line)
        dwell.push_back({ QString::fromStdString(m_tenants.dwellNames()[line]), kTenantColours[line], {} });
    std::vector<ChartSeries> fair {
        { tr("noisy groups"), style.failed, {} },
        { tr("quiet: visible"), style.stateColor[size_t(MessageState::Visible)], {} },
        { tr("quiet: in flight"), style.stateColor[size_t(MessageState::InFlight)], {} },
        { tr("quiet: delayed"), style.stateColor[size_t(MessageState::Delayed)], {} },
    };
    const double step = double(m_tenants.bucketMs()) / 1000.0;
    const double now = double(m_run->now()) / 1000.0;
    const size_t buckets = m_tenants.buckets().size();
    // The depth chart's range of buckets, in this series' own (it may have merged at another time).
    const size_t from
        = std::min(buckets, size_t(double(first) * double(m_series->bucketMs()) / double(m_tenants.bucketMs())));
    const size_t to = std::min(
        buckets, size_t(std::ceil(double(end) * double(m_series->bucketMs()) / double(m_tenants.bucketMs()))) + 1);
    for (size_t i = from; i < to; ++i) {
        const double x = double(i) * step, x1 = std::min(double(i + 1) * step, std::max(x, now));
        for (size_t line = 0; line < dwell.size(); ++line) {
            const int32_t ms = m_tenants.dwell()[line][i];
            // No message waiting: the line drops to 0 (it waited nothing), as CloudWatch's age does.
            const double seconds = ms == TenantSeries::kNoDwell ? 0.0 : double(ms) / 1000.0;
            dwell[line].points.emplace_back(x, seconds);
            dwell[line].points.emplace_back(x1, seconds);
        }
        const TenantSample& b = m_tenants.buckets()[i];
        const int32_t values[] { b.noisyGroups, b.quietVisible, b.quietInFlight, b.quietDelayed };
        for (size_t k = 0; k < fair.size(); ++k) {
            fair[k].points.emplace_back(x, values[k]);
            fair[k].points.emplace_back(x1, values[k]);
        }
    }
    m_dwell->setSeries(dwell);
    m_fair->setSeries(fair);
    // The count of noisy groups is small beside the messages: the title says it as it is now.
    const int32_t noisy = m_tenants.current().noisyGroups;
    if (!m_tenants.fair())
        m_fair->setTitle(tr("Fair queue: none"));
    else
        m_fair->setTitle(
            noisy == 1 ? tr("Fair queue: 1 noisy group now") : tr("Fair queue: %1 noisy groups now").arg(noisy));
}

void ChartsPanel::setTimeRange(TimeMs from, TimeMs to)
{
    for (DepthChart* chart : { m_depth, m_activity, m_dwell, m_fair })
        chart->setTimeRange(from, to);
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
    for (DepthChart* chart : { m_depth, m_activity, m_dwell, m_fair })
        chart->setHighlight(from, to);
}

void ChartsPanel::setDark(bool dark)
{
    for (DepthChart* chart : { m_depth, m_activity, m_dwell, m_fair })
        chart->setDark(dark);
}

} // namespace lifeline::ui
