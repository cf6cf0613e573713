#include "window/panels/comparison_pane.h"

#include "export/image_export.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QTimer>
#include <QVBoxLayout>

namespace lifeline::ui {

ComparisonPane::ComparisonPane(
    const scenario::Scenario& asWritten, const scenario::Scenario& fixed, bool dark, QWidget* parent)
    : QWidget(parent)
    , m_claim(new QLabel(this))
{
    setObjectName(QStringLiteral("comparisonPane"));
    setAttribute(Qt::WA_DeleteOnClose);
    const QString title = asWritten.lesson
        ? tr("Lesson %1: %2").arg(asWritten.lesson->number).arg(QString::fromStdString(asWritten.lesson->title))
        : QString::fromStdString(asWritten.name);
    setWindowTitle(tr("%1 - as written and with the fix").arg(title));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 0);
    auto* top = new QHBoxLayout;
    auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(windowTitle().toHtmlEscaped()), this);
    heading->setWordWrap(true);
    top->addWidget(heading, 1);
    auto* close = new QPushButton(tr("Close (Esc)"), this);
    close->setObjectName(QStringLiteral("closeComparison"));
    connect(close, &QPushButton::clicked, this, &QWidget::close);
    top->addWidget(close, 0, Qt::AlignTop);
    layout->addLayout(top);
    // Esc anywhere in the window closes it while it is open (the presenter's Esc is its own: Compare closes when
    // presenting starts).
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WindowShortcut);
    connect(escape, &QShortcut::activated, this, &QWidget::close);
    // The claim and both runs scroll together below the heading, which keeps Close in view: at 1024x700 the two
    // timelines' smallest heights do not fit beside the lesson's, and a layout squeezed below them overlapped them.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("comparisonScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* runs = new QWidget(scroll);
    auto* runsLayout = new QVBoxLayout(runs);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(runs);
    layout->addWidget(scroll, 1);
    m_claim->setWordWrap(true);
    m_claim->setTextFormat(Qt::RichText);
    runsLayout->addWidget(m_claim);
    const scenario::Scenario* scenarios[2] = { &asWritten, &fixed };
    const QString headings[2] = { tr("As written"), tr("With the fix") };
    analysis::RunSummary summaries[2];
    TimeMs end = 1000;
    for (int i = 0; i < 2; ++i) {
        m_runs[i] = std::make_unique<sim::Simulation>(*scenarios[i]);
        m_runs[i]->runToEnd();
        summaries[i] = m_runs[i]->summary();
        end = std::max(end, m_runs[i]->now());
        m_models[i] = new LaneModel(this);
        const auto& lesson = m_runs[i]->scenario().lesson;
        m_models[i]->setMomentSpecs(lesson ? lesson->moments : std::vector<analysis::MomentSpec> {});
        m_models[i]->setRun(&m_runs[i]->engine().run());
        runsLayout->addWidget(new QLabel(QStringLiteral("<b>%1</b>").arg(headings[i]), runs));
        m_views[i] = new TimelineView(m_models[i], runs);
        m_views[i]->setTheme(dark ? Theme::Dark : Theme::Light);
        m_views[i]->setFollowLive(false);
        m_views[i]->setNow(m_runs[i]->now());
        runsLayout->addWidget(m_views[i], 1);
    }
    for (int i = 0; i < 2; ++i) {
        m_views[i]->setRunEnd(end);
        connect(m_views[i], &TimelineView::viewChanged, this, [this, i] { follow(i); });
    }
    m_changes = asWritten.lesson ? analysis::compareSummaries(
                    summaries[0], summaries[1], asWritten.lesson->measure, asWritten.lesson->measureLabel)
                                 : analysis::compareSummaries(summaries[0], summaries[1]);
    m_claim->setText(claimText());
    // The action, not the idle polling after it: up to the last state change of either run. Fitted again once the
    // window has its size; the first view's window is the second's too.
    const TimeMs shown = std::max(actionEnd(*m_models[0]), actionEnd(*m_models[1]));
    m_views[0]->fitRange(0, shown);
    QTimer::singleShot(0, this, [this, shown] { m_views[0]->fitRange(0, shown); });
}

ComparisonPane::~ComparisonPane()
{
    // The views and models read the runs: they go first.
    for (int i = 0; i < 2; ++i) {
        delete m_views[i];
        delete m_models[i];
    }
}

QString ComparisonPane::claimText() const
{
    if (m_changes.empty()) // a scenario without a measure whose fix changed nothing that is counted
        return tr("As written and with the fix: the same figures.");
    QStringList parts;
    for (const auto& change : m_changes)
        parts << QString::fromStdString(change.text()).toHtmlEscaped();
    return tr("As written → with the fix: %1").arg(parts.join(QStringLiteral(" · ")));
}

void ComparisonPane::follow(int from)
{
    if (m_following)
        return;
    m_following = true; // the other view's viewChanged comes back here
    const TimelineFrame& frame = m_views[from]->frame();
    m_views[1 - from]->showWindow(frame.axis.start, frame.axis.msPerPixel);
    m_following = false;
}

} // namespace lifeline::ui
