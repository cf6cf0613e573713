#include "window/runtime/run_session.h"

#include "http/endpoint_server.h"
#include "http/proxy_server.h"
#include "http/trace_receiver.h"

#include <utility>

namespace lifeline::ui {

RunSession::RunSession(QObject* parent)
    : QObject(parent)
{
}

RunSession::~RunSession()
{
    // The server answers parked polls through the engine it serves: it goes while that engine still exists.
    delete m_source.server;
    delete m_source.proxy;
    delete m_source.receiver;
}

void RunSession::release(Source& source)
{
    // Stopped now (no poll is answered from an engine that is going), deleted once the event loop is back: the
    // call may come from one of its own signals.
    if (source.server) {
        source.server->stop();
        source.server->deleteLater();
        source.server = nullptr;
    }
    if (source.proxy) {
        source.proxy->stop();
        source.proxy->deleteLater();
        source.proxy = nullptr;
    }
    if (source.receiver) {
        source.receiver->stop();
        source.traces->finish(); // what came and still waited for its lag
        source.receiver->deleteLater();
        source.receiver = nullptr;
    }
}

void RunSession::replace(Source next)
{
    Source old = std::move(m_source);
    m_source = std::move(next);
    emit sourceChanged();
    release(old); // the old run goes only after every panel points at the new one
}

void RunSession::showSimulation(std::unique_ptr<sim::Simulation> simulation)
{
    Source next;
    next.kind = Kind::Simulation;
    next.run = &simulation->engine().run();
    next.simulation = std::move(simulation);
    replace(std::move(next));
}

void RunSession::showRecorded(std::unique_ptr<RecordedRun> run)
{
    Source next;
    next.kind = Kind::Recorded;
    next.run = run->run.get();
    next.recorded = std::move(run);
    replace(std::move(next));
}

void RunSession::showEndpoint(std::unique_ptr<lifeline::Engine> engine, EndpointServer* server)
{
    Source next;
    next.kind = Kind::Endpoint;
    next.run = &engine->run();
    next.ownedEngine = std::move(engine);
    next.server = server;
    server->setParent(this);
    replace(std::move(next));
}

void RunSession::renewEndpointEngine(std::unique_ptr<lifeline::Engine> engine)
{
    Source next;
    next.kind = Kind::Endpoint;
    next.run = &engine->run();
    next.ownedEngine = std::move(engine);
    next.server = std::exchange(m_source.server, nullptr); // kept: only the old engine goes
    replace(std::move(next));
}

void RunSession::showProxy(std::unique_ptr<observe::Observer> observer, ProxyServer* server)
{
    Source next;
    next.kind = Kind::Proxy;
    next.run = &observer->run();
    next.observer = std::move(observer);
    next.proxy = server;
    server->setParent(this);
    replace(std::move(next));
}

void RunSession::showTraces(std::unique_ptr<import::LiveImport> traces, TraceReceiver* receiver)
{
    Source next;
    next.kind = Kind::Traces;
    next.run = &traces->run();
    next.traces = std::move(traces);
    next.receiver = receiver;
    receiver->setParent(this);
    replace(std::move(next));
}

void RunSession::forgetHistory()
{
    if (m_source.ownedEngine)
        m_source.ownedEngine->forgetHistory();
}

void RunSession::catchUpLive()
{
    if (m_source.server)
        m_source.server->catchUp();
    else if (m_source.proxy)
        m_source.proxy->catchUp();
    else if (m_source.receiver)
        m_source.receiver->catchUp();
}

void RunSession::showRun(const lifeline::RunView& run)
{
    Source next;
    next.kind = Kind::Borrowed;
    next.run = &run;
    replace(std::move(next));
}

void RunSession::stopServing()
{
    release(m_source);
}

} // namespace lifeline::ui
