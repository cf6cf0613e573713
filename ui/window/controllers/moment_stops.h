// "Stop at each key moment": while a lesson plays, the run pauses on each key moment as it happens, its caption large
// over the timeline, until the learner goes on (Space, N, or Play). A learner who only watches sees each point made,
// one at a time. Off for other scenarios; on by default for a learner's first lesson (MainWindow::rememberSettings).
#pragma once

#include "lifeline/run/run_view.h"

#include <QObject>
#include <functional>
#include <optional>

class QAction;
class QLabel;
class QWidget;

namespace lifeline::ui {

class LaneModel;
class LiveDriver;
class TimelineView;

class MomentStops : public QObject {
    Q_OBJECT
public:
    MomentStops(TimelineView* timeline, LaneModel* model, LiveDriver* driver, QObject* parent);

    QAction* action() const { return m_action; } // checkable: Lessons > Stop at each key moment
    // A lesson's run is on show (its moments are the ones to stop at); false for another scenario.
    void setLessonShown(bool shown);
    // When a stop on a moment at a time is shown (the window's is picture::storyStopAt: a moment at the story's first
    // send waits until its lanes are drawn); the run plays on until then. Without it, when the moment happens.
    void setShownAt(std::function<TimeMs(TimeMs)> shownAt) { m_shownAt = std::move(shownAt); }
    bool stopped() const; // paused on a moment, its caption shown
    QLabel* caption() const { return m_caption; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void momentsFound();
    void stopIfDue(TimeMs now); // stops on the pending moments once their stop is due
    void goOn(); // hides the caption; the run plays again if it was stopped here
    void hideCaption(); // and the moments' callouts come back
    void placeCaption();

    TimelineView* m_timeline;
    double m_pinsY = 0; // where the moments stopped at are drawn: the caption keeps clear of them
    LaneModel* m_model;
    LiveDriver* m_driver;
    QAction* m_action;
    QLabel* m_caption;
    bool m_lessonShown = false;
    size_t m_seen = 0; // the moments already stopped at (or passed) in this run
    std::function<TimeMs(TimeMs)> m_shownAt;
    struct Pending {
        size_t first; // the first moment of the stop
        TimeMs at; // when it is shown
    };
    std::optional<Pending> m_pending; // moments found, their stop not yet shown
};

} // namespace lifeline::ui
