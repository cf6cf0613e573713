#include "window/runtime/simulation_gate.h"

namespace lifeline::ui {

SimulationGate& SimulationGate::instance()
{
    static SimulationGate gate;
    return gate;
}

void SimulationGate::enterGui()
{
    std::unique_lock lock(m_mutex);
    if (m_guiDepth++ > 0)
        return; // an event sent while handling another
    ++m_guiWaiting;
    m_changed.wait(lock, [this] { return !m_workerHolds; });
    --m_guiWaiting;
}

void SimulationGate::leaveGui()
{
    std::lock_guard lock(m_mutex);
    if (--m_guiDepth == 0) {
        ++m_guiReleases;
        m_changed.notify_all();
    }
}

bool SimulationGate::enterWorker(const std::function<bool()>& hasWork, const std::atomic<bool>& stop)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return stop.load() || (m_guiDepth == 0 && m_guiWaiting == 0 && hasWork()); });
    if (stop.load())
        return false;
    m_workerHolds = true;
    return true;
}

void SimulationGate::leaveWorker()
{
    std::lock_guard lock(m_mutex);
    m_workerHolds = false;
    m_changed.notify_all();
}

void SimulationGate::wake()
{
    std::lock_guard lock(m_mutex);
    m_changed.notify_all();
}

uint64_t SimulationGate::guiReleases()
{
    std::lock_guard lock(m_mutex);
    return m_guiReleases;
}

void SimulationGate::waitIdle(const std::function<bool()>& hasWork)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_workerHolds && !hasWork(); });
}

} // namespace lifeline::ui
