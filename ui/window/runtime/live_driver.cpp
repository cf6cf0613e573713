#include "window/runtime/live_driver.h"

#include "window/runtime/simulation_gate.h"
#include "window/runtime/simulation_worker.h"

#include <algorithm>
#include <cmath>

namespace lifeline::ui {

namespace {
constexpr int kFrameMs = 33;
constexpr qint64 kWorkBudgetMs = 12; // simulation work allowed per frame
constexpr int kFramesBehindToLag = 8;
} // namespace

LiveDriver::LiveDriver(sim::Simulation* simulation, LaneModel* model, QObject* parent)
    : QObject(parent)
    , m_simulation(simulation)
    , m_model(model)
{
    m_timer.setInterval(kFrameMs);
    connect(&m_timer, &QTimer::timeout, this, &LiveDriver::frame);
}

LiveDriver::~LiveDriver() = default;

void LiveDriver::setThreaded(bool threaded)
{
    if (threaded == bool(m_worker))
        return;
    if (threaded)
        m_worker = std::make_unique<SimulationWorker>();
    else
        m_worker.reset();
}

void LiveDriver::stopWorker()
{
    if (m_worker)
        m_worker->chase(m_simulation, m_simulation ? m_simulation->now() : 0);
}

void LiveDriver::setSimulation(sim::Simulation* simulation)
{
    pause(); // the worker chases nothing, nothing lags
    m_simulation = simulation;
    stopWorker(); // its target now reads on the new clock: a new run does not inherit the old run's time
    m_asked = 0;
    m_scriptEnded = false;
    m_stallNoted = false;
    m_quiet.forget();
    m_seenEvents = simulation ? simulation->engine().run().log().size() : 0;
    emit simulationChanged();
}

void LiveDriver::play()
{
    if (!m_simulation || playing())
        return;
    m_wall.start();
    m_carry = 0;
    m_quiet.interrupt();
    m_timer.start();
    emit playingChanged(true);
}

void LiveDriver::pause()
{
    stopWorker(); // also when not playing: a frame (frameTo) may have handed it a target
    m_framesBehind = 0;
    setLagging(false); // paused, nothing is behind
    if (!playing())
        return;
    m_timer.stop();
    // The worker went on after the last frame: the picture catches up with the clock it stopped at.
    if (m_simulation) {
        syncModel();
        emit advanced(m_simulation->now());
    }
    emit playingChanged(false);
}

const std::vector<int>& LiveDriver::speeds()
{
    static const std::vector<int> offered { 1, 2, 5, 10, 30, 100, 300, 1000, 3000 };
    return offered;
}

int LiveDriver::pacedSpeed(TimeMs storyMs)
{
    constexpr double kWallSeconds = 30; // long enough to follow, short enough to watch twice
    const auto distance
        = [&](int speed) { return std::abs(std::log(double(storyMs) / 1000.0 / speed / kWallSeconds)); };
    return *std::min_element(speeds().begin(), speeds().end(), [&](int a, int b) { return distance(a) < distance(b); });
}

void LiveDriver::setPassQuietWaits(bool on)
{
    m_passQuiet = on;
    m_quiet.interrupt(); // the spans passed so far stay on the ruler
    m_seenEvents = m_simulation ? m_simulation->engine().run().log().size() : 0;
}

void LiveDriver::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.1, 100000.0);
}

void LiveDriver::advanceBy(TimeMs virtualMs)
{
    if (!m_simulation)
        return;
    m_simulation->advanceTo(m_simulation->now() + virtualMs);
    syncModel();
    emit advanced(m_simulation->now());
    noteScriptEnd();
}

void LiveDriver::syncModel()
{
    // A bounded history is forgotten here, between frames, under the gate: the model reads the log right after,
    // so nothing on screen points into what was released.
    m_simulation->forgetHistory();
    m_model->sync();
}

void LiveDriver::noteStall()
{
    if (m_stallNoted || !m_simulation->stall())
        return;
    m_stallNoted = true;
    pause();
    emit stalled(QString::fromStdString(*m_simulation->stall()));
}

