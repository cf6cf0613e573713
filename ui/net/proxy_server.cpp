#include "net/proxy_server.h"

#include "lifeline/endpoint/client_identity.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/net/query_answer.h"
#include "lifeline/result.h"
#include "net/upstream_connection.h"

#include <QDateTime>
#include <QTcpServer>
#include <QTcpSocket>
#include <cinttypes>
#include <cstdio>
#include <set>

namespace lifeline::ui {

using endpoint::HttpParser;
using endpoint::HttpRequest;
using endpoint::HttpResponse;
using nlohmann::json;

struct ProxyServer::Connection {
    QTcpSocket* socket = nullptr;
    HttpParser parser;
    UpstreamConnection* upstream = nullptr; // this client's own connection to the upstream
    bool waiting = false; // a request is upstream: the ones behind it wait (answers go back in order)
    bool dropped = false; // the client went away; freed once nothing is upstream
    bool closing = false;
    qint64 lastActivity = 0; // wall ms (m_wall): the last bytes in or the last answer out
};

namespace {
// The answer's headers a client reads; hop-by-hop ones (Connection, Transfer-Encoding, Keep-Alive) are the proxy's own.
constexpr const char* kAnswerHeaders[] = { "content-type", "x-amzn-requestid", "x-amzn-query-error", "date" };

json answerAsJson(const net::HttpAnswer& answer)
{
    if (answer.header("content-type").find("json") != std::string_view::npos) {
        json parsed = json::parse(answer.body, nullptr, false);
        return parsed.is_discarded() ? json::object() : parsed;
    }
    return net::queryAnswerAsJson(answer.body);
}

int64_t waitSeconds(const json& params)
{
    const auto it = params.find("WaitTimeSeconds");
    if (it == params.end())
        return 20; // the queue's ReceiveMessageWaitTimeSeconds may hold it: at most 20
    if (it->is_number_integer())
        return std::clamp<int64_t>(it->get<int64_t>(), 0, 20);
    return 20;
}
} // namespace

ProxyServer::ProxyServer(observe::Observer& observer, QObject* parent)
    : QObject(parent)
    , m_observer(observer)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &ProxyServer::accept);
    connect(&m_tick, &QTimer::timeout, this, &ProxyServer::catchUp);
    connect(&m_poll, &QTimer::timeout, this, &ProxyServer::pollAttributes);
    connect(&m_sweep, &QTimer::timeout, this, &ProxyServer::sweepTimeouts);
}

ProxyServer::~ProxyServer()
{
    stop();
}

Outcome<> ProxyServer::start(const ProxyOptions& options)
{
    stop();
    m_options = options;
    m_server->setListenBacklogSize(1024);
    if (!m_server->listen(options.bind, options.port))
        return Failure { tr("cannot listen on %1:%2: %3")
                             .arg(options.bind.toString())
                             .arg(options.port)
                             .arg(m_server->errorString())
                             .toStdString() };
    m_wall.start();
    m_pollerUpstream = new UpstreamConnection(options.upstream, this);
    m_tick.start(100);
    m_sweep.start(std::clamp(std::min(options.idleTimeoutMs, options.requestTimeoutMs) / 4, 10, 1000));
    if (options.pollAttributesMs > 0)
        m_poll.start(options.pollAttributesMs);
    return {};
}

void ProxyServer::stop()
{
    m_tick.stop();
    m_poll.stop();
    m_sweep.stop();
    // Taken out first: abandoning an upstream answers its callback, which must find no connection to write to.
    auto connections = std::move(m_connections);
    m_connections.clear();
    for (auto& [socket, connection] : connections) {
        socket->disconnect(this);
        socket->abort();
        socket->deleteLater();
        connection->upstream->abandon("the proxy stopped");
        connection->upstream->deleteLater();
    }
    if (m_pollerUpstream) {
        m_pollerUpstream->abandon("the proxy stopped");
        m_pollerUpstream->deleteLater();
        m_pollerUpstream = nullptr;
    }
    if (m_server->isListening())
        m_server->close();
}

bool ProxyServer::listening() const
{
    return m_server->isListening();
}

quint16 ProxyServer::port() const
{
    return m_server->serverPort();
}

QString ProxyServer::address() const
{
    QString host = m_server->serverAddress().toString();
    if (m_server->serverAddress().protocol() == QAbstractSocket::IPv6Protocol)
        host = QLatin1Char('[') + host + QLatin1Char(']');
    return QStringLiteral("http://%1:%2").arg(host).arg(port());
}

bool ProxyServer::exposed() const
{
    return listening() && !m_server->serverAddress().isLoopback();
}

TimeMs ProxyServer::wallNow() const
{
    return m_wall.isValid() ? TimeMs(m_wall.elapsed()) : 0;
}

