// The local SQS endpoint on the network: HTTP/1.1 (http_server.h), on the thread of the engine it serves (so the
// window can draw that engine live, and nothing needs a lock). Time runs at wall-clock speed x `speed` on the
// engine's virtual clock, or, with a manual clock, only when a test moves it (the control API, control_api.h). Each
// request: the clock catches up, core's pipeline (request_pipeline.h) guards, decodes and answers it; a ReceiveMessage
// that waits parks its connection until the engine completes the poll (a message, or its wait ends), so a long poll
// holds up nobody. Every kind of client is an actor (client_identity.h: its user agent and access key prefix), so the
// timeline shows who received what.
#pragma once

#include "http/http_server.h"
#include "lifeline/endpoint/control_api.h"
#include "lifeline/endpoint/protocol.h"
#include "lifeline/endpoint/request_guard.h"
#include "lifeline/endpoint/request_pipeline.h"
#include "lifeline/endpoint/sqs_service.h"
#include "lifeline/support/outcome.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>
#include <optional>
#include <unordered_map>

namespace lifeline::ui {

// Where it listens and its connections' limits (http_server.h), and how fast its clock runs.
struct EndpointOptions : HttpServerOptions {
    double speed = 1.0; // virtual seconds per wall second
    bool manualClock = false; // --clock manual: virtual time moves only when a test advances it (control_api.h)
    endpoint::GuardOptions guard; // what browsers may not do (Origin, GET changes, foreign Host)
    std::optional<uint64_t> seed; // --seed: the same ids run to run; none: a fresh seed (net/run_seed.h)
    bool quotas = false; // --quotas: SQS's in-flight and FIFO throughput quotas (EngineOptions::quotas)
    // --faults FILE: SQS's faults injected from the start (docs/faults.md); the engine's owner passes them on
    // (EngineOptions::faults), and a reset keeps the engine's plan in force.
    std::optional<FaultPlan> faults = std::nullopt;
};

class EndpointServer : public QObject {
    Q_OBJECT
public:
    // POST /_lifeline/reset: the owner of the engine replaces it with one made from `options` (the same seed and
    // account; timestamps go on from where the old clock stood) and returns it. The server first ends its long polls
    // (their queue is gone) and forgets its clients. Without one, a reset is refused (501).
    using EngineRenewal = std::function<Engine&(const EngineOptions& options)>;
    // GET /_lifeline/runs/current?format=png|svg: the run drawn (the image export, which this library does not link;
    // `svg` or PNG, `size` in pixels). Without one, such a request is refused (501).
    using RunImageWriter = std::function<Outcome<std::string>(const RunView& run, bool svg, int width, int height)>;

    explicit EndpointServer(Engine& engine, QObject* parent = nullptr);
    ~EndpointServer() override;
    void allowReset(EngineRenewal renew) { m_renew = std::move(renew); }
    void setRunImageWriter(RunImageWriter writer) { m_drawRun = std::move(writer); }

    // Starts listening; on failure says why in `error` (the port is taken, the address is not ours).
    Outcome<> start(const EndpointOptions& options);
    void stop();
    bool listening() const { return m_http.listening(); }
    quint16 port() const { return m_http.port(); }
    QString address() const { return m_http.address(); } // http://127.0.0.1:9324
    bool exposed() const { return m_http.exposed(); } // bound to something other than loopback
    double speed() const { return m_options.speed; }

