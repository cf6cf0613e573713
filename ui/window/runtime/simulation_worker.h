// Advances the simulation on its own thread, toward the time the GUI asks for, in slices the gate hands back and
// forth (SimulationGate): the window's frames sync, refresh and paint without running the simulation themselves.
// The same targets give the same run, event for event, as advancing on the GUI thread: the simulation's result
// does not depend on how its advance is sliced.
#pragma once

#include "lifeline/sim/simulation.h"

#include <atomic>
#include <thread>

namespace lifeline::ui {

class SimulationWorker {
public:
    SimulationWorker();
    ~SimulationWorker(); // stops and joins; call it with the simulation still alive
    SimulationWorker(const SimulationWorker&) = delete;
    SimulationWorker& operator=(const SimulationWorker&) = delete;

    // With the gate held (the GUI thread): advance `simulation` up to `target` from now on. A target at or before
    // its clock stops the worker (pausing, or a simulation about to be replaced).
    void chase(sim::Simulation* simulation, TimeMs target);
    TimeMs target() const { return m_target.load(); }
    // Without the gate held: until the worker reached its target (tests and benchmarks).
    void waitIdle();
    // Wall-clock milliseconds the worker spent advancing since the last call (benchmarks).
    double takeBusyMs();

private:
    void run();
    bool hasWork() const { return m_target.load() > m_reached.load(); }

    sim::Simulation* m_simulation = nullptr; // read and written with the gate held
    std::atomic<TimeMs> m_target { 0 };
    std::atomic<TimeMs> m_reached { 0 };
    std::atomic<bool> m_stop { false };
    std::atomic<int64_t> m_busyNs { 0 };
    TimeMs m_slice = 10; // virtual ms a slice: adapted so a slice takes about a millisecond
    std::thread m_thread;
};

} // namespace lifeline::ui
