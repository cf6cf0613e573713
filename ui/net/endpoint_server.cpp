#include "net/endpoint_server.h"

#include "lifeline/endpoint/client_identity.h"
#include "lifeline/endpoint/sqs_action.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>

namespace lifeline::ui {

using endpoint::HttpParser;
using endpoint::HttpRequest;
using endpoint::HttpResponse;

struct EndpointServer::Connection {
    QTcpSocket* socket = nullptr;
    HttpParser parser;
    uint32_t actor = kSqsActor; // SQS stands for "not named yet": a connection gets its actor with its first request
    std::string peer; // 127.0.0.1:54321
    // A parked ReceiveMessage: answered when its poll completes.
    PollId poll = 0;
    endpoint::ReceiveView view;
    endpoint::Protocol protocol = endpoint::Protocol::Query;
    std::string requestId;
    bool keepAlive = true;
    bool closing = false;
    // Refused with 413 while its body still comes: read and thrown away until it is all in (or kDrainMs pass), then
    // closed; closing at once would make the client's TCP stack answer the rest with a reset that loses the 413.
    int64_t drainBytes = 0;
    enum class Phase { Idle, Head, Body, Parked } phase = Phase::Idle;
    qint64 deadline = 0; // wall ms (m_wall) past which it is closed; 0: none
    bool dropped = false; // its socket disconnected: freed on the next turn of the event loop, never inside a call
};

EndpointServer::EndpointServer(Engine& engine, QObject* parent)
    : QObject(parent)
    , m_engine(engine)
    , m_service(engine)
    , m_server(new QTcpServer(this))
{
    m_wake.setSingleShot(true);
    m_wake.setTimerType(Qt::PreciseTimer);
    connect(&m_wake, &QTimer::timeout, this, &EndpointServer::catchUp);
    connect(&m_sweep, &QTimer::timeout, this, &EndpointServer::sweepTimeouts);
    connect(m_server, &QTcpServer::newConnection, this, &EndpointServer::accept);
    connect(m_server, &QTcpServer::acceptError, this, &EndpointServer::acceptFailed);
}

EndpointServer::~EndpointServer()
{
    stop();
}

Outcome<> EndpointServer::start(const EndpointOptions& options)
{
    stop();
    m_options = options;
    m_server->setListenBacklogSize(1024); // a thousand long-pollers may connect at once
    m_server->setMaxPendingConnections(1024);
    if (!m_server->listen(options.bind, options.port))
        return Failure { tr("cannot listen on %1:%2: %3")
                             .arg(options.bind.toString())
                             .arg(options.port)
                             .arg(m_server->errorString())
                             .toStdString() };
    m_wall.start();
    m_virtualAtStart = m_engine.now();
    scheduleWake();
    const int shortest = std::min({ options.headerTimeoutMs, options.bodyTimeoutMs, options.idleTimeoutMs });
    m_sweep.start(std::clamp(shortest / 4, 10, 1000));
    return {};
}

void EndpointServer::stop()
{
    m_wake.stop();
    m_sweep.stop();
    // The server itself stops: nobody will ever answer a waiting poll, so SQS's side ends them too.
    for (auto& [socket, connection] : m_connections) {
        if (connection->poll)
            m_engine.cancelPoll(connection->poll);
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
    }
    for (const auto& [poll, actor] : m_orphaned)
        m_engine.cancelPoll(poll);
    m_connections.clear();
    m_waiting.clear();
    m_orphaned.clear();
    if (m_server->isListening())
        m_server->close();
}

bool EndpointServer::listening() const
{
    return m_server->isListening();
}

quint16 EndpointServer::port() const
{
    return m_server->serverPort();
}

QString EndpointServer::address() const
{
    QString host = m_server->serverAddress().toString();
    if (m_server->serverAddress().protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

bool EndpointServer::exposed() const
{
    return listening() && !m_server->serverAddress().isLoopback();
}

void EndpointServer::catchUp()
{
    if (m_wall.isValid()) {
        const TimeMs target = m_virtualAtStart + TimeMs(std::floor(double(m_wall.elapsed()) * m_options.speed));
        if (target > m_engine.now())
            m_engine.advanceTo(target);
    }
    answerCompletedPolls();
    scheduleWake();
}

endpoint::CallOutcome EndpointServer::operatorCall(const std::string& action, const nlohmann::json& params)
{
    catchUp();
    endpoint::CallContext context;
    context.host = QStringLiteral("127.0.0.1:%1").arg(port()).toStdString();
    context.actor = kOperatorActor;
    auto outcome = m_service.call(action, params, context);
    answerCompletedPolls(); // a message sent may complete waiting polls
    scheduleWake();
    return outcome;
}

std::string EndpointServer::queueUrl(const std::string& queue) const
{
    return QStringLiteral("http://127.0.0.1:%1/%2/")
               .arg(port())
               .arg(QString::fromStdString(m_engine.options().accountId))
               .toStdString()
        + queue;
}

void EndpointServer::scheduleWake()
{
    if (!listening())
        return;
    const TimeMs next = m_engine.nextDueTime();
    if (next == INT64_MAX) {
        m_wake.stop();
        return;
    }
    const double wallMs = double(next - m_engine.now()) / m_options.speed;
    m_wake.start(int(std::clamp(std::ceil(wallMs), 0.0, 3600000.0)));
}

void EndpointServer::accept()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        if (int(m_connections.size()) >= m_options.maxConnections) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        auto connection = std::make_unique<Connection>();
        connection->socket = socket;
        connection->parser = HttpParser(m_options.limits);
        connection->peer = socket->peerAddress().toString().toStdString() + ":" + std::to_string(socket->peerPort());
        Connection* raw = connection.get();
        m_connections.emplace(socket, std::move(connection));
        connect(socket, &QTcpSocket::readyRead, this, [this, raw] { read(raw); });
        connect(socket, &QTcpSocket::disconnected, this, [this, raw] { drop(raw); });
        updateDeadline(raw);
    }
}

void EndpointServer::acceptFailed(QAbstractSocket::SocketError error)
{
    // Out of file descriptors (or another resource): Qt has paused accepting. Say so once, and try again in a moment
    // rather than spin on a listening socket that stays readable.
    ++m_acceptFailures;
    if (error == QAbstractSocket::SocketResourceError && !m_toldOutOfDescriptors) {
        m_toldOutOfDescriptors = true;
        qWarning("lifeline serve: out of file descriptors with %zu connections open; new connections wait until one "
                 "closes (raise the limit with ulimit -n)",
            m_connections.size());
    }
    m_server->pauseAccepting();
    QTimer::singleShot(m_options.acceptPauseMs, this, [this] {
        if (m_server->isListening())
            m_server->resumeAccepting();
    });
}

void EndpointServer::updateDeadline(Connection* connection)
{
    using Phase = Connection::Phase;
    const HttpParser& parser = connection->parser;
    const Phase phase = connection->poll                ? Phase::Parked
        : parser.holdsNothing()                         ? Phase::Idle
        : parser.readingBody()                          ? Phase::Body
        : parser.state() == HttpParser::State::NeedMore ? Phase::Head
                                                        : connection->phase;
    if (phase == connection->phase && connection->deadline != 0)
        return;
    connection->phase = phase;
    const qint64 now = m_wall.isValid() ? m_wall.elapsed() : 0;
    switch (phase) {
    case Phase::Parked:
        connection->deadline = 0; // waiting on SQS, not on the client
        return;
    case Phase::Idle:
        connection->deadline = now + m_options.idleTimeoutMs;
        return;
    case Phase::Head:
        connection->deadline = now + m_options.headerTimeoutMs;
        return;
    case Phase::Body:
        connection->deadline = now + m_options.bodyTimeoutMs;
        return;
    }
}

void EndpointServer::sweepTimeouts()
{
    const qint64 now = m_wall.elapsed();
    std::vector<Connection*> late;
    for (auto& [socket, connection] : m_connections)
        if (!connection->dropped && !connection->closing && connection->deadline != 0 && now > connection->deadline)
            late.push_back(connection.get());
    for (Connection* connection : late) {
        ++m_timedOut;
        if (connection->phase == Connection::Phase::Idle) {
            connection->closing = true;
            connection->socket->disconnectFromHost();
            continue;
        }
        // Half a request after its time: 408, in SQS's error shape, then closed.
        const bool json = connection->parser.request().header("x-amz-target").starts_with("AmazonSQS.");
        respond(connection,
            endpoint::encodeError(json ? endpoint::Protocol::Json : endpoint::Protocol::Query,
                makeError("RequestTimeout",
                    connection->phase == Connection::Phase::Head ? "The request's head did not arrive in time."
                                                                 : "The request's body did not arrive in time.",
                    408),
                nextRequestId()),
            false);
    }
}

void EndpointServer::drop(Connection* connection)
{
    if (connection->dropped)
        return;
    connection->dropped = true;
    connection->closing = true;
    QTcpSocket* socket = connection->socket;
    socket->disconnect(this); // nothing more from it reaches the connection about to go
    if (connection->poll) {
        // The poll goes on, as a real client's dead request would (docs/decisions.md): what it receives is in
        // flight for nobody, drawn as such, and comes back after its visibility timeout.
        m_waiting.erase(connection->poll);
        m_orphaned.emplace(connection->poll, connection->actor);
        connection->poll = 0;
    }
    // Freed later: `disconnected` can fire inside a write to this very socket (respond), whose caller still holds
    // the connection.
    QMetaObject::invokeMethod(
        this,
        [this, socket] {
            // Unless stop() came first: it cleared the connections and already deletes the socket.
            if (m_connections.erase(socket))
                socket->deleteLater();
        },
        Qt::QueuedConnection);
}

void EndpointServer::read(Connection* connection)
{
    if (connection->dropped)
        return;
    const QByteArray bytes = connection->socket->readAll();
    if (connection->drainBytes > 0) {
        connection->drainBytes -= bytes.size();
        if (connection->drainBytes <= 0)
            connection->socket->disconnectFromHost();
        return;
    }
    if (connection->closing)
        return;
    HttpParser& parser = connection->parser;
    HttpParser::State state = parser.feed(std::string_view(bytes.constData(), size_t(bytes.size())));
    // Requests are answered in order: a parked long poll holds the ones behind it on the same connection.
    while (state == HttpParser::State::Complete && connection->poll == 0) {
        HttpRequest request = parser.takeRequest();
        parser.next();
        handle(connection, request);
        if (connection->closing)
            return;
        state = parser.state();
    }
    updateDeadline(connection);
    if (state == HttpParser::State::Error && connection->poll == 0) { // behind a parked poll: after its answer
        const auto refusal = endpoint::encodeHttpRefusal(parser, nextRequestId());
        if (parser.errorStatus() == 413) {
            respondWithoutClosing(connection, refusal);
            drain(connection, parser);
        } else {
            respond(connection, refusal, false);
        }
    } else if (parser.expectsContinue()) {
        connection->socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
}

std::string EndpointServer::nextRequestId()
{
    char id[40];
    const uint64_t n = ++m_requestCounter;
    std::snprintf(id, sizeof id, "00000000-0000-4000-8000-%012" PRIx64, uint64_t(n & 0xffffffffffffULL));
    return id;
}

uint32_t EndpointServer::actorFor(Connection* connection, const HttpRequest& request)
{
    if (connection->actor != kSqsActor)
        return connection->actor;
    // A row per kind of client (client_identity.h), not per connection: the CLI's one-shot calls share one.
    const std::string name = endpoint::clientIdentity(request.header("user-agent"), request.header("authorization"));
    const auto [it, fresh] = m_actorByClient.try_emplace(name, uint32_t(m_actorNames.size()));
    if (fresh) {
        m_actorNames.push_back(name);
        emit actorsChanged();
    }
    connection->actor = it->second;
    return connection->actor;
}

void EndpointServer::handle(Connection* connection, const HttpRequest& request)
{
    ++m_requests;
    catchUp();
    const std::string requestId = nextRequestId();
    auto decoded = endpoint::decodeRequest(request);
    const bool keepAlive = request.keepAlive;
    // What a web page may have sent is refused before anything else happens (request_guard.h).
    if (auto refused = endpoint::guardRequest(request, decoded.action, m_options.guard)) {
        respond(connection, endpoint::encodeError(decoded.protocol, *refused, requestId), keepAlive);
        return;
    }
    if (decoded.error) {
        respond(connection, endpoint::encodeError(decoded.protocol, *decoded.error, requestId), keepAlive);
        return;
    }
    endpoint::CallContext context;
    const std::string_view host = request.header("host");
    context.host = host.empty() ? QStringLiteral("localhost:%1").arg(port()).toStdString() : std::string(host);
    context.path = std::string(request.path());
    context.actor = actorFor(connection, request);
    auto outcome = m_service.call(decoded.action, decoded.params, context);
    if (outcome.error) {
        respond(connection, endpoint::encodeError(decoded.protocol, *outcome.error, requestId), keepAlive);
    } else if (outcome.pendingPoll) {
        connection->poll = *outcome.pendingPoll;
        connection->view = std::move(outcome.view);
        connection->protocol = decoded.protocol;
        connection->requestId = requestId;
        connection->keepAlive = keepAlive;
        m_waiting[connection->poll] = connection;
        updateDeadline(connection);
    } else {
        respond(
            connection, endpoint::encodeResult(decoded.protocol, decoded.action, outcome.output, requestId), keepAlive);
    }
    answerCompletedPolls(); // a send may have woken other connections' polls
    scheduleWake();
}

void EndpointServer::answerCompletedPolls()
{
    for (auto& done : m_engine.takeCompletedPolls()) {
        if (const auto orphan = m_orphaned.find(done.poll); orphan != m_orphaned.end()) {
            for (const auto& m : done.messages)
                m_engine.recordActorEvent(Cause::ReceivedByNobody, orphan->second, m.lane);
            m_orphaned.erase(orphan);
            continue;
        }
        const auto it = m_waiting.find(done.poll);
        if (it == m_waiting.end())
            continue;
        Connection* connection = it->second;
        m_waiting.erase(it);
        connection->poll = 0;
        const auto response = done.queueDeleted
            ? endpoint::encodeError(connection->protocol,
                makeError(codes::NonExistentQueue, "The specified queue does not exist."), connection->requestId)
            : endpoint::encodeResult(connection->protocol,
                std::string(endpoint::nameOf(endpoint::SqsAction::ReceiveMessage)),
                m_service.renderMessages(done.messages, connection->view), connection->requestId);
        respond(connection, response, connection->keepAlive);
        // Requests that arrived behind the poll on this connection go now.
        if (!connection->closing && !connection->dropped && connection->parser.state() != HttpParser::State::NeedMore)
            QMetaObject::invokeMethod(
                this,
                [this, socket = connection->socket] {
                    if (const auto c = m_connections.find(socket); c != m_connections.end())
                        read(c->second.get());
                },
                Qt::QueuedConnection);
    }
}

void EndpointServer::drain(Connection* connection, const HttpParser& parser)
{
    connection->drainBytes = int64_t(std::min<size_t>(parser.bodyBytesOutstanding(), size_t(1) << 30));
    if (connection->drainBytes == 0) {
        connection->socket->disconnectFromHost(); // after the answer, already written
        connection->closing = true;
        return;
    }
    connection->closing = true;
    QTimer::singleShot(kDrainMs, this, [this, socket = connection->socket] {
        if (const auto c = m_connections.find(socket); c != m_connections.end() && !c->second->dropped)
            socket->disconnectFromHost();
    });
}

void EndpointServer::respondWithoutClosing(Connection* connection, const HttpResponse& response)
{
    HttpResponse out = response;
    out.headers.emplace_back("Server", "Lifeline");
    const std::string bytes = out.serialize();
    connection->socket->write(bytes.data(), qint64(bytes.size()));
    connection->socket->flush();
}

void EndpointServer::respond(Connection* connection, const HttpResponse& response, bool keepAlive)
{
    if (connection->dropped)
        return; // the client is gone: nothing to write to
    HttpResponse out = response;
    out.headers.emplace_back("Server", "Lifeline");
    out.close = out.close || !keepAlive;
    const std::string bytes = out.serialize();
    connection->socket->write(bytes.data(), qint64(bytes.size()));
    // Out now, not on the next write notification: a client that half-closed after its request (shutdown(SHUT_WR),
    // legal TCP) makes Qt close the socket when it reads that end of stream, and the answer must be out by then.
    connection->socket->flush();
    if (out.close) {
        connection->closing = true;
        connection->socket->disconnectFromHost(); // after the answer is written
    }
    connection->deadline = 0; // an answer is activity: the idle clock starts again
    updateDeadline(connection);
}

} // namespace lifeline::ui