void ProxyServer::catchUp()
{
    const size_t before = m_observer.engine().log().size();
    m_observer.advanceTo(wallNow());
    if (!m_depth.empty())
        m_polledSeries.advance(m_observer.engine().now());
    if (m_observer.engine().log().size() != before)
        emit observed();
}

std::string ProxyServer::nextRequestId()
{
    char id[40];
    std::snprintf(
        id, sizeof id, "00000000-0000-4000-9000-%012" PRIx64, uint64_t(++m_requestCounter & 0xffffffffffffULL));
    return id;
}

void ProxyServer::accept()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        if (int(m_connections.size()) >= m_options.maxConnections) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        auto connection = std::make_unique<Connection>();
        connection->lastActivity = wallNow();
        connection->socket = socket;
        connection->parser = HttpParser(m_options.limits);
        connection->upstream = new UpstreamConnection(m_options.upstream, this);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        Connection* raw = connection.get();
        m_connections.emplace(socket, std::move(connection));
        connect(socket, &QTcpSocket::readyRead, this, [this, raw] { read(raw); });
        connect(socket, &QTcpSocket::disconnected, this, [this, raw] { drop(raw); });
    }
}

void ProxyServer::drop(Connection* connection)
{
    if (connection->dropped)
        return;
    connection->dropped = true;
    connection->socket->disconnect(this);
    if (connection->waiting)
        return; // freed when its upstream answer comes (what the upstream did is still observed)
    release(connection);
}

void ProxyServer::release(Connection* connection)
{
    QMetaObject::invokeMethod(
        this,
        [this, socket = connection->socket] {
            const auto it = m_connections.find(socket);
            if (it == m_connections.end())
                return;
            it->second->upstream->deleteLater();
            m_connections.erase(it);
            socket->deleteLater();
        },
        Qt::QueuedConnection);
}

void ProxyServer::read(Connection* connection)
{
    if (connection->dropped || connection->closing)
        return;
    const QByteArray bytes = connection->socket->readAll();
    connection->lastActivity = wallNow();
    HttpParser& parser = connection->parser;
    auto state = parser.feed(std::string_view(bytes.constData(), size_t(bytes.size())));
    // Requests are answered in order: one upstream at a time, the ones behind it wait for its answer. A request
    // refused here (a browser's) is answered at once and the next one goes on.
    while (!connection->waiting && !connection->closing && state == HttpParser::State::Complete) {
        HttpRequest request = parser.takeRequest();
        parser.next();
        handle(connection, request);
        state = parser.state();
    }
    if (connection->waiting || connection->closing)
        return; // parsed on when the answer in flight is back
    if (state == HttpParser::State::Error) {
        respond(connection, endpoint::encodeHttpRefusal(parser, nextRequestId()), false);
    } else if (parser.expectsContinue()) {
        connection->socket->write("HTTP/1.1 100 Continue\r\n\r\n");
    }
}

uint32_t ProxyServer::actorFor(const HttpRequest& request)
{
    const std::string name = endpoint::clientIdentity(request.header("user-agent"), request.header("authorization"));
    const auto [it, fresh] = m_actorByClient.try_emplace(name, uint32_t(m_actorNames.size()));
    if (fresh) {
        m_actorNames.push_back(name);
        emit actorsChanged();
    }
    return it->second;
}

void ProxyServer::handle(Connection* connection, const HttpRequest& request)
{
    auto decoded = endpoint::decodeRequest(request);
    // The proxy signs with the user's own credentials: what only a web page would send is refused before anything
    // goes upstream (a page could otherwise act on the user's AWS account through it).
    if (auto refused = endpoint::guardRequest(request, decoded.action, m_options.guard)) {
        respond(connection, endpoint::encodeError(decoded.protocol, *refused, nextRequestId()), request.keepAlive);
        return;
    }
    ++m_forwarded;
    catchUp();
    const uint32_t actor = actorFor(request);
    std::string queue;
    if (!decoded.error) {
        if (const auto url = decoded.params.find("QueueUrl"); url != decoded.params.end() && url->is_string()) {
            queue = observe::queueNameFromUrl(url->get<std::string>());
            m_queueUrls[queue] = url->get<std::string>();
        }
        if (!queue.empty() && !m_attributesAsked[queue])
            fetchAttributes(queue, *connection->upstream); // answered before the request behind it
        if (endpoint::sqsActionNamed(decoded.action) == endpoint::SqsAction::ReceiveMessage)
            m_observer.pollStarted(queue, actor);
    }
    connection->waiting = true;
    const std::string bytes = net::forwardRequest(
        request, m_options.upstream, m_options.credentials, m_options.region, QDateTime::currentSecsSinceEpoch());
    const int timeout = m_options.upstreamTimeoutMs + int(waitSeconds(decoded.params) * 1000);
    auto call = std::make_shared<const PendingCall>(PendingCall { std::move(decoded), actor, request.keepAlive });
    connection->upstream->send(
        bytes, timeout, [this, socket = connection->socket, call](Outcome<net::HttpAnswer> answer) {
            const auto it = m_connections.find(socket);
            if (it == m_connections.end())
                return;
            Connection* c = it->second.get();
            if (answer)
                relay(c, *call, answer.value());
            else
                unreachable(c, *call, answer.message());
            answered(c);
        });
}

