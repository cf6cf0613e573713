// The local SQS endpoint on the network: HTTP/1.1 on a QTcpServer, on the thread of the engine it serves (so the
// window can draw that engine live, and nothing needs a lock). Time runs at wall-clock speed x `speed` on the
// engine's virtual clock. Each request: the clock catches up, the request is decoded (query or JSON), the service
// answers it; a ReceiveMessage that waits parks its connection until the engine completes the poll (a message, or
// its wait ends), so a long poll holds up nobody. Every kind of client is an actor (client_identity.h: its user
// agent and access key prefix), so the timeline shows who received what.
#pragma once

#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/outcome.h"

#include <QAbstractSocket>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>
#include <QTimer>
#include <memory>
#include <unordered_map>

class QTcpServer;
class QTcpSocket;

namespace lifeline::ui {

struct EndpointOptions {
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 9324; // 0: any free port (port() says which)
    double speed = 1.0; // virtual seconds per wall second
    endpoint::HttpLimits limits;
    endpoint::GuardOptions guard; // what browsers may not do (Origin, GET changes, foreign Host)
    // Wall-clock limits: a request's head must arrive within headerTimeoutMs of its first byte, its body within
    // bodyTimeoutMs of its head, and a connection with nothing to do closes after idleTimeoutMs (a parked long poll
    // is not idle). Tests shorten them.
    int headerTimeoutMs = 10000;
    int bodyTimeoutMs = 60000;
    int idleTimeoutMs = 60000;
    int acceptPauseMs = 1000; // out of file descriptors: accept nothing for this long, then try again
    int maxConnections = 4096;
};

class EndpointServer : public QObject {
    Q_OBJECT
public:
    explicit EndpointServer(Engine& engine, QObject* parent = nullptr);
    ~EndpointServer() override;

    // Starts listening; on failure says why in `error` (the port is taken, the address is not ours).
    Outcome<> start(const EndpointOptions& options);
    void stop();
    bool listening() const;
    quint16 port() const;
    QString address() const; // http://127.0.0.1:9324
    bool exposed() const; // bound to something other than loopback
    double speed() const { return m_options.speed; }

    // One SQS call as the operator (the window's Queue panel): the service's answer, as a client would get it.
    // Not for ReceiveMessage (its poll would wait for a connection that does not exist).
    endpoint::CallOutcome operatorCall(const std::string& action, const nlohmann::json& params);
    // The QueueUrl of a queue, as this endpoint gives it out.
    std::string queueUrl(const std::string& queue) const;
    // Brings the virtual clock up to the wall clock and answers the long polls that completed.
    void catchUp();
    const std::vector<std::string>& actorNames() const { return m_actorNames; }
    size_t requestsServed() const { return m_requests; }
    size_t openConnections() const { return m_connections.size(); }
    size_t waitingPolls() const { return m_waiting.size(); }
    // Long polls whose client went away and that still wait (docs/decisions.md: they go on, as the simulation's).
    size_t orphanedPolls() const { return m_orphaned.size(); }
    size_t timedOut() const { return m_timedOut; } // connections closed by a timeout so far
    size_t acceptFailures() const { return m_acceptFailures; } // accepts refused for want of a descriptor so far

signals:
    void actorsChanged();

private:
    struct Connection;
    void accept();
    void read(Connection* connection);
    void handle(Connection* connection, const endpoint::HttpRequest& request);
    void respond(Connection* connection, const endpoint::HttpResponse& response, bool keepAlive);
    // A 413 is written at once and the body that still comes is read and dropped, then the connection closes.
    void drain(Connection* connection, const endpoint::HttpParser& parser);
    void respondWithoutClosing(Connection* connection, const endpoint::HttpResponse& response);
    static constexpr int kDrainMs = 10000;
    void answerCompletedPolls();
    void scheduleWake();
    void drop(Connection* connection);
    void updateDeadline(Connection* connection);
    void sweepTimeouts();
    void acceptFailed(QAbstractSocket::SocketError error);
    uint32_t actorFor(Connection* connection, const endpoint::HttpRequest& request);
    std::string nextRequestId();

    Engine& m_engine;
    endpoint::SqsService m_service;
    EndpointOptions m_options;
    QTcpServer* m_server;
    QTimer m_wake; // the engine's next transition, in wall time
    QTimer m_sweep; // closes connections past their deadline
    bool m_toldOutOfDescriptors = false; // said once in the log
    QElapsedTimer m_wall;
    TimeMs m_virtualAtStart = 0;
    std::unordered_map<QTcpSocket*, std::unique_ptr<Connection>> m_connections;
    std::unordered_map<PollId, Connection*> m_waiting;
    std::unordered_map<PollId, uint32_t> m_orphaned; // a gone client's poll -> its actor
    std::vector<std::string> m_actorNames { "SQS", "operator" }; // actors 0 and 1 (event_log.h)
    std::unordered_map<std::string, uint32_t> m_actorByClient; // client identity -> actor
    size_t m_requests = 0;
    size_t m_timedOut = 0;
    size_t m_acceptFailures = 0;
    uint64_t m_requestCounter = 0;
};

} // namespace lifeline::ui
