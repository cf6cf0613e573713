#include "window/controllers/presenter_controller.h"

#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"
#include "window/panels/consumer_tiles.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QDockWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QShortcut>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace lifeline::ui {

namespace {
constexpr double kPresenterScale = 1.6;
}

PresenterController::PresenterController(Stage stage)
    : QObject(stage.window)
    , m_stage(std::move(stage))
    , m_bar(new QWidget(m_stage.window))
    , m_caption(new QLabel(m_bar))
    , m_clock(new QLabel(m_bar))
    , m_notice(new QLabel(m_bar))
    , m_noticeTimer(new QTimer(this))
    , m_action(new QAction(tr("&Presenter mode"), this))
{
    auto* layout = new QHBoxLayout(m_bar);
    layout->setContentsMargins(16, 8, 16, 8);
    m_caption->setWordWrap(true);
    QFont caption = m_caption->font();
    caption.setPixelSize(30);
    m_caption->setFont(caption);
    QFont clock = m_clock->font();
    clock.setPixelSize(44);
    clock.setBold(true);
    m_clock->setFont(clock);
    QFont notice = caption;
    notice.setBold(true);
    m_notice->setFont(notice);
    m_notice->setObjectName(QStringLiteral("presenterNotice"));
    m_notice->setStyleSheet(QStringLiteral("color: #D52B1E;"));
    m_notice->hide();
    m_noticeTimer->setSingleShot(true);
    m_noticeTimer->setInterval(4000);
    connect(m_noticeTimer, &QTimer::timeout, m_notice, &QWidget::hide);
    layout->addWidget(m_caption, 1);
    layout->addWidget(m_notice);
    layout->addWidget(m_clock);
    m_bar->hide();
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_action->setCheckable(true);
    connect(m_action, &QAction::triggered, this, [this] { setPresenting(!m_presenting); });
    const auto key = [this](const QKeySequence& sequence, auto&& slot) {
        auto* shortcut = new QShortcut(sequence, m_stage.window);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, this, slot);
        m_keys.push_back(shortcut);
    };
    // The toolbar's Play is hidden with it, and a hidden action's shortcut does not fire: Space is the mode's own.
    key(Qt::Key_Space, [this] {
        m_stage.driver->togglePlay();
        tell(m_stage.driver->playing() ? tr("Playing") : tr("Paused"));
    });
    key(Qt::Key_Right, [this] { m_stage.timeline->stepMoment(+1); });
    key(Qt::Key_Left, [this] { m_stage.timeline->stepMoment(-1); });
    key(Qt::Key_C, [this] { crashFirstWorking(); });
    key(Qt::Key_R, [this] {
        m_stage.restart();
        tell(tr("From the start"));
    });
    for (int n = 1; n <= 9; ++n)
        key(QKeySequence(Qt::Key_0 + n), [this, n] { toggleConsumer(size_t(n - 1)); });
    // L, the view's Follow live, brings the live edge back on stage too: the window holds the action itself, so its
    // key works with the toolbar and the menus hidden.
    m_stage.window->addAction(m_stage.timeline->viewState()->followLiveAction());
    key(Qt::Key_Escape, [this] { setPresenting(false); });
    // On stage the clock stops where the story ends, so a 40-second story does not run on to minutes of idle polling
    // behind the speaker; Space plays on, and a crash by key plays too (the speaker's own story goes on).
    connect(m_stage.driver, &LiveDriver::scriptEnd, this, [this] {
        if (!m_presenting)
            return;
        m_stage.driver->pause();
        tell(tr("The story has ended: Space plays on"));
    });
    connect(m_stage.driver, &LiveDriver::advanced, this, &PresenterController::updateBar);
    connect(m_stage.timeline, &TimelineView::momentFocused, this, &PresenterController::updateBar);
}

void PresenterController::setPresenting(bool on)
{
    if (on == m_presenting)
        return;
    m_presenting = on;
    QMainWindow* window = m_stage.window;
    if (on) {
        m_stateBefore = window->saveState();
        m_wasMaximized = window->isMaximized();
        for (QDockWidget* dock : window->findChildren<QDockWidget*>())
            dock->hide();
        for (QToolBar* bar : window->findChildren<QToolBar*>())
            bar->hide();
        window->menuBar()->hide();
        window->statusBar()->hide();
        window->showFullScreen();
    } else {
        window->menuBar()->show();
        window->statusBar()->show();
        window->restoreState(m_stateBefore);
        m_wasMaximized ? window->showMaximized() : window->showNormal();
    }
    m_bar->setVisible(on);
    m_stage.overview->setVisible(!on);
    m_stage.timeline->setPresentationScale(on ? kPresenterScale : 1.0);
    for (QShortcut* shortcut : m_keys)
        shortcut->setEnabled(on);
    m_action->setChecked(on);
    m_stage.timeline->setFocus();
    updateBar();
    emit presentingChanged(on);
}

void PresenterController::updateBar()
{
    const RunView* run = m_stage.session->run();
    if (!m_presenting || !run)
        return;
    m_clock->setText(QString::fromStdString(lifeline::formatDuration(run->now())));
    // The moment the view went to, else the latest one the run has reached.
    const auto& moments = m_stage.model->moments();
    int shown = m_stage.timeline->focusedMoment();
    if (shown == 0)
        for (size_t i = 0; i < moments.size(); ++i)
            if (moments[i].at <= run->now())
                shown = int(i) + 1;
    m_caption->setText(shown == 0
            ? m_stage.title()
            : QStringLiteral("%1  %2").arg(shown).arg(QString::fromStdString(moments[size_t(shown - 1)].caption)));
}

void PresenterController::crashFirstWorking()
{
    const sim::Simulation* simulation = m_stage.session->simulation();
    if (!simulation)
        return;
    const auto consumers = simulation->consumers();
    for (size_t i = 0; i < consumers.size(); ++i)
        if (consumers[i].state == sim::ConsumerState::Working && !consumers[i].removed) {
            toggleConsumer(i);
            return;
        }
    tell(tr("Nothing to crash: no consumer is working"));
}

void PresenterController::toggleConsumer(size_t index)
{
    const sim::Simulation* simulation = m_stage.session->simulation();
    if (!simulation)
        return;
    const auto consumers = simulation->consumers();
    if (index >= consumers.size() || consumers[index].removed) {
        tell(tr("No consumer %1: this run has %n", nullptr, int(consumers.size())).arg(index + 1));
        return;
    }
    const bool crash = consumers[index].state != sim::ConsumerState::Crashed;
    m_stage.tiles->toggle(index);
    // What the key did is in view: the live edge, where the view was elsewhere (a moment stepped to, the story's end).
    const TimeMs now = m_stage.session->run()->now();
    if (now < m_stage.timeline->visibleFrom() || now > m_stage.timeline->visibleTo())
        m_stage.timeline->setFollowLive(true);
    if (!m_stage.driver->playing())
        m_stage.driver->play();
    const QString name = QString::fromStdString(consumers[index].name);
    tell(crash ? tr("%1 crashed").arg(name) : tr("%1 restarted").arg(name));
}

void PresenterController::tell(const QString& text)
{
    if (!m_presenting) {
        emit said(text);
        return;
    }
    m_notice->setText(text);
    m_notice->show();
    m_noticeTimer->start();
}

} // namespace lifeline::ui
