// The recording proxy (`lifeline proxy`): HTTP on loopback for SQS clients; each request is forwarded to the
// upstream (Amazon SQS, LocalStack, ElasticMQ, another endpoint), re-signed there with the user's credentials
// (net/forward.h), and its answer goes back to the client unchanged. What passed is read into an ObservedCall and
// drawn by the Observer as lanes. Each client connection has its own upstream connection, so a long poll holds up
// nobody else. Queue URLs in answers are passed through as the upstream wrote them (docs/decisions.md).
#pragma once

#include "lifeline/depth_series.h"
#include "lifeline/endpoint/http.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/net/forward.h"
#include "lifeline/net/http_response_parser.h"
#include "lifeline/observe/observer.h"
#include "lifeline/outcome.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QObject>
#include <QTimer>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

class QTcpServer;
class QTcpSocket;

namespace lifeline::ui {

class UpstreamConnection;

struct ProxyOptions {
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = 9324; // 0: any free port
    net::Upstream upstream;
    net::AwsCredentials credentials;
    std::string region = "us-east-1";
    int pollAttributesMs = 1000; // GetQueueAttributes on every queue seen, this often; 0: only once per queue
    endpoint::HttpLimits limits;
    endpoint::GuardOptions guard; // what a web page may not make the proxy do with the user's credentials
    int upstreamTimeoutMs = 30000; // beyond a long poll's own wait
    // A client connection with nothing to do closes after idleTimeoutMs; a request begun and not complete within
    // requestTimeoutMs gets 408 and closes (a request upstream is not idle). Tests shorten them.
    int idleTimeoutMs = 60000;
    int requestTimeoutMs = 60000;
    int maxConnections = 4096;
};

// A queue's depth as the upstream reported it (the proxy's GetQueueAttributes polls).
struct PolledDepth {
    TimeMs at;
    int64_t visible, inFlight, delayed;
};

class ProxyServer : public QObject {
    Q_OBJECT
public:
    explicit ProxyServer(observe::Observer& observer, QObject* parent = nullptr);
    ~ProxyServer() override;

    Outcome<> start(const ProxyOptions& options);
    void stop();
    bool listening() const;
    quint16 port() const;
    QString address() const;
    bool exposed() const;

    // One SQS call as the operator (the window's Queue panel), forwarded upstream and signed like a client's; its
    // answer is observed. `done` gets ok and "OK" or the error's code and text.
    void operatorCall(const std::string& action, const nlohmann::json& params,
        std::function<void(bool ok, const std::string& answer)> done);
    std::string queueUrl(const std::string& queue) const; // as clients named it (empty: never seen)
    // Brings the observed run's clock up to the wall clock (delays and visibility timeouts that ended).
    void catchUp();
    const std::vector<std::string>& actorNames() const { return m_actorNames; }
    size_t requestsForwarded() const { return m_forwarded; }
    size_t upstreamFailures() const { return m_failures; }
    const std::map<std::string, std::vector<PolledDepth>>& polledDepth() const { return m_depth; }
    // Every queue's depth together as the upstream last reported it (dead-letter queues apart), over time: what the
    // window's depth chart shows for a proxied run (the proxy's own lanes miss what it did not see).
    const DepthSeries& polledSeries() const { return m_polledSeries; }

signals:
    void actorsChanged();
    void observed(); // new events in the observed run

private:
    struct Connection;
    // A request on its way upstream: what the answer is observed with.
    struct PendingCall {
        endpoint::DecodedRequest request;
        uint32_t actor;
        bool keepAlive;
    };
    void accept();
    void read(Connection* connection);
    void handle(Connection* connection, const endpoint::HttpRequest& request);
    void relay(Connection* connection, const PendingCall& call, const net::HttpAnswer& answer);
    void unreachable(Connection* connection, const PendingCall& call, const std::string& why); // 503, observed
    void answered(Connection* connection); // its request's answer is written: the next one may go
    void release(Connection* connection); // frees it on the next turn of the event loop
    void respond(Connection* connection, const endpoint::HttpResponse& response, bool keepAlive);
    void drop(Connection* connection);
    uint32_t actorFor(const endpoint::HttpRequest& request);
    void fetchAttributes(const std::string& queue, UpstreamConnection& upstream);
    void pollAttributes();
    void pushPolledDepth();
    void sweepTimeouts(); // closes idle connections and answers 408 to requests that stalled // the latest poll of
                          // every queue, summed, into m_polledSeries
    TimeMs wallNow() const;
    std::string nextRequestId();

    observe::Observer& m_observer;
    ProxyOptions m_options;
    QTcpServer* m_server;
    QTimer m_tick; // the observed clock's timeouts, in wall time
    QTimer m_poll;
    QTimer m_sweep;
    QElapsedTimer m_wall;
    std::unordered_map<QTcpSocket*, std::unique_ptr<Connection>> m_connections;
    UpstreamConnection* m_pollerUpstream = nullptr;
    std::map<std::string, std::string> m_queueUrls; // name -> the QueueUrl clients use
    std::map<std::string, bool> m_attributesAsked; // queues whose attributes the proxy asked for once
    std::map<std::string, std::vector<PolledDepth>> m_depth;
    DepthSeries m_polledSeries;
    std::map<std::string, uint32_t> m_actorByClient; // "Boto3/1.26.27 AKIA12" -> actor
    std::vector<std::string> m_actorNames { "SQS", "operator" };
    size_t m_forwarded = 0;
    size_t m_failures = 0;
    uint64_t m_requestCounter = 0;
};

} // namespace lifeline::ui