void LiveDriver::noteScriptEnd()
{
    noteStall();
    if (m_scriptEnded || m_simulation->now() < m_simulation->duration())
        return;
    m_scriptEnded = true;
    emit scriptEnd();
}

void LiveDriver::step()
{
    if (!m_simulation)
        return;
    pause();
    const TimeMs next = m_simulation->nextEventTime();
    if (next == INT64_MAX)
        return;
    advanceBy(std::max<TimeMs>(0, next - m_simulation->now()));
}

void LiveDriver::frame()
{
    frameAfter(m_wall.restart());
}

void LiveDriver::frameAfter(qint64 wall)
{
    if (!m_simulation)
        return;
    m_carry += double(wall) * m_speed;
    const auto step = TimeMs(m_carry);
    m_carry -= double(step);
    const TimeMs from = m_simulation->now();
    const int factor = m_passQuiet && !m_scriptEnded ? m_quiet.factor() : 1;
    TimeMs target = from + step * factor;
    // The frame that crosses the script's end stops exactly there, so what the script did is shown whole first.
    if (!m_scriptEnded)
        target = std::min(target, m_simulation->duration());
    if (factor > 1) {
        const bool changed = passQuietly(target, step);
        m_quiet.noteFrame(from, m_simulation->now(), wall, factor, changed);
    } else {
        frameTo(target);
        if (m_passQuiet)
            m_quiet.noteFrame(from, m_simulation->now(), wall, 1,
                QuietWaits::changedSince(m_simulation->engine().run(), m_seenEvents));
    }
}

bool LiveDriver::passQuietly(TimeMs target, TimeMs step)
{
    stopWorker(); // this frame advances here, where it can stop at the first change
    QElapsedTimer work;
    work.start();
    bool changed = false;
    while (!changed && m_simulation->now() < target && !m_simulation->stall() && work.elapsed() < kWorkBudgetMs) {
        m_simulation->advanceTo(std::min(target, m_simulation->now() + std::max<TimeMs>(1, step)));
        changed = QuietWaits::changedSince(m_simulation->engine().run(), m_seenEvents);
    }
    syncModel();
    emit advanced(m_simulation->now());
    noteScriptEnd();
    return changed;
}

void LiveDriver::frameTo(TimeMs target)
{
    if (!m_simulation)
        return;
    bool lagging = false;
    if (m_worker) {
        // What is left of the last frame's target is dropped (the clock slows down). Lagging: less than half of it
        // was done, not a few milliseconds short because the GUI was busy when the frame came, and not while the
        // GUI never let go of the gate since the last frame (a modal dialog is open: the simulation waits for it).
        const uint64_t releases = SimulationGate::instance().guiReleases();
        lagging = behind(m_worker->target(), m_simulation->now(), m_asked, releases != m_releasesAtFrame);
        m_releasesAtFrame = releases;
        m_asked = std::max<TimeMs>(0, target - m_simulation->now());
        m_worker->chase(m_simulation, target);
    } else {
        advanceSliced(target);
        lagging = m_simulation->now() < target && !m_simulation->stall();
    }
    // A frame behind is a hiccup (the GUI was busy: a window opening, a resize); eight in a row, a quarter second, are
    // a simulation that cannot keep up.
    m_framesBehind = lagging ? m_framesBehind + 1 : 0;
    setLagging(m_framesBehind >= kFramesBehindToLag);
    syncModel();
    emit advanced(m_simulation->now());
    noteScriptEnd();
}

void LiveDriver::setLagging(bool lagging)
{
    if (lagging == m_lagging)
        return;
    m_lagging = lagging;
    emit laggingChanged(lagging);
}

void LiveDriver::advanceSliced(TimeMs target)
{
    // Advance in slices so one frame never holds the window for long; what is left over is dropped (the clock
    // slows down) and the UI is told it is lagging.
    QElapsedTimer work;
    work.start();
    const TimeMs slice = std::max<TimeMs>(1, TimeMs(m_speed * 2));
    while (m_simulation->now() < target && !m_simulation->stall() && work.elapsed() < kWorkBudgetMs)
        m_simulation->advanceTo(std::min(target, m_simulation->now() + slice));
}

} // namespace lifeline::ui