    // One SQS call as the operator (the window's Queue panel): the service's answer, as a client would get it.
    // Not for ReceiveMessage (its poll would wait for a connection that does not exist).
    endpoint::CallOutcome operatorCall(const std::string& action, const nlohmann::json& params);
    // The QueueUrl of a queue, as this endpoint gives it out.
    std::string queueUrl(const std::string& queue) const;
    // Brings the virtual clock up to the wall clock and answers the long polls that completed.
    void catchUp();
    size_t requestsServed() const { return m_requests; }
    size_t openConnections() const { return m_http.openConnections(); }
    size_t waitingPolls() const { return m_waiting.size(); }
    // Long polls whose client went away and that still wait (docs/decisions.md: they go on, as the simulation's).
    size_t orphanedPolls() const { return m_orphaned.size(); }
    size_t timedOut() const { return m_http.timedOut(); } // connections closed by a timeout so far
    size_t acceptFailures() const { return m_http.acceptFailures(); } // accepts refused for want of a descriptor

signals:
    // A test reset the endpoint (POST /_lifeline/reset): the run shown is a new one.
    void wasReset();

private:
    using ConnectionId = HttpServer::ConnectionId;
    // A ReceiveMessage that waits: answered on its connection when the engine completes its poll.
    struct ParkedPoll {
        ConnectionId connection;
        std::string queue;
        endpoint::ReceiveView view;
        endpoint::Protocol protocol;
        std::string requestId;
        bool keepAlive;
    };
    // A request through core's pipeline (request_pipeline.h); its answer sent now, or its receive parked.
    void handle(ConnectionId connection, endpoint::HttpRequest&& request);
    // The control API's command (control_api.h): reads or moves the clock, resets, reads the run; answers at once,
    // but for an advance that waits for receives to park first (deferred until they do).
    void applyControl(ConnectionId connection, const endpoint::ControlCommand& command, bool keepAlive);
    // The advances waiting for receives: applied, in order, once as many are parked; refused after
    // kLongestReceiveWaitMs of wall time.
    void runDeferredAdvances();
    endpoint::ClockState clockState() const;
    // GET /_lifeline/runs/current: the run so far as a run file, its lanes as JSON or its timeline drawn, or why not.
    endpoint::HttpResponse runResponse(const endpoint::ControlCommand& command) const;
    endpoint::HttpResponse runFileResponse() const;
    // Every queue and message gone, the clock at 0: a fresh engine from the owner (EngineRenewal).
    void reset();
    // The wall-clock time and virtual time the clock runs on from now (after a change of speed, a pause, an advance).
    void rebaseClock();
    bool clockRuns() const { return !m_options.manualClock && !m_paused && m_wall.isValid(); }
    void closed(ConnectionId connection, bool requestInHand);
    // Answers what is due: the long polls that completed, and the answers a latency fault held back whose time has
    // come (on the virtual clock, so a manual clock releases them when a test advances it).
    void answerCompletedPolls();
    void scheduleWake();
    uint32_t actorFor(ConnectionId connection, const endpoint::HttpRequest& request);

    Engine* m_engine; // replaced by a reset
    std::optional<endpoint::SqsService> m_service; // the engine's
    EngineRenewal m_renew;
    uint64_t m_resets = 0; // answers still being read from the engine before a reset end there
    RunImageWriter m_drawRun;
    EndpointOptions m_options;
    HttpServer m_http;
    QTimer m_wake; // the engine's next transition, in wall time
    QElapsedTimer m_wall;
    TimeMs m_virtualAtStart = 0;
    bool m_paused = false;
    std::unordered_map<PollId, ParkedPoll> m_waiting;
    struct LateAnswer { // held back by a latency fault (docs/faults.md)
        TimeMs due;
        ConnectionId connection;
        endpoint::HttpResponse response;
        bool keepAlive;
    };
    std::vector<LateAnswer> m_late; // in the order they came

    // An advance with "afterWaiting" that came before its receives did.
    struct DeferredAdvance {
        ConnectionId connection;
        endpoint::ControlCommand command;
        bool keepAlive;
        QElapsedTimer since;
    };
    std::vector<DeferredAdvance> m_deferred;
    QTimer m_deferredCheck; // while any waits: their time limit
    std::unordered_map<ConnectionId, PollId> m_pollOf; // a connection's parked poll
    std::unordered_map<PollId, uint32_t> m_orphaned; // a gone client's poll -> its actor
    std::unordered_map<std::string, uint32_t> m_actorByClient; // client identity -> its actor in the run
    std::unordered_map<ConnectionId, uint32_t> m_actorOf; // named by its connection's first request
    size_t m_requests = 0;
};

} // namespace lifeline::ui
