#include "window/controllers/layout_controller.h"

#include "lifeline/scenario/scenario.h"
#include "window/panels/queue_controls.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>

namespace lifeline::ui {

namespace {
// The settings a lesson's fix changes, by name: the last step of each path its patch writes
// ("/queues/0/attributes/ReceiveMessageWaitTimeSeconds", "/producers/0/rate"), and the fields of an object it writes.
QStringList fixedSettings(const scenario::LessonText& lesson)
{
    QStringList names;
    if (lesson.fixPatch.is_array())
        for (const auto& op : lesson.fixPatch)
            if (op.contains("path") && op["path"].is_string()) {
                const std::string path = op["path"].get<std::string>();
                names << QString::fromStdString(path.substr(path.rfind('/') + 1));
                if (op.contains("value") && op["value"].is_object()) // a whole object written: its fields
                    for (const auto& [key, value] : op["value"].items())
                        names << QString::fromStdString(key);
            }
    return names;
}
} // namespace

LayoutController::LayoutController(QMainWindow* window, QueueControls* controls, QList<QAction*> laneControls)
    : QObject(window)
    , m_window(window)
    , m_controls(controls)
    , m_laneControls(std::move(laneControls))
    , m_action(new QAction(tr("&Engineering layout"), this))
{
    m_action->setObjectName(QStringLiteral("engineeringLayout"));
    m_action->setCheckable(true);
    m_action->setShortcut(Qt::Key_F9);
    m_action->setToolTip(tr("Every panel: a message's history, charts, the event log, the lane filter and order (F9)"));
    connect(m_action, &QAction::toggled, this, [this](bool on) {
        applyDocks();
        apply();
        emit said(on ? tr("Engineering layout: every panel (F9 goes back to the learning layout)")
                     : tr("Learning layout: the timeline, the lesson and its controls (F9: every panel)"));
    });
    applyDocks();
    apply();
}

QStringList LayoutController::engineeringDocks()
{
    return { QStringLiteral("messageDock"), QStringLiteral("chartsDock"), QStringLiteral("eventLogDock") };
}

bool LayoutController::engineering() const
{
    return m_action->isChecked();
}

void LayoutController::setEngineering(bool on)
{
    const QSignalBlocker quiet(m_action); // a restored choice is not announced
    m_action->setChecked(on);
    applyDocks();
    apply();
}

void LayoutController::setLesson(const scenario::LessonText* lesson)
{
    m_named = lesson ? fixedSettings(*lesson) : QStringList();
    apply();
}

void LayoutController::applyDocks()
{
    // Only when the layout changes: a dock the user showed or closed by hand (View) stays so until then.
    const bool all = engineering();
    for (const QString& name : engineeringDocks())
        if (auto* dock = m_window->findChild<QDockWidget*>(name))
            dock->setVisible(all);
    if (all)
        for (auto* dock : m_window->findChildren<QDockWidget*>())
            dock->show();
}

void LayoutController::apply()
{
    const bool all = engineering();
    for (QAction* control : m_laneControls)
        control->setVisible(all);
    m_controls->setLearning(!all, m_named);
}

} // namespace lifeline::ui
