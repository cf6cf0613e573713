#include "window/controllers/live_source_controller.h"

#include "export/image_export.h"
#include "http/endpoint_server.h"
#include "http/proxy_server.h"
#include "http/run_recorder.h"
#include "http/run_seed.h"
#include "http/trace_receiver.h"
#include "lifeline/engine/engine.h"
#include "timeline/lane_model.h"
#include "timeline/overview_strip.h"
#include "timeline/timeline_view.h"
#include "window/controllers/history_setting.h"
#include "window/dialogs/import_traces.h"
#include "window/panels/live_queue_panel.h"
#include "window/runtime/live_driver.h"
#include "window/runtime/run_session.h"

#include <QAction>
#include <QDateTime>
#include <QDockWidget>
#include <QLineEdit>
#include <QMessageBox>
#include <QTimer>

namespace lifeline::ui {

LiveSourceController::LiveSourceController(Window window)
    : QObject(window.window)
    , m_window(window)
    , m_endpointAction(new QAction(tr("Local SQS &endpoint (port 9324)"), this))
    , m_tracesAction(new QAction(tr("&Receive traces live (port 4318)..."), this))
    , m_frames(new QTimer(this))
{
    m_tracesAction->setToolTip(
        tr("Draw your services' SQS messages from their OpenTelemetry spans, sent here as OTLP/HTTP JSON"));
    connect(m_tracesAction, &QAction::triggered, this, [this] {
        const auto settings = askQueueSettings(m_window.window, tr("Receive traces live"));
        if (!settings)
            return;
        if (auto started = startTraces(TraceReceiverOptions {}, *settings); !started)
            QMessageBox::warning(m_window.window, tr("Receive traces live"), QString::fromStdString(started.message()));
    });
    m_endpointAction->setCheckable(true);
    m_endpointAction->setToolTip(tr("Serve the SQS API on 127.0.0.1:9324: real clients' messages appear as lanes"));
    connect(m_endpointAction, &QAction::toggled, this, &LiveSourceController::toggleEndpoint);
    m_frames->setInterval(33);
    connect(m_frames, &QTimer::timeout, this, &LiveSourceController::frame);
    connect(m_window.session, &RunSession::sourceChanged, this, &LiveSourceController::bindLiveQueue);
}

Outcome<> LiveSourceController::startEndpoint(const EndpointOptions& options)
{
    stop();
    m_window.driver->pause();
    // The window keeps the history the View menu says (the endpoint's run has no end); forgotten between frames.
    auto engine = std::make_unique<Engine>(EngineOptions { .epochMs = QDateTime::currentMSecsSinceEpoch(),
        .seed = options.seed.value_or(freshRunSeed()),
        .keepEndedBodies = true,
        .historyMs = m_window.history->historyMsFor(0),
        .forgetsOnItsOwn = false,
        .quotas = options.quotas,
        .faults = options.faults });
    auto* server = new EndpointServer(*engine, m_window.window);
    server->allowReset([this](const EngineOptions& fresh) -> Engine& {
        auto renewed = std::make_unique<Engine>(fresh);
        Engine& engine = *renewed;
        m_window.session->renewEndpointEngine(std::move(renewed));
        return engine;
    });
    server->setRunImageWriter(drawEndpointRun);
    connect(server, &EndpointServer::wasReset, this, [this] {
        emit said(tr("A test reset the endpoint: every queue and message is gone, the clock is at 0"), 10000);
    });
    if (auto started = server->start(options); !started) {
        delete server;
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(false);
        return started;
    }
    // Shown like a simulation, but the clock is the endpoint's (wall time x speed) and the actors are its clients.
    m_window.session->showEndpoint(std::move(engine), server);
    m_window.timeline->setFollowLive(true);
    const QString clock = options.manualClock
        ? tr("Time stands until a test moves it: curl -X POST %1/_lifeline/clock/advance -d '{\"by\": \"30s\"}'.")
              .arg(server->address())
        : tr("Time runs at x%1.").arg(options.speed);
    emit started(tr("Local endpoint %1").arg(server->address()),
        tr("Point an SQS client here and watch its messages. For example:\n\naws --endpoint-url %1 sqs create-queue "
           "--queue-name demo\n\naws --endpoint-url %1 sqs send-message --queue-url %1/000000000000/demo "
           "--message-body hello\n\nAny signature is accepted (this is a local tool). %2")
            .arg(server->address(), clock));
    m_frames->start();
    {
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(true);
    }
    emit said(server->exposed()
            ? tr("Serving on %1, not loopback: anyone who can reach this machine can use it.").arg(server->address())
            : tr("Serving SQS on %1").arg(server->address()),
        10000);
    return {};
}

LiveSourceController::~LiveSourceController() = default;

Outcome<> LiveSourceController::startProxy(const ProxyOptions& options, const QString& recordPath, int recordEveryMs)
{
    stop();
    m_window.driver->pause();
    auto observer = std::make_unique<observe::Observer>(QDateTime::currentMSecsSinceEpoch());
    auto* server = new ProxyServer(*observer, m_window.window);
    if (auto started = server->start(options); !started) {
        delete server;
        return started;
    }
    if (!recordPath.isEmpty()) {
        auto recorder = std::make_unique<RunRecorder>(recordPath.toStdString(), "proxy to " + options.upstream.url(),
            [observer = observer.get(), server]() -> const RunView& {
                server->catchUp();
                return observer->run();
            });
        if (auto written = recorder->start(recordEveryMs); !written) {
            delete server;
            return Failure { "--record: " + written.message() };
        }
        connect(recorder.get(), &RunRecorder::failed, this,
            [this](const QString& why) { emit said(tr("The run file could not be written: %1").arg(why), 15000); });
        m_recorder = std::move(recorder);
    }
    connect(server, &ProxyServer::callFailed, this, [this](const QString& why) { emit said(why, 15000); });
    m_window.session->showProxy(std::move(observer), server);
    m_window.timeline->setFollowLive(true);
    emit started(tr("Recording proxy %1 → %2").arg(server->address(), QString::fromStdString(options.upstream.url())),
        tr("Point your SQS clients here instead of at the upstream; every call goes on to %1, signed with your "
           "credentials, and its answer comes back unchanged. For example:\n\naws --endpoint-url %2 sqs "
           "receive-message --queue-url YOUR_QUEUE_URL\n\nEach message is a lane from what the proxy saw. Hatched grey "
           "means not observed: the message was sent before the proxy started, or by a client that talks to the "
           "upstream directly. The depth chart is what the upstream reports (GetQueueAttributes, polled).")
            .arg(QString::fromStdString(options.upstream.url()), server->address()));
    m_frames->start();
    emit said(server->exposed() ? tr("Proxy on %1, not loopback: anyone who can reach this machine can use your "
                                     "credentials through it.")
                                      .arg(server->address())
                                : tr("Recording proxy on %1").arg(server->address()),
        10000);
    return {};
}

Outcome<> LiveSourceController::startTraces(
    const TraceReceiverOptions& options, import::QueueSettings settings, TimeMs lagMs)
{
    stop();
    m_window.driver->pause();
    // The window keeps the history the View menu says, as for the endpoint.
    const TimeMs history = m_window.history->historyMsFor(0);
    auto live = std::make_unique<import::LiveImport>(
        std::move(settings), import::LiveImportOptions { .lagMs = lagMs, .historyMs = history });
    auto* receiver = new TraceReceiver(*live, m_window.window);
    if (auto started = receiver->start(options); !started) {
        delete receiver;
        return started;
    }
    connect(receiver, &TraceReceiver::refused, this,
        [this](const QString& why) { emit said(tr("Refused %1").arg(why), 15000); });
    m_window.session->showTraces(std::move(live), receiver);
    m_window.timeline->setFollowLive(true);
    const QString endpoint = receiver->address() + QStringLiteral("/v1/traces");
    emit started(tr("Receiving traces (port %1)").arg(options.port),
        tr("Point your services' OpenTelemetry exporters here, in JSON:\n\nOTEL_EXPORTER_OTLP_TRACES_ENDPOINT=\n%1\n"
           "OTEL_EXPORTER_OTLP_PROTOCOL=\nhttp/json\n\nEach message its spans name is a lane, drawn %2 s behind "
           "the spans' clock (exporters send in batches). What SQS did between the calls (a visibility timeout "
           "ending, the move to a dead-letter queue) is inferred from the queues' settings and drawn hatched.")
            .arg(endpoint)
            .arg(double(lagMs) / 1000.0));
    m_frames->start();
    emit said(receiver->exposed()
            ? tr("Receiving traces on %1, not loopback: anyone who can reach this machine can send spans.")
                  .arg(endpoint)
            : tr("Receiving traces on %1").arg(endpoint),
        10000);
    return {};
}

bool LiveSourceController::answerSend()
{
    RunSession* session = m_window.session;
    if (!session->live())
        return false;
    if (session->traceReceiver()) {
        emit said(tr("Traced calls went to a real SQS: nothing is sent from here."), 6000);
        return true;
    }
    if (auto* queueDock = m_window.window->findChild<QDockWidget*>(QStringLiteral("queueDock")))
        queueDock->raise();
    m_window.liveQueue->body()->setFocus();
    emit said(tr("Type a body in the Queue panel and press Send: it goes to the service as a SendMessage."), 6000);
    return true;
}

void LiveSourceController::stop()
{
    RunSession* session = m_window.session;
    if (!session->live())
        return;
    const bool wasProxy = session->proxy() != nullptr;
    const bool wasTraces = session->traceReceiver() != nullptr;
    if (wasProxy)
        saveProxyRecord();
    m_frames->stop();
    session->stopServing();
    bindLiveQueue();
    emit stopped();
    m_window.timeline->setRunEnd(session->run() ? session->run()->now() : 0);
    {
        const QSignalBlocker block(m_endpointAction);
        m_endpointAction->setChecked(false);
    }
    emit said(wasProxy  ? tr("The proxy stopped; its run stays on screen.")
            : wasTraces ? tr("Traces are no longer received; their run stays on screen.")
                        : tr("The local endpoint stopped; its run stays on screen."),
        6000);
}

void LiveSourceController::saveProxyRecord()
{
    if (!m_recorder)
        return;
    const auto saved = std::exchange(m_recorder, nullptr)->finish();
    if (!saved)
        QMessageBox::warning(m_window.window, tr("Recording proxy"),
            tr("The run could not be written: %1").arg(QString::fromStdString(saved.message())));
}

void LiveSourceController::frame()
{
    RunSession* session = m_window.session;
    if (!session->live())
        return;
    session->catchUpLive();
    session->forgetHistory();
    m_window.model->sync();
    const TimeMs now = session->run()->now();
    m_window.timeline->setRunEnd(std::max<TimeMs>(now + 60000, 300000));
    m_window.overview->setRunEnd(std::max<TimeMs>(now, 60000));
    m_window.timeline->setNow(now);
    emit frameShown(now);
}

void LiveSourceController::bindLiveQueue()
{
    using Done = LiveQueuePanel::Done;
    const RunView* run = m_window.session->run();
    if (EndpointServer* server = m_window.session->endpoint()) {
        m_window.liveQueue->setSource(
            run,
            [this, server](const std::string& action, const nlohmann::json& params, const Done& done) {
                const auto outcome = server->operatorCall(action, params);
                emit runChanged();
                done(!outcome.error,
                    outcome.error ? QString::fromStdString(outcome.error->code + ": " + outcome.error->message)
                                  : tr("OK"));
            },
            [server](const std::string& queue) { return server->queueUrl(queue); });
    } else if (ProxyServer* server = m_window.session->proxy()) {
        m_window.liveQueue->setSource(
            run,
            [this, server](const std::string& action, const nlohmann::json& params, Done done) {
                server->operatorCall(
                    action, params, [this, done = std::move(done)](bool ok, const std::string& answer) {
                        emit runChanged();
                        done(ok, QString::fromStdString(answer));
                    });
            },
            [server](const std::string& queue) { return server->queueUrl(queue); });
    } else {
        m_window.liveQueue->setSource(nullptr, {}, {});
    }
}

void LiveSourceController::toggleEndpoint(bool on)
{
    if (!on) {
        stop();
        return;
    }
    if (const auto started = startEndpoint(EndpointOptions {}); !started)
        QMessageBox::warning(m_window.window, tr("Local endpoint"),
            tr("The endpoint did not start: %1").arg(QString::fromStdString(started.message())));
}

} // namespace lifeline::ui