void ProxyServer::relay(Connection* connection, const PendingCall& call, const net::HttpAnswer& answer)
{
    HttpResponse response;
    response.status = answer.status;
    for (const char* name : kAnswerHeaders)
        if (const auto value = answer.header(name); !value.empty())
            response.headers.emplace_back(name, std::string(value));
    response.body = answer.body;
    respond(connection, response, call.keepAlive);
    const auto& decoded = call.request;
    if (decoded.error || !observe::isObserved(decoded.action))
        return;
    const json body = answerAsJson(answer);
    const auto known = endpoint::sqsActionNamed(decoded.action);
    if ((known == endpoint::SqsAction::CreateQueue || known == endpoint::SqsAction::GetQueueUrl)
        && body.contains("QueueUrl") && body["QueueUrl"].is_string()) {
        const std::string url = body["QueueUrl"].get<std::string>();
        m_queueUrls[observe::queueNameFromUrl(url)] = url;
    }
    catchUp();
    m_observer.observe(observe::readCall(decoded.action, decoded.params, answer.status, body), call.actor);
    emit observed();
}

void ProxyServer::unreachable(Connection* connection, const PendingCall& call, const std::string& why)
{
    ++m_failures;
    SqsError error = makeError(
        "ServiceUnavailable", "Lifeline's proxy got no answer from " + m_options.upstream.url() + ": " + why, 503);
    error.senderFault = false; // the service's side failed, not the request (SQS's <Type>Receiver</Type>)
    respond(connection, endpoint::encodeError(call.request.protocol, error, nextRequestId()), call.keepAlive);
    if (call.request.error)
        return;
    catchUp();
    m_observer.observe(observe::readCall(call.request.action, call.request.params, 503,
                           { { "__type", "ServiceUnavailable" }, { "message", error.message } }),
        call.actor);
    emit observed();
}

void ProxyServer::answered(Connection* connection)
{
    connection->waiting = false;
    connection->lastActivity = wallNow();
    if (connection->dropped) {
        release(connection); // the client went away while its request was upstream
        return;
    }
    // Requests that arrived behind this one go now.
    if (!connection->closing && connection->parser.state() != HttpParser::State::NeedMore)
        QMetaObject::invokeMethod(
            this,
            [this, socket = connection->socket] {
                if (const auto c = m_connections.find(socket); c != m_connections.end())
                    read(c->second.get());
            },
            Qt::QueuedConnection);
}

void ProxyServer::respond(Connection* connection, const HttpResponse& response, bool keepAlive)
{
    if (connection->dropped)
        return;
    HttpResponse out = response;
    out.close = out.close || !keepAlive;
    const std::string bytes = out.serialize();
    connection->socket->write(bytes.data(), qint64(bytes.size()));
    connection->socket->flush();
    if (out.close) {
        connection->closing = true;
        connection->socket->disconnectFromHost();
    }
}

void ProxyServer::sweepTimeouts()
{
    const qint64 now = wallNow();
    std::vector<Connection*> late;
    for (auto& [socket, connection] : m_connections) {
        if (connection->dropped || connection->closing || connection->waiting)
            continue;
        const bool idle = connection->parser.holdsNothing();
        if (now - connection->lastActivity > (idle ? m_options.idleTimeoutMs : m_options.requestTimeoutMs))
            late.push_back(connection.get());
    }
    for (Connection* connection : late) {
        if (connection->parser.holdsNothing()) {
            connection->closing = true;
            connection->socket->disconnectFromHost();
            continue;
        }
        const bool json = connection->parser.request().header("x-amz-target").starts_with("AmazonSQS.");
        respond(connection,
            endpoint::encodeError(json ? endpoint::Protocol::Json : endpoint::Protocol::Query,
                makeError("RequestTimeout", "The request did not arrive in time.", 408), nextRequestId()),
            false);
    }
}

