#include "window/controllers/lesson_controller.h"

#include "lifeline/sim/simulation.h"
#include "lifeline/teach/course.h"
#include "lifeline/teach/lessons.h"
#include "timeline/timeline_view.h"
#include "window/controllers/course_progress.h"
#include "window/dialogs/check_dialog.h"
#include "window/dialogs/drill_dialog.h"
#include "window/dialogs/lesson_picker.h"
#include "window/dialogs/practice_dialog.h"
#include "window/panels/comparison_pane.h"
#include "window/panels/glossary_links.h"
#include "window/panels/moment_list.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lifeline::ui {

LessonController::LessonController(Window window)
    : QObject(window.window)
    , m_window(window)
    , m_text(new QLabel(window.window))
    , m_moments(new MomentList(window.window))
    , m_fixButton(new QPushButton(tr("Apply the &fix"), window.window))
    , m_compareAction(new QAction(tr("&Compare with the fix"), this))
{
    m_moments->setObjectName(QStringLiteral("moments"));
    m_fixButton->setObjectName(QStringLiteral("applyFix"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B));
    m_compareAction->setEnabled(false);
    connect(m_fixButton, &QPushButton::clicked, this, [this] { applyFix(!m_fixApplied); });
    connect(m_moments, &MomentList::momentRequested, m_window.timeline, &TimelineView::focusMoment);
    connect(m_window.timeline, &TimelineView::momentFocused, m_moments, &MomentList::setFocused);
    connect(m_window.model, &LaneModel::momentsChanged, this, &LessonController::noteMomentsReached);
}

void LessonController::noteMomentsReached()
{
    // A built-in lesson is seen once every key moment of its run (as written or fixed) has been reached.
    if (!m_lesson || m_lesson->lesson->number <= 0 || m_lesson->lesson->moments.empty())
        return;
    if (m_window.model->moments().size() >= m_lesson->lesson->moments.size()
        && !progress::lessonSeen(m_lessonId.toStdString()))
        progress::markLessonSeen(m_lessonId.toStdString());
}

LessonController::~LessonController() = default;

QWidget* LessonController::buildPanel(QWidget* below)
{
    auto* panel = new QWidget(m_window.window);
    auto* layout = new QVBoxLayout(panel);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showGlossaryOnLinks(m_text);
    auto* scroll = new QScrollArea(panel);
    scroll->setWidget(m_text);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(scroll, 1);
    m_moments->setLaneModel(m_window.model);
    layout->addWidget(m_moments);
    m_fixButton->setToolTip(tr("Run the lesson again with its fix applied, to see the difference (Ctrl+Shift+F)"));
    layout->addWidget(m_fixButton);
    enableFix(false); // until a lesson with a fix opens
    layout->addWidget(below);
    panel->setMinimumWidth(220);
    return panel;
}

