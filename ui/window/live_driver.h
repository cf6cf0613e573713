// Plays a simulation in wall time: each frame (about 30 per second) virtual time moves by wall time x speed, the
// model syncs once, and the view follows. Simulation work per frame is bounded: when it cannot keep up, virtual
// time falls behind and `lagging` says so instead of freezing the window. A scenario's duration ends its script,
// not the clock: the driver says so once (scriptEnded) and keeps playing, the producers at their steady rates, so
// the queue stays open to the learner's sends, crashes and sliders.
#pragma once

#include "lifeline/sim/simulation.h"
#include "timeline/lane_model.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace lifeline::ui {

class LiveDriver : public QObject {
    Q_OBJECT
public:
    LiveDriver(sim::Simulation* simulation, LaneModel* model, QObject* parent = nullptr);

    void setSimulation(sim::Simulation* simulation);
    bool playing() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    bool lagging() const { return m_lagging; }
    bool scriptEnded() const { return m_scriptEnded; }

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

private:
    void frame();
    void noteScriptEnd();

    sim::Simulation* m_simulation;
    LaneModel* m_model;
    QTimer m_timer;
    QElapsedTimer m_wall;
    double m_speed = 10;
    double m_carry = 0; // fractions of a virtual millisecond owed
    bool m_lagging = false;
    bool m_scriptEnded = false;
};

} // namespace lifeline::ui
