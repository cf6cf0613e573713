// The main window as the local endpoint's live view: View > Local endpoint, or `lifeline serve`.
#include "lifeline/engine.h"
#include "net/endpoint_server.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "window/charts_panel.h"
#include "window/consumer_tiles.h"
#include "window/event_log_panel.h"
#include "window/live_driver.h"
#include "window/main_window.h"
#include "window/queue_controls.h"
#include "window/run_session.h"

#include <QAction>
#include <QDateTime>
#include <QMessageBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>

namespace lifeline::ui {

Outcome<> MainWindow::startEndpoint(const EndpointOptions& options)
{
    stopEndpoint();
    m_driver->pause();
    auto engine = std::make_unique<Engine>(
        EngineOptions { .epochMs = QDateTime::currentMSecsSinceEpoch(), .keepEndedBodies = true });
    auto* server = new EndpointServer(*engine, this);
    if (auto started = server->start(options); !started) {
        delete server;
        if (m_endpointAction)
            m_endpointAction->setChecked(false);
        return started;
    }
    // Shown like a simulation, but the clock is the endpoint's (wall time x speed) and the actors are its clients.
    m_session->showEndpoint(std::move(engine), server);
    m_timeline->setFollowLive(true);
    m_scenario.reset();
    setLesson(tr("Local endpoint %1").arg(server->address()),
        tr("Point an SQS client here and watch its messages. For example:\n\naws --endpoint-url %1 sqs create-queue "
           "--queue-name demo\n\naws --endpoint-url %1 sqs send-message --queue-url %1/000000000000/demo "
           "--message-body hello\n\nAny signature is accepted (this is a local tool). Time runs at x%2.")
            .arg(server->address())
            .arg(options.speed));
    if (!m_endpointTimer) {
        m_endpointTimer = new QTimer(this);
        m_endpointTimer->setInterval(33);
        connect(m_endpointTimer, &QTimer::timeout, this, &MainWindow::endpointFrame);
    }
    m_endpointTimer->start();
    if (m_endpointAction) {
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(true);
    }
    say(server->exposed()
            ? tr("Serving on %1, not loopback: anyone who can reach this machine can use it.").arg(server->address())
            : tr("Serving SQS on %1").arg(server->address()),
        10000);
    return {};
}

void MainWindow::stopEndpoint()
{
    if (!endpoint())
        return;
    m_endpointTimer->stop();
    m_session->stopServing();
    m_timeline->setRunEnd(engine() ? engine()->now() : 0);
    if (m_endpointAction) {
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(false);
    }
    say(tr("The local endpoint stopped; its run stays on screen."));
}

void MainWindow::endpointFrame()
{
    if (!endpoint())
        return;
    endpoint()->catchUp();
    m_model->sync();
    const TimeMs now = engine()->now();
    m_timeline->setRunEnd(std::max<TimeMs>(now + 60000, 300000));
    m_overview->setRunEnd(std::max<TimeMs>(now, 60000));
    m_timeline->setNow(now);
    refresh();
}

void MainWindow::toggleEndpoint(bool on)
{
    if (!on) {
        stopEndpoint();
        return;
    }
    if (const auto started = startEndpoint(EndpointOptions {}); !started)
        QMessageBox::warning(this, tr("Local endpoint"),
            tr("The endpoint did not start: %1").arg(QString::fromStdString(started.message())));
}

} // namespace lifeline::ui
