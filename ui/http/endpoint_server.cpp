#include "http/endpoint_server.h"

#include "http/run_seed.h"
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
    m_deferredCheck.setInterval(50);
    connect(&m_deferredCheck, &QTimer::timeout, this, &EndpointServer::runDeferredAdvances);
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
    m_deferred.clear();
    m_late.clear();
    m_deferredCheck.stop();
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
    TimeMs next = m_engine->nextDueTime();
    for (const LateAnswer& late : m_late)
        next = std::min(next, late.due);
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
    // An advance that waited for receives is dropped with its client: nobody would read its answer.
    std::erase_if(m_deferred, [connection](const DeferredAdvance& d) { return d.connection == connection; });
    std::erase_if(m_late, [connection](const LateAnswer& late) { return late.connection == connection; });
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
    endpoint::RequestContext context;
    context.guard = m_options.guard;
    context.defaultHost = QStringLiteral("localhost:%1").arg(port()).toStdString();
    context.nextRequestId = [this] { return m_http.nextRequestId(); };
    context.actor = [&] { return actorFor(connection, request); };
    auto reply = endpoint::handleRequest(request, *m_engine, *m_service, context);
    const bool keepAlive = request.keepAlive;
    if (auto* command = std::get_if<endpoint::ControlCommand>(&reply)) {
        applyControl(connection, *command, keepAlive);
        return;
    }
    const bool peek = endpoint::isPeekPath(request.path());
    if (auto* parked = std::get_if<endpoint::ParkedReceive>(&reply)) {
        m_waiting.emplace(parked->poll,
            ParkedPoll { connection, std::move(parked->queue), std::move(parked->view), parked->protocol,
                std::move(parked->requestId), keepAlive });
        m_pollOf[connection] = parked->poll;
        runDeferredAdvances(); // an advance may have waited for this receive to park
    } else {
        auto& response = std::get<endpoint::HttpResponse>(reply);
        if (response.bodyParts) // read from this engine, which a reset replaces
            response.bodyParts = [this, resets = m_resets, parts = std::move(response.bodyParts)] {
                return resets == m_resets ? parts() : std::nullopt;
            };
        if (response.answerAfterMs > 0)
            m_late.push_back({ m_engine->now() + response.answerAfterMs, connection, std::move(response), keepAlive });
        else
            m_http.answer(connection, response, keepAlive);
    }
    if (peek || endpoint::isControlPath(request.path()))
        return; // a peek or a refused control request changed nothing
    answerCompletedPolls(); // a send may have woken other connections' polls
    scheduleWake();
}

void EndpointServer::rebaseClock()
{
    m_virtualAtStart = m_engine->now();
    m_wall.restart();
}

void EndpointServer::applyControl(ConnectionId connection, const endpoint::ControlCommand& command, bool keepAlive)
{
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
        m_http.answer(connection, runResponse(command), keepAlive);
        return;
    case endpoint::ControlCommand::Kind::Reset:
        if (!m_renew) {
            m_http.answer(connection, endpoint::controlError(501, "path", "this server cannot be reset"), keepAlive);
            return;
        }
        reset();
        break;
    case endpoint::ControlCommand::Kind::Advance:
        if (command.afterWaiting > int(m_waiting.size())) { // answered when its receives have parked
            m_deferred.push_back({ connection, command, keepAlive, {} });
            m_deferred.back().since.start();
            m_deferredCheck.start();
            return;
        }
        // Every timer due inside fires in time order (the engine's own clock loop), then the polls it completed
        // are answered; a running clock goes on from the new time.
        m_engine->advanceTo(m_engine->now() + command.by);
        rebaseClock();
        answerCompletedPolls();
        break;
    }
    scheduleWake();
    m_http.answer(connection, endpoint::clockResponse(clockState()), keepAlive);
}

endpoint::ClockState EndpointServer::clockState() const
{
    endpoint::ClockState clock { m_engine->now(), m_options.speed, m_paused, m_options.manualClock, {} };
    for (const auto& [poll, parked] : m_waiting)
        ++clock.waiting[parked.queue];
    return clock;
}

void EndpointServer::runDeferredAdvances()
{
    std::vector<DeferredAdvance> waiting = std::exchange(m_deferred, {});
    for (DeferredAdvance& deferred : waiting) {
        if (deferred.command.afterWaiting <= int(m_waiting.size())) {
            deferred.command.afterWaiting = 0;
            applyControl(deferred.connection, deferred.command, deferred.keepAlive);
        } else if (deferred.since.elapsed() >= endpoint::kLongestReceiveWaitMs) {
            m_http.answer(deferred.connection,
                endpoint::controlError(408, "afterWaiting",
                    std::to_string(m_waiting.size()) + " receive(s) waiting after "
                        + std::to_string(endpoint::kLongestReceiveWaitMs / 1000) + " s, not "
                        + std::to_string(deferred.command.afterWaiting) + ": the clock did not move"),
                deferred.keepAlive);
        } else {
            m_deferred.push_back(std::move(deferred));
        }
    }
    if (m_deferred.empty())
        m_deferredCheck.stop();
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
    for (const DeferredAdvance& deferred : std::exchange(m_deferred, {})) // they waited for receives now gone
        m_http.answer(deferred.connection,
            endpoint::controlError(409, "afterWaiting", "the endpoint was reset while the advance waited"),
            deferred.keepAlive);
    m_deferredCheck.stop();
    m_actorByClient.clear(); // the clients are actors of the old run
    m_actorOf.clear();
    EngineOptions options = m_engine->options();
    options.epochMs += m_engine->now(); // SentTimestamp and the like never go back
    options.seed = seedAfterReset(options.seed); // a new id and handle group: the last test's handles are invalid
    ++m_resets; // a peek still being read from the engine that goes is cut
    m_service.reset(); // it refers to the engine that goes
    // The faults go on with the new run, their dice from the plan's seed again: the same test meets the same faults.
    std::optional<FaultPlan> faults;
    if (const FaultDice* dice = m_engine->faults())
        faults = dice->plan();
    m_engine = &m_renew(options);
    m_engine->setFaults(std::move(faults));
    m_service.emplace(*m_engine);
    rebaseClock();
    emit wasReset();
}

void EndpointServer::answerCompletedPolls()
{
    for (auto late = m_late.begin(); late != m_late.end();) {
        if (late->due > m_engine->now()) {
            ++late;
            continue;
        }
        const LateAnswer answer = std::move(*late);
        late = m_late.erase(late);
        m_http.answer(answer.connection, answer.response, answer.keepAlive);
    }
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
