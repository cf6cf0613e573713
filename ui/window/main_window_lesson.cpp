// The main window's lesson: its panel (texts, key moments, the fix), starting a lesson and its fix, and what
// happens when a scenario's script ends (the view fits the moments; the queue keeps running).
#include "lifeline/sim/duration.h"
#include "lifeline/sim/lessons.h"
#include "lifeline/sim/simulation.h"
#include "timeline/lane_model.h"
#include "timeline/timeline_view.h"
#include "window/check_dialog.h"
#include "window/comparison_window.h"
#include "window/lesson_picker.h"
#include "window/live_driver.h"
#include "window/main_window.h"
#include "window/moment_list.h"
#include "window/practice_dialog.h"

#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

namespace lifeline::ui {

QWidget* MainWindow::buildLessonPanel()
{
    auto* lesson = new QWidget(this);
    auto* lessonLayout = new QVBoxLayout(lesson);
    m_lesson->setWordWrap(true);
    m_lesson->setTextFormat(Qt::RichText);
    m_lesson->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_lesson->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lessonScroll = new QScrollArea(lesson);
    lessonScroll->setWidget(m_lesson);
    lessonScroll->setWidgetResizable(true);
    lessonScroll->setFrameShape(QFrame::NoFrame);
    lessonLayout->addWidget(lessonScroll, 1);
    m_momentList->setLaneModel(m_model);
    lessonLayout->addWidget(m_momentList);
    m_fixButton->setToolTip(tr("Run the lesson again with its fix applied, to see the difference (Ctrl+Shift+F)"));
    m_fixButton->setEnabled(false);
    lessonLayout->addWidget(m_fixButton);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    lessonLayout->addWidget(m_summary);
    lesson->setMinimumWidth(220);
    return lesson;
}

void MainWindow::connectLesson()
{
    connect(m_momentList, &MomentList::momentRequested, m_timeline, &TimelineView::focusMoment);
    connect(m_timeline, &TimelineView::momentFocused, m_momentList, &MomentList::setFocused);
    connect(m_driver, &LiveDriver::scriptEnd, this, &MainWindow::scriptEnded);
    connect(m_driver, &LiveDriver::stalled, this, [this](const QString& why) {
        const QString sentence = why.left(1).toUpper() + why.mid(1);
        QMessageBox::warning(this, tr("The run stopped"),
            tr("%1.\n\nWhat happened so far stays on the timeline. Change the setting that caused it, or open the "
               "scenario again.")
                .arg(sentence));
    });
    connect(m_driver, &LiveDriver::simulationChanged, m_scriptBanner, &QWidget::hide);
}

ComparisonWindow* MainWindow::compareWithFix()
{
    if (!m_lessonScenario || m_lessonScenario->lesson->fixPatch.empty()) {
        say(tr("Compare with the fix needs a lesson that has a fix: open one from the Lessons menu."));
        return nullptr;
    }
    auto fixed = sim::applyFix(*m_lessonScenario);
    if (auto* error = std::get_if<sim::ScenarioError>(&fixed)) {
        QMessageBox::warning(this, tr("Compare with the fix"), QString::fromStdString(error->text()));
        return nullptr;
    }
    auto* window = new ComparisonWindow(*m_lessonScenario, std::get<sim::Scenario>(fixed), m_dark, this);
    window->show();
    return window;
}

void MainWindow::scriptEnded()
{
    // The action, not the idle time after it: a view that follows live fits the moments (or the whole script).
    if (m_timeline->followingLive() && !m_timeline->fitMoments())
        m_timeline->fitAll();
    m_scriptBanner->setText(tr("%1's script has ended; the queue keeps running: send messages, crash consumers, "
                               "move sliders. Restart replays it from the start.")
                                .arg(m_lessonId.isEmpty() ? tr("The scenario") : tr("The lesson")));
    m_scriptBanner->show();
}

bool MainWindow::openLesson(const QString& idOrNumber)
{
    const auto* entry = sim::findLesson(idOrNumber.toStdString());
    if (!entry)
        return false;
    startLesson(entry->scenario);
    return true;
}

void MainWindow::startLesson(const sim::Scenario& lesson)
{
    if (!lesson.lesson)
        return;
    const auto& text = *lesson.lesson;
    m_lessonId = QString::fromStdString(text.id);
    m_lessonScenario = std::make_unique<sim::Scenario>(lesson);
    m_fixApplied = false;
    // A built-in lesson has its number; a scenario of File > Check a queue does not.
    m_title = text.number > 0 ? tr("Lesson %1: %2").arg(text.number).arg(QString::fromStdString(text.title))
                              : QString::fromStdString(text.title);
    showLessonText(false);
    setWindowTitle(tr("Lifeline - %1").arg(m_title));
    m_fixButton->setEnabled(!text.fixPatch.empty());
    if (m_compareAction)
        m_compareAction->setEnabled(!text.fixPatch.empty());
    m_fixButton->setText(tr("Apply the &fix"));
    openScenario(lesson);
    m_driver->play();
}

void MainWindow::applyFix(bool on)
{
    if (!m_lessonScenario)
        return;
    auto fixed
        = on ? sim::applyFix(*m_lessonScenario) : std::variant<sim::Scenario, sim::ScenarioError>(*m_lessonScenario);
    if (auto* error = std::get_if<sim::ScenarioError>(&fixed)) {
        QMessageBox::warning(this, tr("Apply the fix"), QString::fromStdString(error->text()));
        return;
    }
    m_fixApplied = on;
    showLessonText(on);
    m_fixButton->setText(on ? tr("Back to the lesson as &written") : tr("Apply the &fix"));
    openScenario(std::get<sim::Scenario>(fixed));
    say(on ? tr("The fix is applied: the run starts again.") : tr("The lesson as written: the run starts again."));
    m_driver->play();
}

void MainWindow::showLessonText(bool fixed)
{
    const auto& text = *m_lessonScenario->lesson;
    const auto q = [](const std::string& s) { return QString::fromStdString(s); };
    // With the fix applied, what to watch is the fixed run's story: the fix's text, under the lesson's idea.
    const QString title = fixed ? tr("%1 (with the fix)").arg(m_title) : m_title;
    m_lesson->setText(
        lessonHtml(title, q(text.idea), q(fixed ? text.fix : text.watch), q(text.trap), fixed ? QString() : q(text.fix))
        + referenceCardsHtml());
}

void MainWindow::setLesson(const QString& title, const QString& text)
{
    m_title = title;
    m_lessonId.clear();
    m_lessonScenario.reset();
    m_fixApplied = false;
    m_fixButton->setEnabled(false);
    if (m_compareAction)
        m_compareAction->setEnabled(false);
    QString body = text.toHtmlEscaped();
    body.replace(QStringLiteral("\n\n"), QStringLiteral("</p><p>"));
    m_lesson->setText(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title.toHtmlEscaped(), body));
    setWindowTitle(tr("Lifeline - %1").arg(title));
}

} // namespace lifeline::ui

namespace lifeline::ui {

void MainWindow::showPractice()
{
    // One dialog, kept: the learner goes back and forth between it and the timeline.
    auto* dialog = findChild<PracticeDialog*>();
    if (!dialog) {
        dialog = new PracticeDialog(this);
        connect(dialog, &PracticeDialog::showRun, this, &MainWindow::showPracticeRun);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::showCheck()
{
    auto* dialog = findChild<CheckDialog*>();
    if (!dialog) {
        dialog = new CheckDialog(this);
        connect(dialog, &CheckDialog::showScenario, this, [this](const sim::Scenario& scenario) {
            startLesson(scenario);
            say(tr("Your queue's finding as a run; its fix is the suggested change (Compare shows both)."));
        });
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
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

} // namespace lifeline::ui
