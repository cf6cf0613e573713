#include "http/http_server.h"

#include "http/client_socket.h"
#include "lifeline/endpoint/protocol.h"

#include <QTcpServer>
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

namespace lifeline::ui {

using endpoint::HttpParser;
using endpoint::HttpRequest;
using endpoint::HttpResponse;

// Hands out the accepted descriptors themselves, for ClientSocket.
class HttpServer::Listener : public QTcpServer {
public:
    using QTcpServer::QTcpServer;
    std::vector<qintptr> accepted;

protected:
    void incomingConnection(qintptr descriptor) override { accepted.push_back(descriptor); }
};

struct HttpServer::Connection {
    ConnectionId id = 0;
    ClientSocket* socket = nullptr;
    HttpParser parser;
    bool inHand = false; // a request went to the owner and is not answered yet
    bool reading = false; // inside read(): an answer given meanwhile needs no read of its own
    bool closing = false;
    bool dropped = false; // its socket disconnected: freed on the next turn of the event loop, never inside a call
    int64_t drainBytes = 0; // refused with 413 while its body still comes: read and thrown away, then closed
    bool writeBlocked = false; // its client reads none of its answers: no more of its requests until they drain
    // An answer made while it is read (HttpResponse::bodyParts): its next parts, asked for as the client reads the
    // ones before; the requests behind it wait, as behind one in hand.
    std::function<std::optional<std::string>()> parts;
    bool closeAfterParts = false;
    enum class Phase { Idle, Head, Body, InHand } phase = Phase::Idle;
    qint64 deadline = 0; // wall ms (m_wall) past which it is closed; 0: none
};

HttpServer::HttpServer(Identity identity, RequestHandler onRequest, ClosedHandler onClosed, QObject* parent)
    : QObject(parent)
    , m_identity(identity)
    , m_onRequest(std::move(onRequest))
    , m_onClosed(std::move(onClosed))
    , m_server(new Listener(this))
{
    connect(&m_sweep, &QTimer::timeout, this, &HttpServer::sweepTimeouts);
    connect(m_server, &QTcpServer::newConnection, this, &HttpServer::accept);
    connect(m_server, &QTcpServer::acceptError, this, &HttpServer::acceptFailed);
}

HttpServer::~HttpServer()
{
    close();
}

Outcome<> HttpServer::listen(const HttpServerOptions& options)
{
    close();
    m_options = options;
    // Below the process's descriptor limit, with room for its own files and sockets: a cap above it had accept fail
    // over and over with every descriptor taken, and nobody served.
    rlimit limit {};
    m_maxConnections = options.maxConnections;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        m_maxConnections = std::clamp(int(std::min<rlim_t>(limit.rlim_cur, 1 << 30)) - 64, 16, options.maxConnections);
    m_server->setListenBacklogSize(1024); // a thousand long-pollers may connect at once
    m_server->setMaxPendingConnections(1024);
    if (!m_server->listen(options.bind, options.port))
        return Failure { tr("cannot listen on %1:%2: %3")
                             .arg(options.bind.toString())
                             .arg(options.port)
                             .arg(m_server->errorString())
                             .toStdString() };
    m_wall.start();
    const int shortest = std::min({ options.headerTimeoutMs, options.bodyTimeoutMs, options.idleTimeoutMs });
    m_sweep.start(std::clamp(shortest / 4, 10, 1000));
    return {};
}

void HttpServer::close()
{
    m_sweep.stop();
    for (auto& [id, connection] : m_connections) {
        connection->socket->disconnect(this);
        connection->socket->abort();
        connection->socket->deleteLater();
    }
    m_connections.clear();
    if (m_server->isListening())
        m_server->close();
}

bool HttpServer::listening() const
{
    return m_server->isListening();
}

quint16 HttpServer::port() const
{
    return m_server->serverPort();
}

QString HttpServer::address() const
{
    QString host = m_server->serverAddress().toString();
    if (m_server->serverAddress().protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

bool HttpServer::exposed() const
{
    return listening() && !m_server->serverAddress().isLoopback();
}

std::string HttpServer::nextRequestId()
{
    char id[40];
    // The first group this run's own (RequestIds go into clients' logs: one from before a restart is not repeated).
    std::snprintf(id, sizeof id, "%08" PRIx32 "-0000-4000-%c000-%012" PRIx64, m_runTag, m_identity.requestIdGroup,
        uint64_t(++m_requestCounter & 0xffffffffffffULL));
    return id;
}

void HttpServer::accept()
{
    std::vector<qintptr> accepted;
    accepted.swap(m_server->accepted);
    for (const qintptr descriptor : accepted) {
        if (int(m_connections.size()) >= m_maxConnections && !shedOldestIdle()) {
            ::close(int(descriptor)); // every connection has a request under way: the newcomer waits for none of them
            continue;
        }
        auto connection = std::make_unique<Connection>();
        connection->id = ++m_lastId;
        connection->socket = new ClientSocket(descriptor, kReadBufferBytes, this);
        connection->parser = HttpParser(m_options.limits);
        ClientSocket* socket = connection->socket;
        socket->setLowDelay(); // an answer is one write: send it now
        Connection* raw = connection.get();
        m_connections.emplace(raw->id, std::move(connection));
        // Raw is safe: drop() and close() disconnect the socket before the connection goes.
        connect(socket, &ClientSocket::readyRead, this, [this, raw] { read(raw); });
        connect(socket, &ClientSocket::disconnected, this, [this, raw] { drop(raw); });
        connect(socket, &ClientSocket::bytesWritten, this, [this, raw] {
            if (raw->parts) {
                sendParts(raw);
                if (!raw->parts && !raw->dropped)
                    takeNext(raw); // its answer is out
            }
            if (raw->writeBlocked && raw->socket->bytesToWrite() <= kMaxUnreadAnswerBytes / 4) {
                raw->writeBlocked = false;
                readLater(raw);
            }
        });
        updateDeadline(raw);
    }
}

bool HttpServer::shedOldestIdle()
{
    // At the cap, a connection that holds no request (a keep-alive left open, a client that connected and said
    // nothing) makes way for a new one, the oldest first: a crowd of idle sockets must not lock everyone out.
    Connection* oldest = nullptr;
    for (const auto& [id, connection] : m_connections)
        if (!connection->dropped && !connection->inHand && !connection->parts
            && connection->phase == Connection::Phase::Idle && (!oldest || id < oldest->id))
            oldest = connection.get();
    if (!oldest)
        return false;
    ++m_shed;
    dropAndClose(oldest);
    return true;
}

void HttpServer::acceptFailed(QAbstractSocket::SocketError error)
{
    // Out of file descriptors (or another resource): Qt has paused accepting. Say so once, and try again in a moment
    // rather than spin on a listening socket that stays readable.
    ++m_acceptFailures;
    if (error == QAbstractSocket::SocketResourceError && !m_toldOutOfDescriptors) {
        m_toldOutOfDescriptors = true;
        qWarning("%s: out of file descriptors with %zu connections open; new connections wait until one closes "
                 "(raise the limit with ulimit -n)",
            m_identity.command, m_connections.size());
    }
    m_server->pauseAccepting();
    QTimer::singleShot(m_options.acceptPauseMs, this, [this] {
        if (m_server->isListening())
            m_server->resumeAccepting();
    });
}

void HttpServer::read(Connection* connection)
{
    if (connection->dropped || connection->writeBlocked)
        return; // what it sends waits in the socket's bounded read buffer, then in the kernel's: the client slows
    const std::string bytes = connection->socket->readAll();
    if (connection->drainBytes > 0) {
        connection->drainBytes -= int64_t(bytes.size());
        if (connection->drainBytes <= 0 || connection->socket->peerFinished())
            connection->socket->disconnectFromHost();
        return;
    }
    if (connection->closing)
        return;
    HttpParser& parser = connection->parser;
    HttpParser::State state = parser.feed(bytes);
    // Requests are answered in order: one in hand holds up the ones behind it on the same connection. Answers its
    // client does not read stop it (they would pile up in memory), and a turn takes a few of its requests only,
    // so that one client pipelining thousands does not keep the others waiting.
    connection->reading = true;
    int taken = 0;
    while (state == HttpParser::State::Complete && !connection->inHand && !connection->parts) {
        if (connection->socket->bytesToWrite() > kMaxUnreadAnswerBytes) {
            connection->writeBlocked = true;
            break;
        }
        if (++taken > kRequestsPerTurn) {
            connection->reading = false;
            readLater(connection);
            return;
        }
        HttpRequest request = parser.takeRequest();
        parser.next();
        connection->inHand = true;
        const ConnectionId id = connection->id;
        m_onRequest(id, std::move(request));
        if (!m_connections.count(id))
            return; // the owner closed the server from its handler
        if (connection->closing || connection->dropped) {
            connection->reading = false;
            return;
        }
        state = parser.state();
    }
    connection->reading = false;
    updateDeadline(connection);
    if (connection->parts)
        return; // the rest is read when its answer is out
    if (connection->inHand) {
        if (connection->socket->peerFinished() && m_onEndOfStream && m_onEndOfStream(connection->id))
            dropAndClose(connection); // the owner gives the request up
        return; // the rest is read when it is answered
    }
    if (state == HttpParser::State::Error) {
        refuse(connection);
    } else if (parser.expectsContinue()) {
        connection->socket->write(std::string_view("HTTP/1.1 100 Continue\r\n\r\n"));
        parser.continueSent();
    }
    closeIfFinished(connection);
}

void HttpServer::closeIfFinished(Connection* connection)
{
    // The client has said all it will say and every request it made is answered: nothing more can come.
    if (connection->socket->peerFinished() && !connection->inHand && !connection->parts && !connection->closing
        && !connection->dropped && connection->parser.state() != HttpParser::State::Complete) {
        connection->closing = true;
        connection->socket->disconnectFromHost(); // after the answers, already written
    }
}

void HttpServer::dropAndClose(Connection* connection)
{
    ClientSocket* socket = connection->socket;
    drop(connection);
    socket->abort();
}

void HttpServer::readLater(Connection* connection)
{
    QMetaObject::invokeMethod(
        this,
        [this, id = connection->id] {
            if (const auto c = m_connections.find(id); c != m_connections.end())
                read(c->second.get());
        },
        Qt::QueuedConnection);
}

void HttpServer::refuse(Connection* connection)
{
    const HttpParser& parser = connection->parser;
    const HttpResponse refusal = endpoint::encodeHttpRefusal(parser, nextRequestId());
    if (parser.errorStatus() != 413) {
        write(connection, refusal, false);
        return;
    }
    // A 413 is written at once and the body that still comes is read and dropped, then the connection closes.
    send(connection, refusal, true);
    connection->closing = true;
    connection->drainBytes = int64_t(std::min<size_t>(parser.bodyBytesOutstanding(), size_t(1) << 30));
    if (connection->drainBytes == 0) {
        connection->socket->disconnectFromHost(); // after the answer, already written
        return;
    }
    QTimer::singleShot(kDrainMs, this, [this, id = connection->id] {
        if (const auto c = m_connections.find(id); c != m_connections.end() && !c->second->dropped)
            c->second->socket->disconnectFromHost();
    });
}

void HttpServer::answer(ConnectionId id, const HttpResponse& response, bool keepAlive)
{
    const auto it = m_connections.find(id);
    if (it == m_connections.end() || it->second->dropped)
        return; // the client is gone: nothing to write to
    Connection* connection = it->second.get();
    connection->inHand = false;
    write(connection, response, keepAlive);
    if (!connection->parts)
        takeNext(connection);
}

void HttpServer::takeNext(Connection* connection)
{
    // Requests that arrived behind the one answered go now.
    if (!connection->closing && !connection->reading
        && (connection->parser.state() != HttpParser::State::NeedMore || connection->parser.expectsContinue()))
        readLater(connection);
    else if (!connection->reading)
        closeIfFinished(connection);
}

bool HttpServer::send(Connection* connection, const HttpResponse& response, bool close)
{
    HttpResponse out = response;
    if (m_identity.serverHeader)
        out.headers.emplace_back("Server", m_identity.serverHeader);
    out.close = out.close || close;
    connection->socket->write(out.serialize());
    return out.close;
}

void HttpServer::write(Connection* connection, const HttpResponse& response, bool keepAlive)
{
    if (connection->dropped)
        return;
    const bool close = send(connection, response, !keepAlive);
    if (response.bodyParts) {
        connection->parts = response.bodyParts;
        connection->closeAfterParts = close;
        sendParts(connection);
    } else if (close) {
        connection->closing = true;
        connection->socket->disconnectFromHost(); // after the answer is written
    }
    connection->deadline = 0; // an answer is activity: the idle clock starts again
    updateDeadline(connection);
}

void HttpServer::sendParts(Connection* connection)
{
    // A few parts ahead of what the client has read, no more: four clients peeking at a hundred 1 MiB messages
    // (6 MiB each in XML, written in slices) hold a few hundred KiB each, not the 600 MiB.
    while (connection->parts && !connection->dropped && connection->socket->bytesToWrite() < kPartsAheadBytes) {
        std::optional<std::string> part = connection->parts();
        if (!part) { // what it read is gone: the client sees the answer cut, not a shorter one that looks whole
            connection->parts = nullptr;
            dropAndClose(connection);
            return;
        }
        // Framed around the part, not copied into a frame.
        connection->socket->write(endpoint::HttpResponse::chunkHead(part->size()));
        const bool last = part->empty();
        connection->socket->write(std::move(*part));
        connection->socket->write(std::string_view("\r\n"));
        if (!last)
            continue;
        connection->parts = nullptr;
        if (connection->closeAfterParts) {
            connection->closing = true;
            connection->socket->disconnectFromHost();
        }
    }
    connection->deadline = 0; // the client reads: the idle clock starts again
    updateDeadline(connection);
}

void HttpServer::drop(Connection* connection)
{
    if (connection->dropped)
        return;
    connection->dropped = true;
    connection->closing = true;
    ClientSocket* socket = connection->socket;
    socket->disconnect(this); // nothing more from it reaches the connection about to go
    if (m_onClosed)
        m_onClosed(connection->id, connection->inHand);
    // Freed later: `disconnected` can fire inside a write to this very socket, whose caller still holds the
    // connection.
    QMetaObject::invokeMethod(
        this,
        [this, id = connection->id, socket] {
            // Unless close() came first: it cleared the connections and already deletes the socket.
            if (m_connections.erase(id))
                socket->deleteLater();
        },
        Qt::QueuedConnection);
}

void HttpServer::updateDeadline(Connection* connection)
{
    using Phase = Connection::Phase;
    const HttpParser& parser = connection->parser;
    const Phase phase = connection->inHand              ? Phase::InHand
        : parser.holdsNothing()                         ? Phase::Idle
        : parser.readingBody()                          ? Phase::Body
        : parser.state() == HttpParser::State::NeedMore ? Phase::Head
                                                        : connection->phase;
    if (phase == connection->phase && connection->deadline != 0)
        return;
    connection->phase = phase;
    const qint64 now = m_wall.isValid() ? m_wall.elapsed() : 0;
    switch (phase) {
    case Phase::InHand:
        connection->deadline = 0; // waiting on the owner (SQS, the upstream), not on the client
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

void HttpServer::sweepTimeouts()
{
    const qint64 now = m_wall.elapsed();
    std::vector<Connection*> late;
    for (auto& [id, connection] : m_connections)
        if (!connection->dropped && !connection->closing && connection->deadline != 0 && now > connection->deadline)
            late.push_back(connection.get());
    for (Connection* connection : late) {
        ++m_timedOut;
        if (connection->parts) { // a client that stopped reading its answer: nothing more can be said to it
            dropAndClose(connection);
            continue;
        }
        if (connection->phase == Connection::Phase::Idle) {
            connection->closing = true;
            connection->socket->disconnectFromHost();
            continue;
        }
        // Half a request after its time: 408, in SQS's error shape, then closed.
        const bool json = connection->parser.request().header("x-amz-target").starts_with("AmazonSQS.");
        write(connection,
            endpoint::encodeError(json ? endpoint::Protocol::Json : endpoint::Protocol::Query,
                makeError("RequestTimeout",
                    connection->phase == Connection::Phase::Head ? "The request's head did not arrive in time."
                                                                 : "The request's body did not arrive in time.",
                    408),
                nextRequestId()),
            false);
    }
}

} // namespace lifeline::ui
