// The main window while real clients drive the run (the local endpoint, the recording proxy): the live sources
// are the LiveSourceController's; the window's toolbar and panels say that the run is live.
#include "http/endpoint_server.h"
#include "window/controllers/live_source_controller.h"
#include "window/controllers/presenter_controller.h"
#include "window/main_window.h"
#include "window/panels/live_queue_panel.h"
#include "window/panels/queue_controls.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>

namespace lifeline::ui {

void MainWindow::showLiveState()
{
    // Real clients drive a live run on the wall clock: nothing to play, step or restart, and the speed is the
    // endpoint's own (--speed; the proxy's is 1x). The controls come back as they were for the next simulation.
    const bool live = m_session->live();
    m_controls->setVisible(!live);
    m_liveQueue->setVisible(live && !m_session->traceReceiver()); // traced calls went to a real SQS, not to us
    // Real clients are not simulated consumers: nothing to add, remove or crash; their rows are on the timeline.
    for (const char* name : { "addConsumer", "removeConsumer" })
        if (auto* button = findChild<QWidget*>(QLatin1String(name)))
            button->setEnabled(!live);
    if (auto* hint = findChild<QLabel*>(QStringLiteral("consumersHint")))
        hint->setText(live ? tr("Real clients drive this run: each kind of client is a row under Consumers on the "
                                "timeline.")
                           : tr("Click a consumer to crash it, again to restart it."));
    // Play, Step and Restart move a simulation: a saved run, or a live one after its endpoint stopped, has none.
    const bool simulated = m_session->simulation() != nullptr;
    m_play->setEnabled(simulated);
    m_step->setEnabled(simulated && !m_presenter->presenting());
    m_restart->setEnabled(simulated);
    m_speed->setEnabled(!live);
    const QSignalBlocker block(m_speed);
    if (live) {
        if (m_speed->property("simulationIndex").isNull())
            m_speed->setProperty("simulationIndex", m_speed->currentIndex());
        const double speed = m_session->endpoint() ? m_session->endpoint()->speed() : 1.0;
        int index = m_speed->findData(speed);
        if (index < 0) {
            m_speed->addItem(QStringLiteral("%1×").arg(speed), speed);
            index = m_speed->count() - 1;
        }
        m_speed->setCurrentIndex(index);
        m_play->setText(tr("● Live"));
        m_play->setToolTip(tr("Real clients drive this run: its clock is the wall clock's"));
        m_speed->setToolTip(tr("The endpoint's clock: virtual seconds per wall second, fixed while it serves"));
    } else {
        if (const QVariant index = m_speed->property("simulationIndex"); !index.isNull()) {
            m_speed->setCurrentIndex(index.toInt());
            m_speed->setProperty("simulationIndex", QVariant());
        }
        m_play->setText(m_driver->playing() ? tr("Pause") : tr("Play"));
        m_play->setToolTip(tr("Play or pause (Space)"));
        m_speed->setToolTip(tr("Virtual seconds per wall second ([ slower, ] faster)"));
    }
}

} // namespace lifeline::ui
