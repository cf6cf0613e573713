// The window's two layouts. Learning: the timeline, its caption, the lesson panel, and only the controls the lesson
// names (its sliders, its consumers), so a lesson is one idea on a clean canvas. Engineering: every dock (a message's
// history, the charts, the event log), the toolbar's lane filter, state, alive-in-view and order controls, and every
// row of the queue controls. View > Engineering layout (F9) switches; the choice is remembered per user.
#pragma once

#include <QList>
#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;

namespace lifeline::scenario {
struct LessonText;
}

namespace lifeline::ui {

class QueueControls;

class LayoutController : public QObject {
    Q_OBJECT
public:
    // `laneControls`: the toolbar's actions the learning layout hides.
    LayoutController(QMainWindow* window, QueueControls* controls, QList<QAction*> laneControls);

    QAction* action() const { return m_action; } // checkable: View > Engineering layout (F9)
    bool engineering() const;
    void setEngineering(bool on);
    // The lesson on show (none for other runs): the controls of the settings its fix changes stay in the learning
    // layout (a learner must be able to try the fix by hand).
    void setLesson(const scenario::LessonText* lesson);

    static QStringList engineeringDocks(); // the docks only the engineering layout shows, by object name

signals:
    void said(const QString& text);

private:
    void applyDocks(); // the docks for the layout chosen
    void apply(); // the toolbar's and the queue controls' rows for it

    QMainWindow* m_window;
    QueueControls* m_controls;
    QList<QAction*> m_laneControls;
    QAction* m_action;
    QStringList m_named;
};

} // namespace lifeline::ui
