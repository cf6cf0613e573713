#include "http/proxy_server.h"

#include "http/upstream_connection.h"
#include "lifeline/aws/query_answer.h"
#include "lifeline/aws/secret_scrub.h"
#include "lifeline/endpoint/client_identity.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/observe/proxied_request.h"
#include "lifeline/support/result.h"

#include <QDateTime>
#include <set>

namespace lifeline::ui {

using endpoint::HttpRequest;
using endpoint::HttpResponse;
using nlohmann::json;

namespace {
// The answer's headers a client reads; hop-by-hop ones (Connection, Transfer-Encoding, Keep-Alive) are the proxy's own.
constexpr const char* kAnswerHeaders[] = { "content-type", "x-amzn-requestid", "x-amzn-query-error", "date" };
} // namespace

ProxyServer::ProxyServer(observe::Observer& observer, QObject* parent)
    : QObject(parent)
    , m_observer(observer)
    , m_http(
          { "lifeline proxy", '9', nullptr },
          [this](ConnectionId connection, HttpRequest&& request) { handle(connection, std::move(request)); },
          [this](ConnectionId connection, bool requestInHand) { closed(connection, requestInHand); })
{
    connect(&m_tick, &QTimer::timeout, this, &ProxyServer::catchUp);
    connect(&m_poll, &QTimer::timeout, this, &ProxyServer::pollAttributes);
}

ProxyServer::~ProxyServer()
{
    stop();
}

Outcome<> ProxyServer::start(const ProxyOptions& options)
{
    stop();
    m_options = options;
    m_trusted.clear();
    if (!options.caBundle.empty()) {
        m_trusted = QSslCertificate::fromPath(QString::fromStdString(options.caBundle), QSsl::Pem);
        if (m_trusted.isEmpty())
            return Failure { "the CA bundle " + options.caBundle + " holds no PEM certificate (or cannot be read)" };
    }
    if (auto listening = m_http.listen(options); !listening)
        return listening;
    m_wall.start();
    m_pollerUpstream = new UpstreamConnection(options.upstream, m_trusted, this);
    m_tick.start(100);
    if (options.pollAttributesMs > 0)
        m_poll.start(options.pollAttributesMs);
    return {};
}

void ProxyServer::stop()
{
    m_tick.stop();
    m_poll.stop();
    // Taken out first: abandoning an upstream answers its callback, which must find no client to write to.
    auto clients = std::move(m_clients);
    m_clients.clear();
    for (auto& [connection, client] : clients) {
        client.upstream->abandon("the proxy stopped");
        client.upstream->deleteLater();
    }
    if (m_pollerUpstream) {
        m_pollerUpstream->abandon("the proxy stopped");
        m_pollerUpstream->deleteLater();
        m_pollerUpstream = nullptr;
    }
    m_http.close();
}

TimeMs ProxyServer::wallNow() const
{
    return m_wall.isValid() ? TimeMs(m_wall.elapsed()) : 0;
}

void ProxyServer::catchUp()
{
    const size_t before = m_observer.run().log().size();
    m_observer.advanceTo(wallNow());
    if (!m_depth.empty())
        m_polledSeries.advance(m_observer.run().now());
    if (m_observer.run().log().size() != before)
        emit observed();
}

void ProxyServer::closed(ConnectionId connection, bool requestInHand)
{
    const auto it = m_clients.find(connection);
    if (it == m_clients.end())
        return; // it never sent a request
    if (requestInHand && it->second.waiting) {
        it->second.gone = true; // freed when its upstream answer comes (what the upstream did is still observed)
        return;
    }
    it->second.upstream->deleteLater();
    m_clients.erase(it);
}

uint32_t ProxyServer::actorFor(const HttpRequest& request)
{
    const std::string name = endpoint::clientIdentity(request.header("user-agent"), request.header("authorization"));
    auto it = m_actorByClient.find(name);
    if (it == m_actorByClient.end())
        it = m_actorByClient.emplace(name, m_observer.addActor(name)).first;
    return it->second;
}

void ProxyServer::handle(ConnectionId connection, HttpRequest&& request)
{
    auto admission = observe::admitProxied(request, m_options.guard, [this] { return m_http.nextRequestId(); });
    if (auto* refused = std::get_if<HttpResponse>(&admission)) {
        m_http.answer(connection, *refused, request.keepAlive);
        return;
    }
    auto& admitted = std::get<observe::ProxiedRequest>(admission);
    Client& client = m_clients[connection];
    if (!client.upstream)
        client.upstream = new UpstreamConnection(m_options.upstream, m_trusted, this);
    ++m_forwarded;
    catchUp();
    const uint32_t actor = actorFor(request);
    uint64_t sendToken = 0;
    if (!admitted.queueUrl.empty())
        m_queueUrls[admitted.queue] = admitted.queueUrl;
    if (!admitted.queue.empty() && !m_attributesAsked[admitted.queue])
        fetchAttributes(admitted.queue, *client.upstream); // answered before the request behind it
    if (admitted.startsPoll)
        m_observer.pollStarted(admitted.queue, actor);
    else if (!admitted.sends.empty())
        sendToken = m_observer.sendStarted(admitted.queue, actor, std::move(admitted.sends));
    client.waiting = true;
    const std::string bytes = aws::forwardRequest(
        request, m_options.upstream, m_options.credentials, m_options.region, QDateTime::currentSecsSinceEpoch());
    const int timeout = m_options.upstreamTimeoutMs + int(admitted.waitSeconds * 1000);
    auto call = std::make_shared<const PendingCall>(
        PendingCall { std::move(admitted.decoded), actor, request.keepAlive, sendToken, wallNow() });
    client.upstream->send(bytes, timeout, [this, connection, call](Outcome<aws::HttpAnswer> answer) {
        const auto it = m_clients.find(connection);
        if (it == m_clients.end())
            return; // the proxy stopped
        it->second.waiting = false;
        if (answer)
            relay(connection, *call, answer.value()); // answered, and the requests behind it go next
        else
            unreachable(connection, *call, answer.message());
        m_observer.sendEnded(call->sendToken);
        if (const auto client = m_clients.find(connection); client != m_clients.end() && client->second.gone) {
            client->second.upstream->deleteLater(); // the client went away while its request was upstream
            m_clients.erase(client);
        }
    });
}

std::vector<std::string> ProxyServer::knownSecrets() const
{
    return { m_options.credentials.sessionToken, m_options.credentials.secretAccessKey };
}

void ProxyServer::relay(ConnectionId connection, const PendingCall& call, const aws::HttpAnswer& answer)
{
    HttpResponse response;
    response.status = answer.status;
    for (const char* name : kAnswerHeaders)
        if (const auto value = answer.header(name); !value.empty())
            response.headers.emplace_back(name, std::string(value));
    // An error's text loses its secrets before the client sees it too (a client of a proxy bound beyond loopback is
    // not the owner of the credentials it signs with); a success goes as it came.
    response.body = answer.status == 200 ? answer.body : aws::scrubSecrets(answer.body, knownSecrets());
    m_http.answer(connection, response, call.keepAlive);
    const auto& decoded = call.request;
    if (decoded.error || !observe::isObserved(decoded.action))
        return;
    aws::HttpAnswer recorded = answer; // an error's text is recorded as the client got it, without secrets
    if (answer.status != 200)
        recorded.body = response.body;
    const json body = aws::answerAsJson(recorded);
    const auto known = endpoint::sqsActionNamed(decoded.action);
    if ((known == endpoint::SqsAction::CreateQueue || known == endpoint::SqsAction::GetQueueUrl)
        && body.contains("QueueUrl") && body["QueueUrl"].is_string()) {
        const std::string url = body["QueueUrl"].get<std::string>();
        m_queueUrls[observe::queueNameFromUrl(url)] = url;
    }
    catchUp();
    observe::ObservedCall seen = observe::readCall(decoded.action, decoded.params, answer.status, body);
    seen.uncertainMs = wallNow() - call.forwardedAt;
    m_observer.observe(seen, call.actor);
    emit observed();
}

void ProxyServer::unreachable(ConnectionId connection, const PendingCall& call, const std::string& why)
{
    ++m_failures;
    // A receive the upstream may have answered: its messages are in flight there, and nobody has them.
    const bool held = call.request.action == "ReceiveMessage";
    SqsError error = makeError("ServiceUnavailable",
        "Lifeline's proxy got no answer from " + m_options.upstream.url() + ": " + why
            + (held ? "; any messages it received are in flight upstream and come back after their visibility timeout"
                    : ""),
        503);
    emit callFailed(QString::fromStdString(
        (call.request.action.empty() ? std::string("a call") : call.request.action) + ": " + error.message));
    error.senderFault = false; // the service's side failed, not the request (SQS's <Type>Receiver</Type>)
    m_http.answer(
        connection, endpoint::encodeError(call.request.protocol, error, m_http.nextRequestId()), call.keepAlive);
    if (call.request.error)
        return;
    catchUp();
    m_observer.observe(observe::readCall(call.request.action, call.request.params, 503,
                           { { "__type", "ServiceUnavailable" }, { "message", error.message } }),
        call.actor);
    emit observed();
}

void ProxyServer::fetchAttributes(const std::string& queue, UpstreamConnection& upstream)
{
    const auto url = m_queueUrls.find(queue);
    if (url == m_queueUrls.end())
        return;
    m_attributesAsked[queue] = true;
    const std::string body = "Action=GetQueueAttributes&Version=2012-11-05&QueueUrl=" + endpoint::urlEncode(url->second)
        + "&AttributeName.1=All";
    const std::string bytes = aws::forwardRequest(aws::ownRequest(body), m_options.upstream, m_options.credentials,
        m_options.region, QDateTime::currentSecsSinceEpoch());
    upstream.send(bytes, m_options.upstreamTimeoutMs, [this, queue](Outcome<aws::HttpAnswer> answer) {
        if (!answer || answer->status != 200)
            return; // lanes keep SQS's defaults until a poll gets them
        const json result = aws::queryAnswerAsJson(answer->body);
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
        m_depth[queue].push_back(PolledDepth { m_observer.run().now(), number("ApproximateNumberOfMessages"),
            number("ApproximateNumberOfMessagesNotVisible"), number("ApproximateNumberOfMessagesDelayed") });
        pushPolledDepth();
    });
}

void ProxyServer::pushPolledDepth()
{
    const RunView& run = m_observer.run();
    std::set<std::string> deadLetterArns;
    for (size_t q = 0; q < run.queueCount(); ++q)
        if (const auto* attributes = run.queueAttributes(QueueIndex(q)); attributes && attributes->redrivePolicy)
            deadLetterArns.insert(attributes->redrivePolicy->deadLetterTargetArn);
    DepthSample level;
    for (const auto& [queue, samples] : m_depth) {
        const auto index = run.queueIndex(queue);
        if (samples.empty() || !index || !run.queueInfo(*index).alive)
            continue;
        const PolledDepth& last = samples.back();
        if (deadLetterArns.count(run.queueInfo(*index).arn)) {
            level.deadLetter += int32_t(last.visible + last.inFlight + last.delayed);
            continue;
        }
        level.visible += int32_t(last.visible);
        level.inFlight += int32_t(last.inFlight);
        level.delayed += int32_t(last.delayed);
    }
    m_polledSeries.push(run.now(), level);
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
    const std::string bytes = aws::forwardRequest(aws::ownRequest(form), m_options.upstream, m_options.credentials,
        m_options.region, QDateTime::currentSecsSinceEpoch());
    m_pollerUpstream->send(bytes, m_options.upstreamTimeoutMs,
        [this, action, params, done = std::move(done)](Outcome<aws::HttpAnswer> answer) {
            if (!answer) {
                done(false, "ServiceUnavailable: " + answer.message());
                return;
            }
            const json body = aws::queryAnswerAsJson(answer->body);
            catchUp();
            m_observer.observe(observe::readCall(action, params, answer->status, body), kOperatorActor);
            emit observed();
            if (answer->status == 200)
                done(true, "OK");
            else
                done(false,
                    body.value("__type", std::string("HTTP ") + std::to_string(answer->status)) + ": "
                        + aws::scrubSecrets(body.value("message", std::string()), knownSecrets()));
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
