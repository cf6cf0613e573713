// The window's scenario runs: what happens when a script ends (a lesson's view fits its story; the queue keeps running)
// or a run stalls, a practice answer's run paused where it went wrong, and the lesson calls the window forwards to its
// LessonController (the app and the tests open lessons through the window).
#include "lifeline/sim/simulation.h"
#include "lifeline/support/duration.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/controllers/lesson_controller.h"
#include "window/controllers/moment_stops.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
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

namespace {
// From the first send to the last change of a lane's state: the whole story, not only its key moments and not the
// idle time after it. Empty (to <= from) when nothing was sent or nothing changed.
std::pair<TimeMs, TimeMs> storySpan(const RunView& run)
{
    TimeMs from = INT64_MAX, to = INT64_MIN;
    const EventLog& log = run.log();
    for (size_t i = log.firstRetained(); i < log.size(); ++i) {
        const Event& e = log[i];
        if (e.cause == Cause::Send)
            from = std::min(from, e.time);
        if (e.from != e.to)
            to = std::max(to, e.time);
    }
    return { from, to };
}
} // namespace

void MainWindow::playLesson(const sim::Scenario& lesson)
{
    // A lesson plays at a pace it can be followed: its story in about half a minute (the speed box shows it, the user
    // can change it).
    const auto& speeds = LiveDriver::speeds();
    const auto paced = std::find(speeds.begin(), speeds.end(), LiveDriver::pacedSpeed(lesson.duration));
    m_speed->setCurrentIndex(int(paced - speeds.begin()));
    openScenario(lesson);
    m_driver->play();
}

void MainWindow::frameStory()
{
    // A lesson's story is framed from the start, from 0 s to its script's end, the now line moving across it; until
    // the user takes the view (storyTaken) it moves only when the script ends. Another scenario follows live.
    m_storyFramed = m_scenario && m_scenario->lesson.has_value();
    m_momentStops->setLessonShown(m_storyFramed);
    m_driver->setPassQuietWaits(m_storyFramed);
    m_timeline->setFollowLive(!m_storyFramed);
    if (m_storyFramed)
        m_timeline->fitRun(); // and fitted again as the window takes its size
}

void MainWindow::storyTaken()
{
    m_storyFramed = false;
}

void MainWindow::userActed()
{
    storyTaken();
    m_driver->setPassQuietWaits(false);
}

void MainWindow::scriptEnded()
{
    // A lesson's view the user has not taken fits the story: first send to last state change, with a margin.
    if (m_storyFramed && run()) {
        const auto [from, to] = storySpan(*run());
        if (from < to) {
            const TimeMs margin = std::max<TimeMs>(1000, (to - from) / 20);
            m_timeline->fitRange(std::max<TimeMs>(0, from - margin), to + margin);
        }
    }
    m_scriptBanner->setText(tr("%1's script has ended; the queue keeps running: send messages, crash consumers, "
                               "move sliders. Restart replays it from the start.")
                                .arg(m_lessons->lessonId().isEmpty() ? tr("The scenario") : tr("The lesson")));
    m_scriptBanner->show();
}

void MainWindow::showPracticeRun(const sim::Scenario& scenario, TimeMs at)
{
    openScenario(scenario);
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
                      .arg(QString::fromStdString(sim::formatDuration(at)))
                : tr("Your answer's run, paused at its end; Play goes on."));
}

ComparisonWindow* MainWindow::compareWithFix()
{
    return m_lessons->compareWithFix(m_dark);
}

} // namespace lifeline::ui
