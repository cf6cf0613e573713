// One keep-alive connection from the recording proxy to its upstream (plain TCP, or TLS through Qt Network with the
// system's CA store and peer verification on). Requests go one at a time in the order given; each ends in an
// answer or a failure that says why (cannot connect, TLS refused, closed, timed out, malformed). A failed or closed
// connection is opened again for the next request.
#pragma once

#include "lifeline/aws/forward.h"
#include "lifeline/aws/http_response_parser.h"
#include "lifeline/support/outcome.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSslCertificate>
#include <QTimer>
#include <deque>
#include <functional>

class QTcpSocket;

namespace lifeline::ui {

class UpstreamConnection : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(Outcome<aws::HttpAnswer>)>;
    // `trusted`: the CA certificates a TLS upstream is verified against instead of the system's (AWS_CA_BUNDLE);
    // empty: the system's.
    UpstreamConnection(const aws::Upstream& upstream, QList<QSslCertificate> trusted = {}, QObject* parent = nullptr);
    ~UpstreamConnection() override;

    // Sends `bytes` (a whole request) when the ones before it are answered; `done` gets the answer, or why not,
    // within `timeoutMs` of the request being written.
    void send(std::string bytes, int timeoutMs, Done done);
    bool busy() const { return !m_queue.empty(); }
    // Fails what is queued (with `why`) and closes.
    void abandon(const std::string& why);

private:
    struct Pending {
        std::string bytes;
        int timeoutMs;
        Done done;
    };
    void connectNow();
    void writeHead();
    void read();
    void fail(const std::string& why);
    void finish(Outcome<aws::HttpAnswer> outcome);
    void closeSocket();

    aws::Upstream m_upstream;
    QList<QSslCertificate> m_trusted;
    QTcpSocket* m_socket = nullptr;
    bool m_connected = false;
    bool m_written = false; // the head request is on the wire
    aws::HttpResponseParser m_parser;
    std::deque<Pending> m_queue;
    QTimer m_timeout;
};

} // namespace lifeline::ui
