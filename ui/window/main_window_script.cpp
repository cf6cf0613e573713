// The window's scenario runs: what happens when a script ends (a lesson's view fits its story; the queue keeps running)
// or a run stalls, a practice answer's run paused where it went wrong, and the lesson calls the window forwards to its
// LessonController (the app and the tests open lessons through the window).
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/layout_controller.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/story_framer.h"
#include "window/main_window.h"
#include "window/panels/comparison_pane.h"
#include "window/runtime/live_driver.h"

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QSplitter>
#include <algorithm>

namespace lifeline::ui {

void MainWindow::connectScript()
{
    connect(m_driver, &LiveDriver::scriptEnd, this, &MainWindow::scriptEnded);
    connect(m_driver, &LiveDriver::stalled, this, [this](const QString& why) {
        const QString sentence = why.left(1).toUpper() + why.mid(1);
        QMessageBox::warning(this, tr("The run stopped"),
            tr("%1.\n\nWhat happened so far stays on the timeline. Change the setting that caused it, or open the "
               "scenario again.")
                .arg(sentence));
    });
    connect(m_driver, &LiveDriver::simulationChanged, m_scriptBanner, &QWidget::hide);
    m_timeline->setFastSpans(&m_driver->fastSpans());
    connect(m_driver, &LiveDriver::playingChanged, m_timeline, &TimelineView::setEaseRows);
}

void MainWindow::playLesson(const scenario::Scenario& lesson)
{
    // A lesson plays at a pace it can be followed: its story in about half a minute (the speed box shows it, the user
    // can change it).
    const auto& speeds = LiveDriver::speeds();
    const auto paced = std::find(speeds.begin(), speeds.end(), LiveDriver::pacedSpeed(lesson.duration));
    m_speed->setCurrentIndex(int(paced - speeds.begin()));
    openScenario(lesson);
    m_driver->play();
}

void MainWindow::scriptEnded()
{
    m_scriptBanner->setText(tr("%1's script has ended; the queue keeps running: send messages, crash consumers, "
                               "move sliders. Restart replays it from the start.")
                                .arg(m_lessons->lessonId().isEmpty() ? tr("The scenario") : tr("The lesson")));
    m_scriptBanner->show();
}

void MainWindow::showPracticeRun(const scenario::Scenario& scenario, TimeMs at)
{
    openScenario(scenario);
    m_framer->take(); // the view shows where the answer went wrong
    sim::Simulation* run = simulation();
    if (!run)
        return;
    const TimeMs until = at < 0 ? run->duration() : std::min(run->duration(), at + std::max<TimeMs>(5000, at / 10));
    run->advanceTo(until);
    m_model->sync();
    m_timeline->setFollowLive(false);
    m_timeline->setNow(run->now());
    if (at >= 0)
        m_timeline->centreOn(at);
    else
        m_timeline->fitAll();
    refresh();
    say(at >= 0 ? tr("Your answer's run, paused just after it went wrong at %1; Play goes on.")
                      .arg(QString::fromStdString(lifeline::formatDuration(at)))
                : tr("Your answer's run, paused at its end; Play goes on."));
}

ComparisonPane* MainWindow::compareWithFix()
{
    // Below the lesson's timeline, which keeps playing with its caption in view: two fifths to the lesson, the rest
    // to the two runs compared; one comparison at a time.
    for (auto* open : m_centre->findChildren<ComparisonPane*>())
        open->close();
    ComparisonPane* pane = m_lessons->compareWithFix(m_dark);
    if (!pane)
        return nullptr;
    m_centre->addWidget(pane);
    const int height = std::max(m_centre->height(), 400);
    m_centre->setSizes({ height * 2 / 5, height - height * 2 / 5 });
    pane->show();
    return pane;
}

} // namespace lifeline::ui
