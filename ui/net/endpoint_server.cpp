#include "net/endpoint_server.h"

#include "lifeline/endpoint/client_identity.h"
#include "lifeline/endpoint/control_api.h"
#include "lifeline/endpoint/sqs_action.h"
#include "lifeline/export/run_export.h"
#include "lifeline/io/run_file.h"
#include "lifeline/picture/picture_json.h"

#include <cmath>
#include <map>
#include <sstream>

namespace lifeline::ui {

using endpoint::HttpRequest;

EndpointServer::EndpointServer(Engine& engine, QObject* parent)
    : QObject(parent)
    , m_engine(&engine)
    , m_service(std::in_place, engine)
    , m_http(
          { "lifeline serve", '8', "Lifeline" },
          [this](ConnectionId connection, HttpRequest&& request) { handle(connection, std::move(request)); },
          [this](ConnectionId connection, bool requestInHand) { closed(connection, requestInHand); })
{
    // A client that ends its stream while its long poll waits is, in practice, one that went away (TCP cannot tell a
    // close from a half-close): the poll goes on for nobody (docs/decisions.md). Anything else it asked is answered.
    m_http.onEndOfStream([this](ConnectionId connection) { return m_pollOf.count(connection) > 0; });
    m_wake.setSingleShot(true);
    m_wake.setTimerType(Qt::PreciseTimer);
    connect(&m_wake, &QTimer::timeout, this, &EndpointServer::catchUp);
}

EndpointServer::~EndpointServer()
{
    stop();
}

Outcome<> EndpointServer::start(const EndpointOptions& options)
{
    stop();
    m_options = options;
    if (auto listening = m_http.listen(options); !listening)
        return listening;
    m_wall.start();
    m_virtualAtStart = m_engine->now();
    scheduleWake();
    return {};
}

void EndpointServer::stop()
{
    m_wake.stop();
    // The server itself stops: nobody will ever answer a waiting poll, so SQS's side ends them too.
    for (const auto& [poll, parked] : m_waiting)
        m_engine->cancelPoll(poll);
    for (const auto& [poll, actor] : m_orphaned)
        m_engine->cancelPoll(poll);
    m_waiting.clear();
    m_pollOf.clear();
    m_orphaned.clear();
    m_actorOf.clear();
    m_http.close();
}

void EndpointServer::catchUp()
{
    if (clockRuns()) {
        const TimeMs target = m_virtualAtStart + TimeMs(std::floor(double(m_wall.elapsed()) * m_options.speed));
        if (target > m_engine->now())
            m_engine->advanceTo(target);
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
    auto outcome = m_service->call(action, params, context);
    answerCompletedPolls(); // a message sent may complete waiting polls
    scheduleWake();
    return outcome;
}

std::string EndpointServer::queueUrl(const std::string& queue) const
{
    return QStringLiteral("http://127.0.0.1:%1/%2/")
               .arg(port())
               .arg(QString::fromStdString(m_engine->options().accountId))
               .toStdString()
        + queue;
}

void EndpointServer::scheduleWake()
{
    if (!listening())
        return;
    const TimeMs next = m_engine->nextDueTime();
    if (next == INT64_MAX || !clockRuns()) { // a clock that stands wakes nothing: a long poll waits for an advance
        m_wake.stop();
        return;
    }
    const double wallMs = double(next - m_engine->now()) / m_options.speed;
    m_wake.start(int(std::clamp(std::ceil(wallMs), 0.0, 3600000.0)));
}

void EndpointServer::closed(ConnectionId connection, bool requestInHand)
{
    const auto actor = m_actorOf.find(connection);
    if (requestInHand)
        if (const auto poll = m_pollOf.find(connection); poll != m_pollOf.end()) {
            // The poll goes on, as a real client's dead request would (docs/decisions.md): what it receives is in
            // flight for nobody, drawn as such, and comes back after its visibility timeout.
            m_orphaned.emplace(poll->second, actor == m_actorOf.end() ? kSqsActor : actor->second);
            m_waiting.erase(poll->second);
            m_pollOf.erase(poll);
        }
    if (actor != m_actorOf.end())
        m_actorOf.erase(actor);
}

uint32_t EndpointServer::actorFor(ConnectionId connection, const HttpRequest& request)
{
    if (const auto known = m_actorOf.find(connection); known != m_actorOf.end())
        return known->second;
    // A row per kind of client (client_identity.h), not per connection: the CLI's one-shot calls share one.
    const std::string name = endpoint::clientIdentity(request.header("user-agent"), request.header("authorization"));
    auto it = m_actorByClient.find(name);
    if (it == m_actorByClient.end())
        it = m_actorByClient.emplace(name, m_engine->addActor(name)).first;
    m_actorOf.emplace(connection, it->second);
    return it->second;
}

void EndpointServer::handle(ConnectionId connection, HttpRequest&& request)
{
    ++m_requests;
    catchUp();
    if (endpoint::isControlPath(request.path())) {
        handleControl(connection, request);
        return;
    }
    if (request.path() == "/_aws/sqs/messages" || request.path().starts_with("/_aws/sqs/messages/")) {
        handlePeek(connection, request);
        return;
    }
    const std::string requestId = m_http.nextRequestId();
    auto decoded = endpoint::decodeRequest(request);
    const bool keepAlive = request.keepAlive;
    // What a web page may have sent is refused before anything else happens (request_guard.h).
    if (auto refused = endpoint::guardRequest(request, decoded.action, m_options.guard)) {
        m_http.answer(connection, endpoint::encodeError(decoded.protocol, *refused, requestId), keepAlive);
        return;
    }
    if (decoded.error) {
        m_http.answer(connection, endpoint::encodeError(decoded.protocol, *decoded.error, requestId), keepAlive);
        return;
    }
    endpoint::CallContext context;
    const std::string_view host = request.header("host");
    context.host = host.empty() ? QStringLiteral("localhost:%1").arg(port()).toStdString() : std::string(host);
    context.path = std::string(request.path());
    context.actor = actorFor(connection, request);
    auto outcome = m_service->call(decoded.action, decoded.params, context);
    if (outcome.error) {
        m_http.answer(connection, endpoint::encodeError(decoded.protocol, *outcome.error, requestId), keepAlive);
    } else if (outcome.pendingPoll) {
        m_waiting.emplace(*outcome.pendingPoll,
            ParkedPoll { connection, std::move(outcome.view), decoded.protocol, requestId, keepAlive });
        m_pollOf[connection] = *outcome.pendingPoll;
    } else {
        m_http.answer(
            connection, endpoint::encodeResult(decoded.protocol, decoded.action, outcome.output, requestId), keepAlive);
    }
    answerCompletedPolls(); // a send may have woken other connections' polls
    scheduleWake();
}

void EndpointServer::rebaseClock()
{
    m_virtualAtStart = m_engine->now();
    m_wall.restart();
}

void EndpointServer::handleControl(ConnectionId connection, const HttpRequest& request)
{
    // Refused as an SQS call from a web page would be (an Origin, a foreign Host); the method is the parser's.
    if (auto refused = endpoint::guardRequest(request, {}, m_options.guard)) {
        m_http.answer(connection, endpoint::controlError(403, "origin", refused->message), request.keepAlive);
        return;
    }
    auto parsed = endpoint::parseControlRequest(request);
    if (const auto* error = std::get_if<endpoint::HttpResponse>(&parsed)) {
        m_http.answer(connection, *error, request.keepAlive);
        return;
    }
    const auto& command = std::get<endpoint::ControlCommand>(parsed);
    switch (command.kind) {
    case endpoint::ControlCommand::Kind::ReadClock:
        break;
    case endpoint::ControlCommand::Kind::SetClock:
        rebaseClock(); // from here on at the new speed, or standing
        if (command.speed)
            m_options.speed = *command.speed;
        if (command.paused)
            m_paused = *command.paused;
        break;
    case endpoint::ControlCommand::Kind::ReadRun:
        m_http.answer(connection, runResponse(command), request.keepAlive);
        return;
    case endpoint::ControlCommand::Kind::Reset:
        if (!m_renew) {
            m_http.answer(
                connection, endpoint::controlError(501, "path", "this server cannot be reset"), request.keepAlive);
            return;
        }
        reset();
        break;
    case endpoint::ControlCommand::Kind::Advance:
        // Every timer due inside fires in time order (the engine's own clock loop), then the polls it completed
        // are answered; a running clock goes on from the new time.
        m_engine->advanceTo(m_engine->now() + command.by);
        rebaseClock();
        answerCompletedPolls();
        break;
    }
    scheduleWake();
    m_http.answer(connection,
        endpoint::clockResponse({ m_engine->now(), m_options.speed, m_paused, m_options.manualClock }),
        request.keepAlive);
}

endpoint::HttpResponse EndpointServer::runResponse(const endpoint::ControlCommand& command) const
{
    using Format = endpoint::ControlCommand::RunFormat;
    const RunView& run = m_engine->run();
    if (!command.queue.empty()) {
        bool known = false;
        for (size_t q = 0; q < run.queueCount() && !known; ++q)
            known = run.queueInfo(QueueIndex(q)).name == command.queue;
        if (!known)
            return endpoint::controlError(404, "queue", "the run has no queue named '" + command.queue + "'");
    }
    endpoint::HttpResponse response;
    switch (command.format) {
    case Format::Lifeline:
        return runFileResponse();
    case Format::Json: {
        picture::RunPicture lanes;
        lanes.setRun(&run, {});
        (void)lanes.sync();
        response.headers = { { "Content-Type", "application/json" } };
        response.body = picture::lanesJson(lanes, command.queue).dump();
        return response;
    }
    case Format::Png:
    case Format::Svg: {
        if (!command.queue.empty())
            return endpoint::controlError(
                400, "queue", "an image draws every queue of the run; read one queue's lanes with format=json");
        if (!m_drawRun)
            return endpoint::controlError(501, "format", "this server does not draw images; read format=lifeline");
        const bool svg = command.format == Format::Svg;
        auto image = m_drawRun(run, svg, command.width, command.height);
        if (!image)
            return endpoint::controlError(500, "format", "the timeline could not be drawn: " + image.message());
        response.headers = { { "Content-Type", svg ? "image/svg+xml" : "image/png" } };
        response.body = std::move(image.value());
        return response;
    }
    }
    return response;
}

endpoint::HttpResponse EndpointServer::runFileResponse() const
{
    // A run file holds a whole run: a headless server that forgot its start (--history) cannot write one.
    if (const EventLog& log = m_engine->run().log(); log.firstRetained() > 0)
        return endpoint::controlError(409, "history",
            "the endpoint has forgotten the start of its run (it keeps --history); start it with a --history longer "
            "than the test to read the run");
    std::ostringstream out;
    writeRun(m_engine->run(), "lifeline serve", out);
    endpoint::HttpResponse response;
    response.headers = { { "Content-Type", "application/octet-stream" },
        { "Content-Disposition", "attachment; filename=\"run.lifeline\"" } };
    response.body = out.str();
    return response;
}

void EndpointServer::reset()
{
    // A poll waiting now is answered as one whose queue was deleted: every queue is gone.
    for (const auto& [poll, parked] : m_waiting)
        m_http.answer(parked.connection,
            endpoint::encodeError(parked.protocol,
                makeError(codes::NonExistentQueue, "The specified queue does not exist."), parked.requestId),
            parked.keepAlive);
    m_waiting.clear();
    m_pollOf.clear();
    m_orphaned.clear();
    m_actorByClient.clear(); // the clients are actors of the old run
    m_actorOf.clear();
    EngineOptions options = m_engine->options();
    options.epochMs += m_engine->now(); // SentTimestamp and the like never go back
    m_service.reset(); // it refers to the engine that goes
    m_engine = &m_renew(options);
    m_service.emplace(*m_engine);
    rebaseClock();
    emit wasReset();
}

void EndpointServer::handlePeek(ConnectionId connection, const HttpRequest& request)
{
    const std::string requestId = m_http.nextRequestId();
    // As LocalStack: an AWS client's ReceiveMessage call (query or JSON), or plain parameters in the query string or
    // a form; or the queue in the path, /_aws/sqs/messages/REGION/ACCOUNT/QUEUE.
    const bool json = request.header("content-type") == "application/x-amz-json-1.0";
    const auto protocol = json ? endpoint::Protocol::Json : endpoint::Protocol::Query;
    // It reads every message's body: refused to a web page as ReceiveMessage would be.
    if (auto refused = endpoint::guardRequest(request, {}, m_options.guard)) {
        m_http.answer(connection, endpoint::encodeError(protocol, *refused, requestId), request.keepAlive);
        return;
    }
    std::map<std::string, std::string> params;
    if (json) {
        const auto decoded = endpoint::decodeRequest(request);
        for (const auto& [key, value] : decoded.params.items())
            if (value.is_string())
                params[key] = value.get<std::string>();
            else if (value.is_boolean())
                params[key] = value.get<bool>() ? "true" : "false";
    } else {
        for (const std::string_view text : { request.query(), std::string_view(request.body) })
            if (const auto pairs = endpoint::splitForm(text))
                for (const auto& [key, value] : *pairs)
                    params[key] = value;
    }
    std::string queue;
    constexpr std::string_view kByPath = "/_aws/sqs/messages/";
    if (request.path().starts_with(kByPath)) {
        const std::string_view rest = request.path().substr(kByPath.size());
        queue = std::string(rest.substr(rest.rfind('/') == std::string_view::npos ? 0 : rest.rfind('/') + 1));
    } else if (const auto url = params.find("QueueUrl"); url != params.end()) {
        queue = url->second.substr(url->second.rfind('/') + 1);
    }
    const auto flag = [&](const char* name) {
        const auto it = params.find(name);
        return it != params.end() && (endpoint::asciiLower(it->second) == "true" || it->second == "1");
    };
    const bool showInvisible = flag("ShowInvisible"), showDelayed = flag("ShowDelayed");
    auto peeked = m_engine->peekMessages(queue, showInvisible, showDelayed);
    if (!peeked) {
        m_http.answer(connection, endpoint::encodeError(protocol, peeked.error(), requestId), request.keepAlive);
        return;
    }
    std::vector<ReceivedMessage> messages;
    for (auto& p : peeked.value())
        messages.push_back(std::move(p.message));
    auto output = m_service->renderMessages(messages, endpoint::ReceiveView { { "All" }, { "All" } });
    for (size_t i = 0; i < messages.size(); ++i) {
        auto& m = output["Messages"][i];
        m["ReceiptHandle"] = "SQS/BACKDOOR/ACCESS"; // LocalStack's: a peek hands out no receipt
        const MessageState state = peeked.value()[i].state;
        if (showInvisible)
            m["Attributes"]["IsVisible"] = state == MessageState::Visible ? "true" : "false";
        if (showDelayed)
            m["Attributes"]["IsDelayed"] = state == MessageState::Delayed ? "true" : "false";
    }
    m_http.answer(connection, endpoint::encodeResult(protocol, "ReceiveMessage", output, requestId), request.keepAlive);
}

void EndpointServer::answerCompletedPolls()
{
    for (auto& done : m_engine->takeCompletedPolls()) {
        if (const auto orphan = m_orphaned.find(done.poll); orphan != m_orphaned.end()) {
            for (const auto& m : done.messages)
                m_engine->recordActorEvent(Cause::ReceivedByNobody, orphan->second, m.lane);
            m_orphaned.erase(orphan);
            continue;
        }
        const auto it = m_waiting.find(done.poll);
        if (it == m_waiting.end())
            continue;
        const ParkedPoll parked = std::move(it->second);
        m_waiting.erase(it);
        m_pollOf.erase(parked.connection);
        const auto response = done.queueDeleted
            ? endpoint::encodeError(parked.protocol,
                makeError(codes::NonExistentQueue, "The specified queue does not exist."), parked.requestId)
            : endpoint::encodeResult(parked.protocol,
                std::string(endpoint::nameOf(endpoint::SqsAction::ReceiveMessage)),
                m_service->renderMessages(done.messages, parked.view), parked.requestId);
        m_http.answer(parked.connection, response, parked.keepAlive); // the requests behind it go next
    }
}

} // namespace lifeline::ui
