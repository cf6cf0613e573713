// Plays a simulation in wall time: each frame (about 30 per second) virtual time moves by wall time x speed, the
// model syncs once, and the view follows. Simulation work per frame is bounded: when it cannot keep up, virtual
// time falls behind and `lagging` says so instead of freezing the window. A scenario's duration ends its script,
// not the clock: the driver says so once (scriptEnded) and keeps playing, the producers at their steady rates, so
// the queue stays open to the learner's sends, crashes and sliders.
#pragma once

#include "lifeline/sim/simulation.h"
#include "timeline/lane_model.h"
#include "window/runtime/quiet_waits.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <vector>

namespace lifeline::ui {

class SimulationWorker;

class LiveDriver : public QObject {
    Q_OBJECT
public:
    LiveDriver(sim::Simulation* simulation, LaneModel* model, QObject* parent = nullptr);
    ~LiveDriver() override;

    void setSimulation(sim::Simulation* simulation);
    bool playing() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    bool lagging() const { return m_lagging; }
    bool scriptEnded() const { return m_scriptEnded; }
    // Threaded, playing advances the simulation on a worker (SimulationWorker) between the GUI's events, which
    // must then all hold the gate (GatedApplication does). Off by default: tests advance on the GUI thread.
    // Turning it off stops and joins the worker.
    void setThreaded(bool threaded);
    SimulationWorker* worker() const { return m_worker.get(); }
    // A frame with the clock at `target`: threaded, the worker chases it from now on and the view syncs to where the
    // simulation is; else the simulation advances to it here, a bounded amount of work (what play() does each frame).
    void frameTo(TimeMs target);
    // What each timer tick does, `wall` ms of wall time after the last: the clock moves by wall x speed (faster in a
    // quiet wait) and the view syncs. Tests call it with the wall time they choose.
    void frameAfter(qint64 wall);
    // Threaded: is the simulation behind, at a frame? `lastTarget` was asked `asked` virtual ms ago (from the clock
    // then) and the clock is at `now`; `workerCouldRun`: the GUI let go of the gate since (else a modal dialog held it,
    // and the simulation waits for it rather than lags). Behind: less than half of what was asked was done.
    static bool behind(TimeMs lastTarget, TimeMs now, TimeMs asked, bool workerCouldRun)
    {
        return workerCouldRun && 2 * (lastTarget - now) > asked;
    }
    // The speeds the toolbar offers, virtual seconds per wall second.
    static const std::vector<int>& speeds();
    // The offered speed at which a story of `storyMs` plays in about half a minute of wall time (the nearest, by
    // ratio, to 30 s): a lesson of 2 minutes at 5×, one of 20 minutes at 30×.
    static int pacedSpeed(TimeMs storyMs);
    // A lesson's waits where nothing changes pass faster until its script ends (QuietWaits); off by default.
    void setPassQuietWaits(bool on);
    const std::vector<FastSpan>& fastSpans() const { return m_quiet.spans(); }

public slots:
    void play();
    void pause();
    void togglePlay() { playing() ? pause() : play(); }
    void step(); // to the next thing that happens
    void setSpeed(double speed);
    // Advances by `virtualMs` at once (tests and "step" use it; no wall clock involved).
    void advanceBy(TimeMs virtualMs);

signals:
    void advanced(lifeline::TimeMs now);
    void playingChanged(bool playing);
    void laggingChanged(bool lagging);
    void simulationChanged();
    void scriptEnd(); // virtual time reached the scenario's duration (once per run)
    void stalled(const QString& why); // the run stopped making progress (Simulation::stall): it is paused

private:
    void syncModel(); // forgets what the run's bounded history lets go, then brings the lanes up to date
    void frame();
    void noteScriptEnd();
    void noteStall(); // pauses and says why, once per run

    void advanceSliced(TimeMs target); // on this thread, at most kWorkBudgetMs of work
    // On this thread, toward `target` in steps of `step` (the chosen speed's frame), stopping after the first step in
    // which a lane changed state; at most kWorkBudgetMs of work. Did one change?
    bool passQuietly(TimeMs target, TimeMs step);
    void setLagging(bool lagging);
    void stopWorker(); // it chases nothing from the simulation's clock now: pausing, or a new simulation

    sim::Simulation* m_simulation;
    bool m_stallNoted = false;
    LaneModel* m_model;
    std::unique_ptr<SimulationWorker> m_worker;
    QTimer m_timer;
    QElapsedTimer m_wall;
    double m_speed = 10;
    double m_carry = 0; // fractions of a virtual millisecond owed
    bool m_lagging = false;
    int m_framesBehind = 0; // frames in a row that did not reach their target
    TimeMs m_asked = 0; // threaded: virtual time the last frame asked of the worker
    uint64_t m_releasesAtFrame = 0; // threaded: SimulationGate::guiReleases() at the last frame
    bool m_scriptEnded = false;
    bool m_passQuiet = false;
    QuietWaits m_quiet;
    size_t m_seenEvents = 0; // the log's events read for changes of state
};

} // namespace lifeline::ui
