// The main window as the recording proxy's live view (`lifeline proxy` without --headless): what real clients did
// to real queues, drawn as it happens.
#include "lifeline/io/run_file.h"
#include "net/proxy_server.h"
#include "timeline/timeline_view.h"
#include "window/live_driver.h"
#include "window/main_window.h"
#include "window/run_session.h"

#include <QDateTime>
#include <QMessageBox>
#include <QTimer>

namespace lifeline::ui {

ProxyServer* MainWindow::proxy() const
{
    return m_session->proxy();
}

Outcome<> MainWindow::startProxy(const ProxyOptions& options, const QString& recordPath)
{
    stopEndpoint();
    m_driver->pause();
    auto observer = std::make_unique<observe::Observer>(QDateTime::currentMSecsSinceEpoch());
    auto* server = new ProxyServer(*observer, this);
    if (auto started = server->start(options); !started) {
        delete server;
        return started;
    }
    m_proxyRecordPath = recordPath;
    m_session->showProxy(std::move(observer), server);
    m_timeline->setFollowLive(true);
    m_scenario.reset();
    setLesson(tr("Recording proxy %1 → %2").arg(server->address(), QString::fromStdString(options.upstream.url())),
        tr("Point your SQS clients here instead of at the upstream; every call goes on to %1, signed with your "
           "credentials, and its answer comes back unchanged. For example:\n\naws --endpoint-url %2 sqs "
           "receive-message --queue-url YOUR_QUEUE_URL\n\nEach message is a lane from what the proxy saw. Hatched grey "
           "means not observed: the message was sent before the proxy started, or by a client that talks to the "
           "upstream directly. The depth chart is what the upstream reports (GetQueueAttributes, polled).")
            .arg(QString::fromStdString(options.upstream.url()), server->address()));
    if (!m_endpointTimer) {
        m_endpointTimer = new QTimer(this);
        m_endpointTimer->setInterval(33);
        connect(m_endpointTimer, &QTimer::timeout, this, &MainWindow::endpointFrame);
    }
    m_endpointTimer->start();
    showLiveState();
    say(server->exposed() ? tr("Proxy on %1, not loopback: anyone who can reach this machine can use your "
                               "credentials through it.")
                                .arg(server->address())
                          : tr("Recording proxy on %1").arg(server->address()),
        10000);
    return {};
}

void MainWindow::saveProxyRecord()
{
    if (m_proxyRecordPath.isEmpty() || !m_session->observer())
        return;
    const QString path = std::exchange(m_proxyRecordPath, QString());
    m_session->catchUpLive();
    const auto saved = saveRun(*engine(), m_session->actorNames(), "proxy", path.toStdString());
    if (!saved)
        QMessageBox::warning(this, tr("Recording proxy"),
            tr("The run could not be written: %1").arg(QString::fromStdString(saved.message())));
}

} // namespace lifeline::ui
