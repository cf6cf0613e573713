// The HTTP/1.1 side of the local endpoint and of the recording proxy: one QTcpServer, its client connections, their
// parsers and their timeouts. A complete request goes to the owner's handler, which answers it now or later
// (a parked long poll, a request gone upstream); requests behind it on the same connection wait for that answer, so
// answers go back in order. What both servers must do alike lives here once: a 413 whose refused body is read and
// dropped before closing (closing at once would make the client's TCP stack answer the rest with a reset that loses
// the 413), 408 for a head or body that stalls, idle connections closed, at most so many connections, out of file
// descriptors a pause in accepting instead of a spin on a listening socket that stays readable, and a client that
// half-closes after its requests (it sends no more, but reads) answered however late, then closed (ClientSocket).
#pragma once

#include "http/run_seed.h"
#include "lifeline/endpoint/http.h"
#include "lifeline/support/outcome.h"

#include <QAbstractSocket>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <unordered_map>

namespace lifeline::ui {

struct HttpServerOptions {
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 9324; // 0: any free port (port() says which)
    endpoint::HttpLimits limits;
    // Wall-clock limits: a request's head must arrive within headerTimeoutMs of its first byte, its body within
    // bodyTimeoutMs of its head, and a connection with nothing to do closes after idleTimeoutMs (one whose request
    // the owner has not answered yet is not idle). Tests shorten them.
    int headerTimeoutMs = 10000;
    int bodyTimeoutMs = 60000;
    int idleTimeoutMs = 60000;
    int acceptPauseMs = 1000; // out of file descriptors: accept nothing for this long, then try again
    int maxConnections = 4096;
};

class HttpServer : public QObject {
    Q_OBJECT
public:
    using ConnectionId = uint64_t;
    struct Identity {
        const char* command; // "lifeline serve": what the out-of-descriptors warning names
        char requestIdGroup; // the fourth group's first digit of the RequestIds it makes: '8' endpoint, '9' proxy
        const char* serverHeader; // a Server header on every answer; nullptr: none (the proxy passes answers on)
    };
    // A request to answer with answer(); the connection takes no other until then.
    using RequestHandler = std::function<void(ConnectionId, endpoint::HttpRequest&&)>;
    // The connection closed (the client went away, or a timeout or an answer closed it); requestInHand: with its
    // request unanswered (answer() will find nobody to write to). Not called by close().
    using ClosedHandler = std::function<void(ConnectionId, bool requestInHand)>;
    // The client ended its stream (it sends no more, though it may still read) while its request is in hand: true
    // gives the request up and closes the connection now (ClosedHandler follows, with requestInHand); false, or no
    // handler, keeps the connection open for the answer.
    using EndOfStreamHandler = std::function<bool(ConnectionId)>;

    HttpServer(Identity identity, RequestHandler onRequest, ClosedHandler onClosed, QObject* parent = nullptr);
    ~HttpServer() override;
    void onEndOfStream(EndOfStreamHandler handler) { m_onEndOfStream = std::move(handler); }

    // Starts listening; on failure says why (the port is taken, the address is not ours).
    Outcome<> listen(const HttpServerOptions& options);
    // Closes every connection (no ClosedHandler calls: the owner forgets its own) and stops listening.
    void close();
    bool listening() const;
    quint16 port() const;
    QString address() const; // http://127.0.0.1:9324
    bool exposed() const; // bound to something other than loopback

    // The answer to the connection's request in hand; the requests behind it go next. keepAlive false closes the
    // connection once it is written. Nothing happens when the client is gone.
    void answer(ConnectionId connection, const endpoint::HttpResponse& response, bool keepAlive);
    std::string nextRequestId();

    size_t openConnections() const { return m_connections.size(); }
    size_t timedOut() const { return m_timedOut; } // connections closed by a timeout so far
    size_t acceptFailures() const { return m_acceptFailures; } // accepts refused for want of a descriptor so far
    size_t connectionsShed() const { return m_shed; } // idle ones closed for new ones at the cap
    int maxConnections() const { return m_maxConnections; }

private:
    struct Connection;
    class Listener;
    void accept();
    void acceptFailed(QAbstractSocket::SocketError error);
    void read(Connection* connection);
    void readLater(Connection* connection); // on the next turn of the event loop, if it is still there
    void refuse(Connection* connection); // the parser's error: 4xx, then closed
    // Answers and, unless keepAlive, closes once it is out; its deadline starts again.
    void write(Connection* connection, const endpoint::HttpResponse& response, bool keepAlive);
    // Of an answer made while it is read, as far as the client keeps up; the caller takes the next request after it.
    void sendParts(Connection* connection);
    void takeNext(Connection* connection); // its answer is out: the requests behind it, or closed if it is done
    // Only the bytes (with the Server header); true when they say Connection: close.
    bool send(Connection* connection, const endpoint::HttpResponse& response, bool close);
    void drop(Connection* connection);
    void dropAndClose(Connection* connection);
    void closeIfFinished(Connection* connection); // its client sends no more and is owed nothing: closed
    bool shedOldestIdle();
    void updateDeadline(Connection* connection);
    void sweepTimeouts();
    static constexpr int kDrainMs = 10000;
    // A client that reads none of its answers: past this much unread, its next requests wait until they drain.
    static constexpr qint64 kMaxUnreadAnswerBytes = qint64(4) << 20;
    static constexpr int kRequestsPerTurn = 64; // of one connection's pipelined requests, before the others' turn
    static constexpr qint64 kReadBufferBytes = qint64(1) << 20; // read ahead of the parser at most
    static constexpr qint64 kPartsAheadBytes = qint64(256) << 10; // of an answer made while it is read

    Identity m_identity;
    RequestHandler m_onRequest;
    ClosedHandler m_onClosed;
    EndOfStreamHandler m_onEndOfStream;
    HttpServerOptions m_options;
    Listener* m_server;
    QTimer m_sweep; // closes connections past their deadline
    QElapsedTimer m_wall;
    bool m_toldOutOfDescriptors = false; // said once in the log
    std::unordered_map<ConnectionId, std::unique_ptr<Connection>> m_connections;
    int m_maxConnections = 4096; // the option's, below the descriptor limit
    size_t m_shed = 0; // idle connections closed to make way for new ones
    ConnectionId m_lastId = 0;
    size_t m_timedOut = 0;
    size_t m_acceptFailures = 0;
    uint64_t m_requestCounter = 0;
    uint32_t m_runTag = uint32_t(freshRunSeed()); // the RequestIds' first group
};

} // namespace lifeline::ui
