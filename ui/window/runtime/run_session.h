// The run on screen and where it comes from: a simulation (a lesson or a scenario), a saved run, or the local
// endpoint's engine that real clients drive, or the recording proxy's observed run. It owns the source and its run;
// the window's panels bind to it once and re-read it on sourceChanged, so a new kind of source is one more show*()
// here, not another copy of the wiring in the window.
#pragma once

#include "lifeline/engine/engine.h"
#include "lifeline/import/live_import.h"
#include "lifeline/io/run_file.h"
#include "lifeline/observe/observer.h"
#include "lifeline/sim/simulation.h"

#include <QObject>
#include <memory>
#include <string>
#include <vector>

namespace lifeline::ui {

class EndpointServer;
class ProxyServer;
class TraceReceiver;

class RunSession : public QObject {
    Q_OBJECT
public:
    enum class Kind { None, Simulation, Recorded, Endpoint, Proxy, Traces, Borrowed };

    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;

    // Each replaces the run on screen. The old source is destroyed only after sourceChanged has been handled, so
    // no panel ever holds a pointer into a run that is gone.
    void showSimulation(std::unique_ptr<sim::Simulation> simulation);
    void showRecorded(std::unique_ptr<RecordedRun> run);
    // The endpoint's engine and its server (the session becomes the server's parent).
    void showEndpoint(std::unique_ptr<lifeline::Engine> engine, EndpointServer* server);
    // The endpoint was reset (POST /_lifeline/reset): the same server goes on with a fresh engine.
    void renewEndpointEngine(std::unique_ptr<lifeline::Engine> engine);
    // The recording proxy's observed run and its server (the session becomes the server's parent).
    void showProxy(std::unique_ptr<observe::Observer> observer, ProxyServer* server);
    // Spans received live (File > Receive traces) and their receiver (the session becomes its parent).
    void showTraces(std::unique_ptr<import::LiveImport> traces, TraceReceiver* receiver);
    // A run someone else owns (tests and benchmarks).
    void showRun(const lifeline::RunView& run);
    // The endpoint stops serving; its run stays on screen.
    void stopServing();

    Kind kind() const { return m_source.kind; }
    // What every panel reads: the run so far, whatever its source.
    const lifeline::RunView* run() const { return m_source.run; }
    sim::Simulation* simulation() const { return m_source.simulation.get(); }
    EndpointServer* endpoint() const { return m_source.server; }
    ProxyServer* proxy() const { return m_source.proxy; }
    observe::Observer* observer() const { return m_source.observer.get(); }
    TraceReceiver* traceReceiver() const { return m_source.receiver; }
    const import::LiveImport* traces() const { return m_source.traces.get(); }
    // Real clients drive the run (the local endpoint or the proxy): the clock is the wall clock's.
    bool live() const { return m_source.server || m_source.proxy || m_source.receiver; }
    // Brings a live run's clock up to the wall clock.
    void catchUpLive();
    // Lets a bounded history go (the endpoint's engine; a simulation's is LiveDriver's to forget, frame by frame).
    void forgetHistory();
    const RecordedRun* recorded() const { return m_source.recorded.get(); }

signals:
    void sourceChanged();

private:
    struct Source {
        Kind kind = Kind::None;
        const lifeline::RunView* run = nullptr;
        std::unique_ptr<sim::Simulation> simulation;
        std::unique_ptr<RecordedRun> recorded;
        std::unique_ptr<lifeline::Engine> ownedEngine; // the endpoint's
        EndpointServer* server = nullptr;
        std::unique_ptr<observe::Observer> observer; // the proxy's
        ProxyServer* proxy = nullptr;
        std::unique_ptr<import::LiveImport> traces; // spans received live
        TraceReceiver* receiver = nullptr;
    };
    void replace(Source next);
    static void release(Source& source); // stops the source's server, if any

    Source m_source;
};

} // namespace lifeline::ui
