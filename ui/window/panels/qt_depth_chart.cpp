// DepthChart on Qt Charts: one QLineSeries per series (replaced whole), a shaded QAreaSeries for the highlight.
#include "window/panels/depth_chart.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QResizeEvent>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

namespace lifeline::ui {

namespace {

class QtDepthChart final : public DepthChart {
public:
    explicit QtDepthChart(QWidget* parent)
        : DepthChart(parent)
        , m_chart(new QChart)
        , m_view(new QChartView(m_chart, this))
        , m_x(new QValueAxis(this))
        , m_y(new QValueAxis(this))
        , m_bandUpper(new QLineSeries(this))
        , m_band(new QAreaSeries(m_bandUpper))
    {
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(m_view);
        m_view->setRenderHint(QPainter::Antialiasing);
        // One repaint of the whole chart per update: the minimal regions Qt Charts asks for by default cost more
        // to clip antialiased lines to than the chart does to draw (docs/decisions.md).
        m_view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
        m_chart->legend()->setAlignment(Qt::AlignRight);
        m_chart->setMargins(QMargins(4, 2, 4, 2));
        m_chart->layout()->setContentsMargins(0, 0, 0, 0);
        m_chart->setBackgroundRoundness(0);
        m_x->setTitleText(tr("virtual seconds"));
        m_x->setLabelFormat(QStringLiteral("%g"));
        m_y->setLabelFormat(QStringLiteral("%g"));
        // Ticks on round numbers from 0, whatever the range (the default splits the range in four).
        for (QValueAxis* axis : { m_x, m_y }) {
            axis->setTickType(QValueAxis::TicksDynamic);
            axis->setTickAnchor(0);
        }
        m_y->setMin(0);
        m_chart->addAxis(m_x, Qt::AlignBottom);
        m_chart->addAxis(m_y, Qt::AlignLeft);
        m_band->setName(tr("selected"));
        m_band->setPen(Qt::NoPen);
        m_chart->addSeries(m_band);
        m_band->attachAxis(m_x);
        m_band->attachAxis(m_y);
        m_chart->legend()->markers(m_band).first()->setVisible(false);
        setDark(false);
    }

    void setSeries(const std::vector<ChartSeries>& series) override
    {
        bool rebuilt = false;
        if (series.size() != m_lines.size()) {
            for (auto* line : m_lines) {
                m_chart->removeSeries(line);
                delete line;
            }
            m_lines.clear();
            for (const auto& s : series) {
                auto* line = new QLineSeries(this);
                line->setName(s.name);
                m_chart->addSeries(line); // applies the theme's colours: ours go on after
                line->setPen(QPen(s.colour, 1.6));
                line->attachAxis(m_x);
                line->attachAxis(m_y);
                m_lines.push_back(line);
            }
            rebuilt = true;
        }
        double peak = 1;
        for (size_t i = 0; i < series.size(); ++i) {
            QList<QPointF> points(series[i].points.begin(), series[i].points.end());
            for (const auto& p : series[i].points)
                peak = std::max(peak, p.y());
            m_lines[i]->replace(points); // one bulk update, one repaint
            if (!rebuilt && m_lines[i]->name() != series[i].name)
                m_lines[i]->setName(series[i].name);
        }
        const double top = niceCeiling(peak * 1.1);
        if (top != m_y->max()) {
            m_y->setMax(top);
            m_y->setTickInterval(std::max(1.0, niceCeiling(top / 5)));
        }
        updateBand();
    }

    void setTimeRange(TimeMs from, TimeMs to) override
    {
        if (to <= from)
            to = from + 1000;
        m_x->setRange(double(from) / 1000.0, double(to) / 1000.0);
        spaceTimeTicks();
    }

    void setHighlight(TimeMs from, TimeMs to) override
    {
        m_highlightFrom = from;
        m_highlightTo = to;
        updateBand();
    }

    void setDark(bool dark) override
    {
        m_chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
        const QColor background = dark ? QColor(0x1E, 0x1F, 0x22) : QColor(Qt::white);
        m_chart->setBackgroundBrush(background);
        m_view->setBackgroundBrush(background);
        m_band->setBrush(dark ? QColor(255, 255, 255, 40) : QColor(0, 0, 0, 28));
        m_band->setPen(Qt::NoPen);
        // The theme resets series pens: give the lines their colours back.
        for (size_t i = 0; i < m_lines.size() && i < m_colours.size(); ++i)
            m_lines[i]->setPen(QPen(m_colours[i], 1.6));
    }

    void setTitle(const QString& title) override { m_chart->setTitle(title); }

    std::vector<size_t> pointCounts() const override
    {
        std::vector<size_t> counts;
        for (const auto* line : m_lines)
            counts.push_back(size_t(line->count()));
        return counts;
    }

    std::vector<QPointF> points(size_t series) const override
    {
        if (series >= m_lines.size())
            return {};
        const QList<QPointF> shown = m_lines[series]->points();
        return { shown.begin(), shown.end() };
    }

    double timeTickInterval() const override { return m_x->tickInterval(); }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        DepthChart::resizeEvent(event);
        spaceTimeTicks();
    }

private:
    // A label every 70 px at most: closer, Qt Charts cuts them to "1…" (a narrow chart, a wide range).
    void spaceTimeTicks()
    {
        const double seconds = m_x->max() - m_x->min();
        const double plotWidth = std::max(140.0, double(width()) * 0.6); // the legend takes the rest
        m_x->setTickInterval(niceCeiling(seconds / std::clamp(plotWidth / 70.0, 2.0, 8.0)));
    }

    static double niceCeiling(double value)
    {
        double step = 1;
        while (step * 10 < value)
            step *= 10;
        while (step > value && step > 1e-3)
            step /= 10;
        for (double m : { 1.0, 2.0, 5.0, 10.0 })
            if (m * step >= value)
                return m * step;
        return value;
    }

    void updateBand()
    {
        // Keep the pens' colours for setDark.
        m_colours.clear();
        for (const auto* line : m_lines)
            m_colours.push_back(line->pen().color());
        if (m_highlightFrom > m_highlightTo) {
            m_bandUpper->clear();
            return;
        }
        const double top = m_y->max();
        m_bandUpper->replace(QList<QPointF> {
            QPointF(double(m_highlightFrom) / 1000.0, top), QPointF(double(m_highlightTo) / 1000.0, top) });
    }

    QChart* m_chart;
    QChartView* m_view;
    QValueAxis* m_x;
    QValueAxis* m_y;
    QLineSeries* m_bandUpper;
    QAreaSeries* m_band;
    std::vector<QLineSeries*> m_lines;
    std::vector<QColor> m_colours;
    TimeMs m_highlightFrom = 1;
    TimeMs m_highlightTo = 0;
};

} // namespace

DepthChart* createDepthChart(QWidget* parent)
{
    return new QtDepthChart(parent);
}

} // namespace lifeline::ui
