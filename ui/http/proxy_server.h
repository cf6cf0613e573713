// The recording proxy (`lifeline proxy`): HTTP on loopback for SQS clients (http_server.h); each request is forwarded
// to the upstream (Amazon SQS, LocalStack, ElasticMQ, another endpoint), re-signed there with the user's credentials
// (net/forward.h), and its answer goes back to the client unchanged. What passed is read into an ObservedCall and
// drawn by the Observer as lanes. Each client connection has its own upstream connection, so a long poll holds up
// nobody else. Queue URLs in answers are passed through as the upstream wrote them (docs/decisions.md).
#pragma once

#include "http/http_server.h"
#include "lifeline/aws/forward.h"
#include "lifeline/aws/http_response_parser.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/observe/observer.h"
#include "lifeline/support/outcome.h"
#include "lifeline/timeline/depth_series.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QTimer>
#include <functional>
#include <map>
#include <unordered_map>

namespace lifeline::ui {

class UpstreamConnection;

// Where it listens and its client connections' limits (http_server.h), and the upstream it forwards to.
struct ProxyOptions : HttpServerOptions {
    aws::Upstream upstream;
    aws::AwsCredentials credentials;
    std::string region = "us-east-1";
    int pollAttributesMs = 1000; // GetQueueAttributes on every queue seen, this often; 0: only once per queue
    endpoint::GuardOptions guard; // what a web page may not make the proxy do with the user's credentials
    int upstreamTimeoutMs = 30000; // beyond a long poll's own wait
    // A PEM file of the CA certificates to verify a TLS upstream against instead of the system's (AWS_CA_BUNDLE, else
    // SSL_CERT_FILE, as the AWS CLI reads them); empty: the system's store.
    std::string caBundle;
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
    bool listening() const { return m_http.listening(); }
    quint16 port() const { return m_http.port(); }
    QString address() const { return m_http.address(); }
    bool exposed() const { return m_http.exposed(); }

    // One SQS call as the operator (the window's Queue panel), forwarded upstream and signed like a client's; its
    // answer is observed. `done` gets ok and "OK" or the error's code and text.
    void operatorCall(const std::string& action, const nlohmann::json& params,
        std::function<void(bool ok, const std::string& answer)> done);
    std::string queueUrl(const std::string& queue) const; // as clients named it (empty: never seen)
    // Brings the observed run's clock up to the wall clock (delays and visibility timeouts that ended).
    void catchUp();
    size_t requestsForwarded() const { return m_forwarded; }
    size_t upstreamFailures() const { return m_failures; }
    const std::map<std::string, std::vector<PolledDepth>>& polledDepth() const { return m_depth; }
    // Every queue's depth together as the upstream last reported it (dead-letter queues apart), over time: what the
    // window's depth chart shows for a proxied run (the proxy's own lanes miss what it did not see).
    const DepthSeries& polledSeries() const { return m_polledSeries; }

signals:
    void observed(); // new events in the observed run
    // A call the upstream did not answer, or answered with what cannot be read: the client got a 503 saying why;
    // this says it where the user looks (the terminal, the window's status bar).
    void callFailed(const QString& why);

private:
    using ConnectionId = HttpServer::ConnectionId;
    // A client connection's own connection to the upstream, so a long poll holds up nobody else.
    struct Client {
        UpstreamConnection* upstream = nullptr;
        bool waiting = false; // its request is upstream (the ones behind it wait: answers go back in order)
        bool gone = false; // the client went away meanwhile; freed when the answer is back (and still observed)
    };
    // A request on its way upstream: what the answer is observed with.
    struct PendingCall {
        endpoint::DecodedRequest request;
        uint32_t actor;
        bool keepAlive;
        uint64_t sendToken; // a send's messages, matched to a receive that returns one before this answer comes
        TimeMs forwardedAt; // on the proxy's clock: the upstream acted somewhere between this and its answer
    };
    void handle(ConnectionId connection, endpoint::HttpRequest&& request);
    void closed(ConnectionId connection, bool requestInHand);
    void relay(ConnectionId connection, const PendingCall& call, const aws::HttpAnswer& answer);
    // What the proxy signs with, taken out of every error text it answers or records, wherever it stands.
    std::vector<std::string> knownSecrets() const;
    void unreachable(ConnectionId connection, const PendingCall& call, const std::string& why); // 503, observed
    uint32_t actorFor(const endpoint::HttpRequest& request);
    void fetchAttributes(const std::string& queue, UpstreamConnection& upstream);
    void pollAttributes();
    void pushPolledDepth(); // the latest poll of every queue, summed, into m_polledSeries
    TimeMs wallNow() const;

    observe::Observer& m_observer;
    ProxyOptions m_options;
    HttpServer m_http;
    QTimer m_tick; // the observed clock's timeouts, in wall time
    QTimer m_poll;
    QElapsedTimer m_wall;
    std::unordered_map<ConnectionId, Client> m_clients;
    UpstreamConnection* m_pollerUpstream = nullptr;
    QList<QSslCertificate> m_trusted; // from ProxyOptions::caBundle
    std::map<std::string, std::string> m_queueUrls; // name -> the QueueUrl clients use
    std::map<std::string, bool> m_attributesAsked; // queues whose attributes the proxy asked for once
    std::map<std::string, std::vector<PolledDepth>> m_depth;
    DepthSeries m_polledSeries;
    std::map<std::string, uint32_t> m_actorByClient; // "Boto3/1.26.27 AKIA12" -> actor
    size_t m_forwarded = 0;
    size_t m_failures = 0;
};

} // namespace lifeline::ui
