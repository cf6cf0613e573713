#include "http/upstream_connection.h"

#include <QSslConfiguration>
#include <QSslError>
#include <QSslSocket>
#include <QTcpSocket>

namespace lifeline::ui {

UpstreamConnection::UpstreamConnection(const aws::Upstream& upstream, QList<QSslCertificate> trusted, QObject* parent)
    : QObject(parent)
    , m_upstream(upstream)
    , m_trusted(std::move(trusted))
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] { fail("the upstream did not answer in time"); });
}

UpstreamConnection::~UpstreamConnection()
{
    closeSocket();
}

void UpstreamConnection::send(std::string bytes, int timeoutMs, Done done)
{
    m_queue.push_back(Pending { std::move(bytes), timeoutMs, std::move(done) });
    if (m_queue.size() == 1)
        writeHead();
}

void UpstreamConnection::abandon(const std::string& why)
{
    closeSocket();
    auto queue = std::move(m_queue);
    m_queue.clear();
    for (auto& pending : queue)
        pending.done(Failure { why });
}

void UpstreamConnection::closeSocket()
{
    m_timeout.stop();
    if (!m_socket)
        return;
    m_socket->disconnect(this);
    m_socket->abort();
    m_socket->deleteLater();
    m_socket = nullptr;
    m_connected = false;
    m_written = false;
    m_parser = aws::HttpResponseParser();
}

void UpstreamConnection::connectNow()
{
    const QString host = QString::fromStdString(m_upstream.host);
    if (m_upstream.tls) {
        auto* socket = new QSslSocket(this);
        m_socket = socket;
        if (!m_trusted.isEmpty()) { // a company's CA, as the AWS CLI takes it (AWS_CA_BUNDLE)
            QSslConfiguration configuration = socket->sslConfiguration();
            configuration.setCaCertificates(m_trusted);
            socket->setSslConfiguration(configuration);
        }
        // Verification stays on (QSslSocket's default for a client), against the system's CA store: a certificate
        // that does not verify fails the request with its reason.
        connect(socket, &QSslSocket::encrypted, this, [this] {
            m_connected = true;
            writeHead();
        });
        connect(socket, &QSslSocket::sslErrors, this, [this](const QList<QSslError>& errors) {
            fail("the upstream's TLS certificate was refused: "
                + (errors.isEmpty() ? std::string("unknown reason") : errors.first().errorString().toStdString()));
        });
        socket->connectToHostEncrypted(host, m_upstream.port);
    } else {
        m_socket = new QTcpSocket(this);
        connect(m_socket, &QTcpSocket::connected, this, [this] {
            m_connected = true;
            writeHead();
        });
        m_socket->connectToHost(host, m_upstream.port);
    }
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &UpstreamConnection::read);
    connect(m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError error) {
        if (error == QAbstractSocket::RemoteHostClosedError && m_written) {
            read(); // an answer that runs to the close ends here
            if (m_socket && m_parser.finish() == aws::HttpResponseParser::State::Complete) {
                auto answer = m_parser.takeAnswer();
                closeSocket();
                finish(std::move(answer));
                return;
            }
        }
        if (!m_socket)
            return;
        if (error == QAbstractSocket::RemoteHostClosedError && !m_written) {
            closeSocket(); // an idle keep-alive connection the upstream closed: open a new one for what is queued
            if (!m_queue.empty())
                writeHead();
            return;
        }
        fail("the upstream could not be reached: " + m_socket->errorString().toStdString());
    });
}

void UpstreamConnection::writeHead()
{
    if (m_queue.empty() || m_written)
        return;
    if (!m_socket) {
        connectNow();
        return;
    }
    if (!m_connected)
        return;
    const Pending& head = m_queue.front();
    m_written = true;
    m_socket->write(head.bytes.data(), qint64(head.bytes.size()));
    // Out now rather than on the next write notification: that would cost enabling and disabling the notifier,
    // two more system calls a request (measured: lifeline-bench proxy).
    m_socket->flush();
    m_timeout.start(head.timeoutMs);
}

void UpstreamConnection::read()
{
    if (!m_socket || !m_written)
        return;
    const QByteArray bytes = m_socket->readAll();
    const auto state = m_parser.feed(std::string_view(bytes.constData(), size_t(bytes.size())));
    if (state == aws::HttpResponseParser::State::Error) {
        fail("the upstream's answer could not be read: " + m_parser.errorText());
        return;
    }
    if (state != aws::HttpResponseParser::State::Complete)
        return;
    aws::HttpAnswer answer = m_parser.takeAnswer();
    if (answer.keepAlive) {
        m_parser.next();
        m_written = false;
        m_timeout.stop();
    } else {
        closeSocket();
    }
    finish(std::move(answer));
}

void UpstreamConnection::fail(const std::string& why)
{
    closeSocket();
    if (m_queue.empty())
        return;
    // The request that was on the wire fails; the ones behind it get a fresh connection.
    Pending head = std::move(m_queue.front());
    m_queue.pop_front();
    head.done(Failure { why });
    if (!m_queue.empty())
        writeHead();
}

void UpstreamConnection::finish(Outcome<aws::HttpAnswer> outcome)
{
    if (m_queue.empty())
        return;
    Pending head = std::move(m_queue.front());
    m_queue.pop_front();
    head.done(std::move(outcome));
    if (!m_queue.empty())
        writeHead();
}

} // namespace lifeline::ui