void ProxyServer::fetchAttributes(const std::string& queue, UpstreamConnection& upstream)
{
    const auto url = m_queueUrls.find(queue);
    if (url == m_queueUrls.end())
        return;
    m_attributesAsked[queue] = true;
    const std::string body = "Action=GetQueueAttributes&Version=2012-11-05&QueueUrl=" + endpoint::urlEncode(url->second)
        + "&AttributeName.1=All";
    const std::string bytes = net::forwardRequest(net::ownRequest(body), m_options.upstream, m_options.credentials,
        m_options.region, QDateTime::currentSecsSinceEpoch());
    upstream.send(bytes, m_options.upstreamTimeoutMs, [this, queue](Outcome<net::HttpAnswer> answer) {
        if (!answer || answer->status != 200)
            return; // lanes keep SQS's defaults until a poll gets them
        const json result = net::queryAnswerAsJson(answer->body);
        AttributeMap attributes;
        if (const auto a = result.find("Attributes"); a != result.end() && a->is_object())
            for (const auto& [name, value] : a->items())
                if (value.is_string())
                    attributes[name] = value.get<std::string>();
        catchUp();
        m_observer.noteAttributes(queue, attributes);
        const auto number = [&](const char* name) -> int64_t {
            const auto it = attributes.find(name);
            return it == attributes.end() ? 0 : std::strtoll(it->second.c_str(), nullptr, 10);
        };
        m_depth[queue].push_back(PolledDepth { m_observer.engine().now(), number("ApproximateNumberOfMessages"),
            number("ApproximateNumberOfMessagesNotVisible"), number("ApproximateNumberOfMessagesDelayed") });
        pushPolledDepth();
    });
}

void ProxyServer::pushPolledDepth()
{
    const Engine& engine = m_observer.engine();
    std::set<std::string> deadLetterArns;
    for (size_t q = 0; q < engine.queueCount(); ++q)
        if (const auto* attributes = engine.queueAttributes(QueueIndex(q)); attributes && attributes->redrivePolicy)
            deadLetterArns.insert(attributes->redrivePolicy->deadLetterTargetArn);
    DepthSample level;
    for (const auto& [queue, samples] : m_depth) {
        const auto index = engine.queueIndex(queue);
        if (samples.empty() || !index || !engine.queueInfo(*index).alive)
            continue;
        const PolledDepth& last = samples.back();
        if (deadLetterArns.count(engine.queueInfo(*index).arn)) {
            level.deadLetter += int32_t(last.visible + last.inFlight + last.delayed);
            continue;
        }
        level.visible += int32_t(last.visible);
        level.inFlight += int32_t(last.inFlight);
        level.delayed += int32_t(last.delayed);
    }
    m_polledSeries.push(engine.now(), level);
}

std::string ProxyServer::queueUrl(const std::string& queue) const
{
    const auto it = m_queueUrls.find(queue);
    return it == m_queueUrls.end() ? std::string() : it->second;
}

void ProxyServer::operatorCall(
    const std::string& action, const json& params, std::function<void(bool ok, const std::string& answer)> done)
{
    // The query protocol, which every SQS speaks: top-level values as they are, Attributes as Attribute.N pairs.
    std::string form = "Action=" + action + "&Version=2012-11-05";
    for (const auto& [key, value] : params.items()) {
        if (key == "Attributes" && value.is_object()) {
            int n = 0;
            for (const auto& [name, v] : value.items()) {
                ++n;
                form += "&Attribute." + std::to_string(n) + ".Name=" + endpoint::urlEncode(name) + "&Attribute."
                    + std::to_string(n)
                    + ".Value=" + endpoint::urlEncode(v.is_string() ? v.get<std::string>() : v.dump());
            }
        } else {
            form += "&" + key + "=" + endpoint::urlEncode(value.is_string() ? value.get<std::string>() : value.dump());
        }
    }
    const std::string bytes = net::forwardRequest(net::ownRequest(form), m_options.upstream, m_options.credentials,
        m_options.region, QDateTime::currentSecsSinceEpoch());
    m_pollerUpstream->send(bytes, m_options.upstreamTimeoutMs,
        [this, action, params, done = std::move(done)](Outcome<net::HttpAnswer> answer) {
            if (!answer) {
                done(false, "ServiceUnavailable: " + answer.message());
                return;
            }
            const json body = net::queryAnswerAsJson(answer->body);
            catchUp();
            m_observer.observe(observe::readCall(action, params, answer->status, body), kOperatorActor);
            emit observed();
            if (answer->status == 200)
                done(true, "OK");
            else
                done(false,
                    body.value("__type", std::string("HTTP ") + std::to_string(answer->status)) + ": "
                        + body.value("message", std::string()));
        });
}

void ProxyServer::pollAttributes()
{
    if (!m_pollerUpstream || m_pollerUpstream->busy())
        return; // the last round is not back yet
    for (const std::string& queue : m_observer.queuesSeen())
        if (m_queueUrls.count(queue))
            fetchAttributes(queue, *m_pollerUpstream);
}

} // namespace lifeline::ui
