// Presenter mode (View > Presenter mode, F11): full screen, only the timeline with the current moment's caption and
// a large virtual clock above it, rows and type 1.6 times larger; Space plays or pauses, Right / Left go to the next
// / previous moment, C crashes the first working consumer, R restarts, Esc leaves. Readable from the back of a room.
#include "lifeline/sim/duration.h"
#include "lifeline/sim/simulation.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "window/consumer_tiles.h"
#include "window/live_driver.h"
#include "window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenuBar>
#include <QShortcut>
#include <QStatusBar>
#include <QToolBar>

namespace lifeline::ui {

namespace {
constexpr double kPresenterScale = 1.6;
}

QWidget* MainWindow::buildPresenterBar()
{
    m_presenterBar = new QWidget(this);
    auto* layout = new QHBoxLayout(m_presenterBar);
    layout->setContentsMargins(16, 8, 16, 8);
    m_presenterCaption = new QLabel(m_presenterBar);
    m_presenterCaption->setWordWrap(true);
    QFont caption = m_presenterCaption->font();
    caption.setPixelSize(30);
    m_presenterCaption->setFont(caption);
    m_presenterClock = new QLabel(m_presenterBar);
    QFont clock = m_presenterClock->font();
    clock.setPixelSize(44);
    clock.setBold(true);
    m_presenterClock->setFont(clock);
    layout->addWidget(m_presenterCaption, 1);
    layout->addWidget(m_presenterClock);
    m_presenterBar->hide();
    // The presenter's keys, live only while presenting (Right is Step otherwise).
    const auto key = [this](const QKeySequence& sequence, auto&& slot) {
        auto* shortcut = new QShortcut(sequence, this);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, this, slot);
        m_presenterKeys.push_back(shortcut);
    };
    key(Qt::Key_Right, [this] { m_timeline->stepMoment(+1); });
    key(Qt::Key_Left, [this] { m_timeline->stepMoment(-1); });
    key(Qt::Key_C, [this] { crashFirstWorking(); });
    key(Qt::Key_R, [this] { restart(); });
    key(Qt::Key_Escape, [this] { setPresenting(false); });
    connect(m_driver, &LiveDriver::advanced, this, &MainWindow::updatePresenterBar);
    connect(m_timeline, &TimelineView::momentFocused, this, &MainWindow::updatePresenterBar);
    return m_presenterBar;
}

void MainWindow::setPresenting(bool on)
{
    if (on == m_presenting)
        return;
    m_presenting = on;
    if (on) {
        m_beforePresenting = saveState();
        m_wasMaximized = isMaximized();
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : findChildren<QToolBar*>())
            bar->hide();
        menuBar()->hide();
        statusBar()->hide();
        showFullScreen();
    } else {
        menuBar()->show();
        statusBar()->show();
        restoreState(m_beforePresenting);
        m_wasMaximized ? showMaximized() : showNormal();
    }
    m_presenterBar->setVisible(on);
    m_overview->setVisible(!on);
    m_timeline->setPresentationScale(on ? kPresenterScale : 1.0);
    if (m_step)
        m_step->setEnabled(!on); // Right goes to the next moment instead
    for (QShortcut* shortcut : m_presenterKeys)
        shortcut->setEnabled(on);
    if (m_presenterAction)
        m_presenterAction->setChecked(on);
    m_timeline->setFocus();
    updatePresenterBar();
}

void MainWindow::updatePresenterBar()
{
    if (!m_presenting || !engine())
        return;
    m_presenterClock->setText(QString::fromStdString(sim::formatDuration(engine()->now())));
    // The moment the view went to, else the latest one the run has reached.
    const auto& moments = m_model->moments();
    int shown = m_timeline->focusedMoment();
    if (shown == 0)
        for (size_t i = 0; i < moments.size(); ++i)
            if (moments[i].at <= engine()->now())
                shown = int(i) + 1;
    m_presenterCaption->setText(shown == 0
            ? m_title
            : QStringLiteral("%1  %2").arg(shown).arg(QString::fromStdString(moments[size_t(shown - 1)].caption)));
}

void MainWindow::crashFirstWorking()
{
    if (!simulation())
        return;
    const auto consumers = simulation()->consumers();
    for (size_t i = 0; i < consumers.size(); ++i)
        if (consumers[i].state == sim::ConsumerState::Working && !consumers[i].removed) {
            m_tiles->toggle(i);
            return;
        }
    say(tr("No consumer is working right now: nothing to crash."));
}

} // namespace lifeline::ui
