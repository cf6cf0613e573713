// Who may touch the simulation now: the GUI thread or the simulation's worker (SimulationWorker), never both.
//
// Why a gate and not snapshots: every panel reads the engine directly (lane records change in place as messages move),
// so the engine is never read while the worker advances it. The GUI thread holds the gate while it handles an event
// (GatedApplication::notify) and lets go while it waits for the next one; the worker advances in slices of about a
// millisecond while the GUI does not hold the gate and is not waiting for it. So a heavy stretch of simulation never
// sits inside a frame: the GUI waits at most one slice, then syncs, refreshes and paints.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>

namespace lifeline::ui {

class SimulationGate {
public:
    static SimulationGate& instance();

    // The GUI thread, around anything that reads or changes the simulation. Reentrant.
    void enterGui();
    void leaveGui();
    class GuiHold {
    public:
        GuiHold() { instance().enterGui(); }
        ~GuiHold() { instance().leaveGui(); }
        GuiHold(const GuiHold&) = delete;
        GuiHold& operator=(const GuiHold&) = delete;
    };

    // The worker: waits until it has work (`hasWork`, read under the gate's lock) and the GUI neither holds the gate
    // nor waits for it, or until `stop`. True: the worker holds the gate and must leaveWorker().
    bool enterWorker(const std::function<bool()>& hasWork, const std::atomic<bool>& stop);
    void leaveWorker();
    // New work or a stop: wakes a waiting worker.
    void wake();
    // Until the worker has no work and does not hold the gate (tests and benchmarks: a frame's idle time). Not with
    // the gate held.
    void waitIdle(const std::function<bool()>& hasWork);
    // How many times the GUI has let go of the gate: unchanged between two frames, the worker had no chance to run
    // (a modal dialog's event loop runs inside the event that opened it).
    uint64_t guiReleases();

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    int m_guiDepth = 0;
    int m_guiWaiting = 0;
    uint64_t m_guiReleases = 0;
    bool m_workerHolds = false;
};

} // namespace lifeline::ui
