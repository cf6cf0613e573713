// The window's QApplication: the GUI thread holds the simulation's gate (SimulationGate) while it handles each event,
// and lets go while it waits for the next, which is when the simulation's worker advances. Everything the GUI
// thread does with the simulation happens inside an event (timers, input, paint, queued calls), so no panel needs to
// know the worker exists.
#pragma once

#include <QApplication>

namespace lifeline::ui {

class GatedApplication : public QApplication {
    Q_OBJECT
public:
    GatedApplication(int& argc, char** argv);
    bool notify(QObject* receiver, QEvent* event) override;
};

} // namespace lifeline::ui
