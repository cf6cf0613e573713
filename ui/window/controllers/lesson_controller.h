// The window's lesson: the lesson panel (the lesson's text, its key moments, the fix button), the lesson on show and
// whether its fix is applied, the Lessons menu (all lessons, practice, the fix, the course's blocks and their lessons),
// View > Compare with the fix, and File > Check a queue (a finding is shown as a lesson whose fix is the suggested
// change). The window runs what the controller asks for (runRequested) and shows what it says.
#pragma once

#include "lifeline/run/event_log.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QWidget;

namespace lifeline::scenario {
struct Scenario;
}

namespace lifeline::ui {

class ComparisonPane;
class DrillDialog;
class LaneModel;
class MomentList;
class TimelineView;

class LessonController : public QObject {
    Q_OBJECT
public:
    // What the lesson is shown in and beside.
    struct Window {
        QWidget* window; // the parent of the panel, the dialogs and the comparison window
        LaneModel* model; // the moments listed are the run's
        TimelineView* timeline; // a moment chosen in the list is focused there
    };

    explicit LessonController(Window window);
    ~LessonController() override;

    // The lesson dock's content; `below` (the run's summary) goes under the fix button.
    QWidget* buildPanel(QWidget* below);
    // Lessons > All lessons, Practice, the fix, and each lesson.
    void fillMenu(QMenu* lessons);
    // View > Compare with the fix (enabled while a lesson with a fix is on show).
    QAction* compareAction() const { return m_compareAction; }

    // A built-in lesson by id or number: its scenario runs and its text shows. False when there is no such lesson.
    bool openLesson(const QString& idOrNumber);
    // A scenario that carries a lesson's texts (a built-in one, a file saved from one, a check's finding).
    void startLesson(const scenario::Scenario& lesson);
    // The lesson's fix on (its scenario patched, run from the start) or off (the lesson as written).
    void applyFix(bool on);
    // Not a lesson (a scenario, a saved run, a live source): its title and words in the panel.
    void showText(const QString& title, const QString& text);
    // The lesson as written and fixed, stacked, in a window of their own; none without a lesson that has a fix.
    ComparisonPane* compareWithFix(bool dark);
    // Every queue of the lesson standard or FIFO, so the fix applies to the converted lesson.
    void convertQueues(bool fifo);
    void showPractice(); // Lessons > Practice
    // Lessons > Exam drill: twenty exercises across topics (the seed draws them; new ones each time by default).
    DrillDialog* showDrill(std::optional<uint64_t> seed = std::nullopt);
    void showLessonPicker(); // Lessons > All lessons, and the start page's list
    void showCheck(); // File > Check a queue

    bool fixApplied() const { return m_fixApplied; }
    QString lessonId() const { return m_lessonId; }
    QString title() const { return m_title; } // the lesson's or the run's, as the window's title says
    QString htmlShown() const; // what the lesson panel shows

signals:
    void runRequested(const scenario::Scenario& scenario); // the window runs it from the start and plays
    void practiceRunRequested(
        const scenario::Scenario& scenario, TimeMs at); // an answer's run, paused where it went wrong
    void titleChanged(const QString& title);
    void said(const QString& text);

private:
    void showLessonText(bool fixed); // what to watch as written, or the fixed run's story
    void enableFix(bool on);
    void noteMomentsReached(); // the lesson seen, for the course's progress, once every key moment was found

    Window m_window;
    QLabel* m_text;
    MomentList* m_moments;
    QPushButton* m_fixButton;
    QAction* m_compareAction;
    std::unique_ptr<scenario::Scenario> m_lesson; // the lesson as written (the fix is applied to it)
    QString m_title;
    QString m_lessonId;
    bool m_fixApplied = false;
};

} // namespace lifeline::ui
