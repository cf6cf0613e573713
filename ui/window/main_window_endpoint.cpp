// The main window as the local endpoint's live view: View > Local endpoint, or `lifeline serve`.
#include "lifeline/engine.h"
#include "lifeline/sim/duration.h"
#include "net/endpoint_server.h"
#include "net/proxy_server.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "window/charts_panel.h"
#include "window/consumer_tiles.h"
#include "window/event_log_panel.h"
#include "window/live_driver.h"
#include "window/live_queue_panel.h"
#include "window/main_window.h"
#include "window/queue_controls.h"
#include "window/run_session.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
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
    if (!m_session->live())
        return;
    const bool wasProxy = proxy() != nullptr;
    if (wasProxy)
        saveProxyRecord();
    m_endpointTimer->stop();
    m_session->stopServing();
    showLiveState();
    m_timeline->setRunEnd(engine() ? engine()->now() : 0);
    if (m_endpointAction) {
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(false);
    }
    say(wasProxy ? tr("The proxy stopped; its run stays on screen.")
                 : tr("The local endpoint stopped; its run stays on screen."));
}

void MainWindow::endpointFrame()
{
    if (!m_session->live())
        return;
    m_session->catchUpLive();
    m_model->sync();
    const TimeMs now = engine()->now();
    m_timeline->setRunEnd(std::max<TimeMs>(now + 60000, 300000));
    m_overview->setRunEnd(std::max<TimeMs>(now, 60000));
    m_timeline->setNow(now);
    m_play->setText(tr("● Live %1").arg(QString::fromStdString(sim::formatDuration(now))));
    refresh();
}

void MainWindow::bindLiveQueue()
{
    using Done = LiveQueuePanel::Done;
    if (EndpointServer* server = endpoint()) {
        m_liveQueue->setSource(
            engine(),
            [this, server](const std::string& action, const nlohmann::json& params, const Done& done) {
                const auto outcome = server->operatorCall(action, params);
                runChanged();
                done(!outcome.error,
                    outcome.error ? QString::fromStdString(outcome.error->code + ": " + outcome.error->message)
                                  : tr("OK"));
            },
            [server](const std::string& queue) { return server->queueUrl(queue); });
    } else if (ProxyServer* server = proxy()) {
        m_liveQueue->setSource(
            engine(),
            [this, server](const std::string& action, const nlohmann::json& params, Done done) {
                server->operatorCall(
                    action, params, [this, done = std::move(done)](bool ok, const std::string& answer) {
                        runChanged();
                        done(ok, QString::fromStdString(answer));
                    });
            },
            [server](const std::string& queue) { return server->queueUrl(queue); });
    } else {
        m_liveQueue->setSource(nullptr, {}, {});
    }
}

void MainWindow::showLiveState()
{
    // Real clients drive a live run on the wall clock: nothing to play, step or restart, and the speed is the
    // endpoint's own (--speed; the proxy's is 1x). The controls come back as they were for the next simulation.
    const bool live = m_session->live();
    bindLiveQueue();
    m_controls->setVisible(!live);
    m_liveQueue->setVisible(live);
    // Real clients are not simulated consumers: nothing to add, remove or crash; their rows are on the timeline.
    for (const char* name : { "addConsumer", "removeConsumer" })
        if (auto* button = findChild<QWidget*>(QLatin1String(name)))
            button->setEnabled(!live);
    if (auto* hint = findChild<QLabel*>(QStringLiteral("consumersHint")))
        hint->setText(live ? tr("Real clients drive this run: each kind of client is a row under Consumers on the "
                                "timeline.")
                           : tr("Click a consumer to crash it, again to restart it."));
    m_play->setEnabled(!live);
    m_step->setEnabled(!live);
    m_restart->setEnabled(!live);
    m_speed->setEnabled(!live);
    const QSignalBlocker block(m_speed);
    if (live) {
        if (m_speed->property("simulationIndex").isNull())
            m_speed->setProperty("simulationIndex", m_speed->currentIndex());
        const double speed = endpoint() ? endpoint()->speed() : 1.0;
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