void LessonController::fillMenu(QMenu* lessons)
{
    lessons->addAction(
        tr("&All lessons..."), QKeySequence(Qt::CTRL | Qt::Key_L), this, &LessonController::showLessonPicker);
    lessons->addAction(
        tr("&Practice..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this, &LessonController::showPractice);
    lessons->addAction(tr("Exam &drill..."), this, [this] { showDrill(); });
    lessons->addAction(tr("Apply or undo the &fix"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F), this, [this] {
        if (m_fixButton->isEnabled())
            applyFix(!m_fixApplied);
    });
    lessons->addSeparator();
    // A submenu per block of the path, its lessons in order; the progress read again each time it opens.
    int blockNumber = 0;
    for (const auto& block : teach::courseBlocks()) {
        QMenu* menu = lessons->addMenu(QString());
        menu->setObjectName(QStringLiteral("courseBlock-%1").arg(QString::fromStdString(block.id)));
        const QString title = QStringLiteral("&%1 %2").arg(++blockNumber).arg(QString::fromStdString(block.title));
        const auto refresh = [menu, title, &block] {
            menu->menuAction()->setText(
                tr("%1  (%2 of %3 seen)").arg(title).arg(progress::ofBlock(block).lessonsSeen).arg(block.steps.size()));
            for (QAction* action : menu->actions())
                action->setText((progress::lessonSeen(action->data().toString().toStdString()) ? QStringLiteral("✓ ")
                                                                                               : QStringLiteral("    "))
                    + action->property("lessonTitle").toString());
        };
        for (const auto& step : block.steps) {
            const auto& text = *step.lesson->scenario.lesson;
            const QString id = QString::fromStdString(text.id);
            QAction* action = menu->addAction(QString(), this, [this, id] { openLesson(id); });
            action->setData(id);
            action->setProperty("lessonTitle",
                QStringLiteral("&%1. %2").arg(QString::number(text.number), QString::fromStdString(text.title)));
        }
        refresh();
        connect(lessons, &QMenu::aboutToShow, menu, refresh);
    }
}

bool LessonController::openLesson(const QString& idOrNumber)
{
    const auto* entry = teach::findLessonOnPath(idOrNumber.toStdString());
    if (!entry)
        return false;
    startLesson(entry->scenario);
    return true;
}

void LessonController::startLesson(const scenario::Scenario& lesson)
{
    if (!lesson.lesson)
        return;
    const auto& text = *lesson.lesson;
    m_lessonId = QString::fromStdString(text.id);
    m_lesson = std::make_unique<scenario::Scenario>(lesson);
    m_fixApplied = false;
    // A built-in lesson has its number; a scenario of File > Check a queue does not.
    m_title = text.number > 0 ? tr("Lesson %1: %2").arg(text.number).arg(QString::fromStdString(text.title))
                              : QString::fromStdString(text.title);
    showLessonText(false);
    emit titleChanged(m_title);
    enableFix(!text.fixPatch.empty());
    m_fixButton->setText(tr("Apply the &fix"));
    emit runRequested(lesson);
}

void LessonController::applyFix(bool on)
{
    if (!m_lesson)
        return;
    auto fixed
        = on ? scenario::applyFix(*m_lesson) : std::variant<scenario::Scenario, scenario::ScenarioError>(*m_lesson);
    if (auto* error = std::get_if<scenario::ScenarioError>(&fixed)) {
        QMessageBox::warning(m_window.window, tr("Apply the fix"), QString::fromStdString(error->text()));
        return;
    }
    m_fixApplied = on;
    showLessonText(on);
    m_fixButton->setText(on ? tr("Back to the lesson as &written") : tr("Apply the &fix"));
    emit runRequested(std::get<scenario::Scenario>(fixed));
    emit said(
        on ? tr("The fix is applied: the run starts again.") : tr("The lesson as written: the run starts again."));
}

void LessonController::showLessonText(bool fixed)
{
    const auto& text = *m_lesson->lesson;
    const auto q = [](const std::string& s) { return QString::fromStdString(s); };
    // With the fix applied, what to watch is the fixed run's story: the fix's text, under the lesson's idea.
    const QString title = fixed ? tr("%1 (with the fix)").arg(m_title) : m_title;
    // Where it sits on the path and what it builds on (a built-in lesson; a check's finding has no place).
    QString recap;
    if (const auto place = teach::placeInCourse(text.id); place && text.number > 0)
        recap = tr("%1, %2 of %3. %4")
                    .arg(q(place->block->title))
                    .arg(place->position)
                    .arg(place->block->steps.size())
                    .arg(q(place->step().recap));
    m_text->setText(lessonHtml(
        title, q(text.idea), q(fixed ? text.fix : text.watch), q(text.trap), fixed ? QString() : q(text.fix), recap));
}

void LessonController::showText(const QString& title, const QString& text)
{
    m_title = title;
    m_lessonId.clear();
    m_lesson.reset();
    m_fixApplied = false;
    enableFix(false);
    QString body = text.toHtmlEscaped();
    body.replace(QStringLiteral("\n\n"), QStringLiteral("</p><p>"));
    m_text->setText(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title.toHtmlEscaped(), body));
    emit titleChanged(title);
}

void LessonController::enableFix(bool on)
{
    m_fixButton->setEnabled(on);
    m_fixButton->setVisible(on); // a scenario that is no lesson has no fix to offer
    m_compareAction->setEnabled(on);
}

QString LessonController::htmlShown() const
{
    return m_text->text();
}

ComparisonPane* LessonController::compareWithFix(bool dark)
{
    if (!m_lesson || m_lesson->lesson->fixPatch.empty()) {
        emit said(tr("Compare with the fix needs a lesson that has a fix: open one from the Lessons menu."));
        return nullptr;
    }
    auto fixed = scenario::applyFix(*m_lesson);
    if (auto* error = std::get_if<scenario::ScenarioError>(&fixed)) {
        QMessageBox::warning(m_window.window, tr("Compare with the fix"), QString::fromStdString(error->text()));
        return nullptr;
    }
    return new ComparisonPane(*m_lesson, std::get<scenario::Scenario>(fixed), dark, m_window.window);
}

void LessonController::convertQueues(bool fifo)
{
    if (!m_lesson)
        return;
    if (auto lesson = scenario::withQueueType(*m_lesson, fifo); std::holds_alternative<scenario::Scenario>(lesson))
        m_lesson = std::make_unique<scenario::Scenario>(std::get<scenario::Scenario>(std::move(lesson)));
}

void LessonController::showLessonPicker()
{
    LessonPicker picker(m_lessonId, m_window.window);
    if (picker.exec() == QDialog::Accepted && !picker.chosenId().isEmpty())
        openLesson(picker.chosenId());
}

void LessonController::showPractice()
{
    // One dialog, kept: the learner goes back and forth between it and the timeline.
    auto* dialog = m_window.window->findChild<PracticeDialog*>();
    if (!dialog) {
        dialog = new PracticeDialog(m_window.window);
        connect(dialog, &PracticeDialog::showRun, this, [this, dialog](const scenario::Scenario& run, TimeMs at) {
            // The run is the exercise's, in the whole window: the dialog steps aside (Practice brings it back with
            // the answer as it was), and the title and the panel name the exercise, not the lesson before it.
            dialog->hide();
            if (const teach::Exercise* exercise = dialog->current())
                showText(tr("Practice: %1").arg(QString::fromStdString(exercise->title)),
                    withoutGlossaryLinks(exercise->question) + QStringLiteral("\n\n")
                        + tr("On the timeline: the run with your answer. Practice (Ctrl+Shift+P) goes back to the "
                             "exercise."));
            emit practiceRunRequested(run, at);
        });
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

DrillDialog* LessonController::showDrill(std::optional<uint64_t> seed)
{
    // A drill of twenty, new questions each time unless a seed is given (tests).
    auto* dialog = new DrillDialog(20, seed.value_or(QRandomGenerator::global()->generate64()), m_window.window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DrillDialog::showRun, this, [this](const scenario::Scenario& run, TimeMs at) {
        // The run in the whole window; the drill's score stays open in its own window beside it.
        showText(tr("Exam drill: a missed question's run"),
            tr("On the timeline: the run with the answer you gave. The drill's score stays open in its window: pick "
               "another missed question there."));
        emit practiceRunRequested(run, at);
    });
    connect(dialog, &DrillDialog::openLesson, this, [this](const QString& id) { openLesson(id); });
    dialog->show();
    return dialog;
}

void LessonController::showCheck()
{
    auto* dialog = m_window.window->findChild<CheckDialog*>();
    if (!dialog) {
        dialog = new CheckDialog(m_window.window);
        connect(dialog, &CheckDialog::showScenario, this, [this](const scenario::Scenario& scenario) {
            startLesson(scenario);
            emit said(tr("Your queue's finding as a run; its fix is the suggested change (Compare shows both)."));
        });
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

} // namespace lifeline::ui
