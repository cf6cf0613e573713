#include "window/runtime/gated_application.h"

#include "window/runtime/simulation_gate.h"

#include <QThread>

namespace lifeline::ui {

GatedApplication::GatedApplication(int& argc, char** argv)
    : QApplication(argc, argv)
{
}

bool GatedApplication::notify(QObject* receiver, QEvent* event)
{
    // Other threads' events (Qt's own helpers) never touch the simulation.
    if (QThread::currentThread() != thread())
        return QApplication::notify(receiver, event);
    const SimulationGate::GuiHold hold;
    return QApplication::notify(receiver, event);
}

} // namespace lifeline::ui
