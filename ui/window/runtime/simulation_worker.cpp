#include "window/runtime/simulation_worker.h"

#include "window/runtime/simulation_gate.h"

#include <algorithm>
#include <chrono>

namespace lifeline::ui {

namespace {
// The longest the GUI waits for the gate: a slice's wall time. Short enough for a frame not to notice it.
constexpr double kSliceWallMs = 1.0;
constexpr TimeMs kMaxSliceMs = 60000;
} // namespace

SimulationWorker::SimulationWorker()
    : m_thread([this] { run(); })
{
}

SimulationWorker::~SimulationWorker()
{
    m_stop = true;
    SimulationGate::instance().wake();
    m_thread.join();
}

void SimulationWorker::chase(sim::Simulation* simulation, TimeMs target)
{
    m_simulation = simulation;
    const TimeMs now = simulation ? simulation->now() : 0;
    m_reached = now; // the GUI may have moved the clock itself (a step, a new run)
    m_target = simulation ? std::max(target, now) : now;
    SimulationGate::instance().wake();
}

void SimulationWorker::waitIdle()
{
    SimulationGate::instance().waitIdle([this] { return hasWork(); });
}

double SimulationWorker::takeBusyMs()
{
    return double(m_busyNs.exchange(0)) / 1e6;
}

void SimulationWorker::run()
{
    SimulationGate& gate = SimulationGate::instance();
    while (gate.enterWorker([this] { return hasWork(); }, m_stop)) {
        const auto start = std::chrono::steady_clock::now();
        const TimeMs target = m_target.load();
        bool fullSlice = false;
        const bool stalled = m_simulation && m_simulation->stall();
        if (m_simulation && !stalled && m_simulation->now() < target) {
            fullSlice = target - m_simulation->now() >= m_slice;
            m_simulation->advanceTo(std::min(target, m_simulation->now() + m_slice));
        }
        m_reached = m_simulation && !stalled ? m_simulation->now() : target; // a stalled run has nothing to do
        const auto busy = std::chrono::steady_clock::now() - start;
        gate.leaveWorker();
        m_busyNs += std::chrono::duration_cast<std::chrono::nanoseconds>(busy).count();
        // Toward a millisecond a slice: at most twice as long or half as short as the last, and longer only after a
        // whole slice (the end of a frame's target says nothing about how long a whole one takes).
        const double ms = std::chrono::duration<double, std::milli>(busy).count();
        const double scale = std::clamp(kSliceWallMs / std::max(ms, 0.001), 0.5, fullSlice ? 2.0 : 1.0);
        m_slice = std::clamp<TimeMs>(TimeMs(double(m_slice) * scale), 1, kMaxSliceMs);
    }
}

} // namespace lifeline::ui
