// Lessons > Practice: the learner's answer from the dialog's controls, Check's result (passed, or why not and where),
// progress kept per exercise and counted per topic, and the answered run handed to the window.
#include "test_support.h"
#include "window/controllers/lesson_controller.h"
#include "window/dialogs/answer_form.h"
#include "window/dialogs/drill_dialog.h"
#include "window/dialogs/practice_dialog.h"
#include "window/main_window.h"
#include "window/runtime/live_driver.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>

using namespace lifeline;
using namespace lifeline::ui;

TEST_CASE("practice dialog: a setting's spin box starts at the situation's value - Check says why - then passes",
    "[ui][practice]")
{
    test::application();
    QSettings().remove(QStringLiteral("practice"));
    PracticeDialog dialog;
    dialog.selectExercise(QStringLiteral("visibility-for-the-work"));
    REQUIRE(dialog.current() != nullptr);
    CHECK(dialog.current()->id == "visibility-for-the-work");
    auto* spin = dialog.findChild<QSpinBox*>();
    REQUIRE(spin != nullptr);
    CHECK(spin->value() == 10); // the lesson's VisibilityTimeout: the setup to fix
    CHECK(spin->maximum() == 43200);
    const auto failed = dialog.check();
    REQUIRE(failed.has_value());
    CHECK_FALSE(failed->passed);
    CHECK(dialog.resultText().contains(QStringLiteral("processed twice: 2; each turned visible")));
    CHECK(dialog.resultText().contains(QStringLiteral("it goes wrong at 10s")));
    CHECK(dialog.passedCount() == 0);

    spin->setValue(60);
    const auto passed = dialog.check();
    REQUIRE(passed.has_value());
    CHECK(passed->passed);
    CHECK(dialog.resultText().contains(QStringLiteral("Passed.")));
    CHECK(QSettings().value(QStringLiteral("practice/passed/visibility-for-the-work")).toBool());
    CHECK(dialog.passedCount() == 1);
    QSettings().remove(QStringLiteral("practice"));
}

TEST_CASE("practice dialog: a multiple choice needs a choice - the chosen one is checked - Show the run hands it over",
    "[ui][practice]")
{
    test::application();
    QSettings().remove(QStringLiteral("practice"));
    PracticeDialog dialog;
    dialog.selectExercise(QStringLiteral("fail-fast"));
    REQUIRE(dialog.current() != nullptr);
    CHECK_FALSE(dialog.check().has_value());
    CHECK(dialog.resultText() == QStringLiteral("Choose an answer first."));
    const auto radios = dialog.findChildren<QRadioButton*>();
    REQUIRE(radios.size() == 3);
    // A choice's words wrap in a label beside its button, and a click on them picks it, as on the button.
    for (QLabel* words : dialog.findChildren<QLabel*>())
        if (words->property("radio").value<QObject*>() == radios[1]) {
            CHECK(words->wordWrap());
            CHECK(words->text() == radios[1]->accessibleName());
            QMouseEvent release(
                QEvent::MouseButtonRelease, QPointF(2, 2), QPointF(2, 2), Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(words, &release);
        }
    CHECK(radios[1]->isChecked());
    radios[0]->setChecked(true); // A: raise maxReceiveCount
    auto result = dialog.check();
    REQUIRE(result.has_value());
    CHECK_FALSE(result->passed);
    CHECK(result->why == "after 2 minutes invoice 7 is still cycling (moved to the DLQ: 0)");
    QSignalSpy shown(&dialog, &PracticeDialog::showRun);
    for (auto* button : dialog.findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Show the run"))
            button->click();
    REQUIRE(shown.size() == 1);
    const auto scenario = shown.at(0).at(0).value<scenario::Scenario>();
    CHECK(scenario.queues[1].maxReceiveCount == 10); // the answer applied
    radios[1]->setChecked(true); // B: give it back at once
    result = dialog.check();
    REQUIRE(result.has_value());
    CHECK(result->passed);
    QSettings().remove(QStringLiteral("practice"));
}

TEST_CASE("practice: Show the run puts the exercise's run in the whole window - the dialog steps aside, the title and "
          "the panel name the exercise",
    "[ui][practice]")
{
    test::application();
    QSettings().remove(QStringLiteral("practice"));
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    REQUIRE(window.lessons()->openLesson(QStringLiteral("8")));
    window.driver()->pause();
    QAction* practice = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->menu() && menu->text() == QStringLiteral("&Lessons"))
            for (QAction* item : menu->menu()->actions())
                if (item->text() == QStringLiteral("&Practice..."))
                    practice = item;
    REQUIRE(practice != nullptr);
    practice->trigger();
    auto* dialog = window.findChild<PracticeDialog*>();
    REQUIRE(dialog != nullptr);
    CHECK(dialog->isVisible());
    dialog->selectExercise(QStringLiteral("fail-fast"));
    dialog->findChildren<QRadioButton*>()[0]->setChecked(true);
    REQUIRE(dialog->check().has_value());
    for (auto* button : dialog->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Show the run"))
            button->click();
    CHECK_FALSE(dialog->isVisible());
    const QString title = QString::fromStdString(dialog->current()->title);
    CHECK(window.windowTitle() == QStringLiteral("Lifeline - Practice: %1").arg(title));
    CHECK(window.lessons()->htmlShown().contains(QStringLiteral("<h3>Practice: %1</h3>").arg(title.toHtmlEscaped())));
    CHECK_FALSE(window.lessons()->htmlShown().contains(QStringLiteral("Lesson 8")));
    // Practice again: the same dialog, the same exercise and answer.
    practice->trigger();
    CHECK(dialog->isVisible());
    CHECK(dialog->current()->id == "fail-fast");
    CHECK(dialog->findChildren<QRadioButton*>()[0]->isChecked());
    QSettings().remove(QStringLiteral("practice"));
}

namespace {
// Gives an answer through the form's own widgets, as a learner clicks and types.
void give(AnswerForm& form, const teach::PracticeAnswer& answer)
{
    for (QRadioButton* radio : form.findChildren<QRadioButton*>())
        if (radio->property("choice").toString().toStdString() == answer.choice)
            radio->setChecked(true);
    for (QSpinBox* spin : form.findChildren<QSpinBox*>())
        if (const auto it = answer.settings.find(spin->accessibleName().toStdString()); it != answer.settings.end())
            spin->setValue(int(it->second));
}
} // namespace

TEST_CASE("exam drill: questions in a row, each checked when answered - the score by topic - a missed one's run",
    "[ui][practice]")
{
    test::application();
    ui::MainWindow window;
    window.resize(1366, 768);
    window.show();
    QAction* drillAction = nullptr;
    for (QAction* menu : window.menuBar()->actions())
        if (menu->text() == QStringLiteral("&Lessons"))
            for (QAction* item : menu->menu()->actions())
                if (item->text() == QStringLiteral("Exam &drill..."))
                    drillAction = item;
    REQUIRE(drillAction != nullptr);
    // A drill whose first question, the one missed below, has a run to show (the bank decides which seed that is).
    uint64_t seed = 11;
    while (teach::drawDrill(3, seed).front().exercise->isQuestion())
        ++seed;
    DrillDialog drill(3, seed);
    const auto expected = teach::drawDrill(3, seed);
    for (size_t i = 0; i < expected.size(); ++i) {
        const teach::Exercise* exercise = expected[i].exercise;
        REQUIRE(drill.current() == exercise);
        if (!exercise->choices.empty()) { // a multiple choice needs a choice, and shows them in the drill's order
            CHECK_FALSE(drill.answer());
            const auto radios = drill.form()->findChildren<QRadioButton*>();
            REQUIRE(radios.size() == int(expected[i].choices.size()));
            for (int r = 0; r < radios.size(); ++r)
                CHECK(radios[r]->accessibleName()
                    == QString::fromStdString(
                        teach::drillLetter(size_t(r)) + ". " + expected[i].choices[size_t(r)]->text));
        }
        give(*drill.form(), i == 0 ? exercise->wrong : exercise->solution);
        REQUIRE(drill.answer());
        CHECK(drill.verdictText().contains(i == 0 ? QStringLiteral("Not this time") : QStringLiteral("Right.")));
        CHECK_FALSE(drill.answer()); // answered once
        drill.next();
    }
    const teach::Exercise* missed = expected[0].exercise;
    CHECK(drill.current() == nullptr);
    CHECK(drill.scoreText().contains(QStringLiteral("<h2>Score: 2 of 3</h2>")));
    CHECK(drill.scoreText().contains(
        QStringLiteral("<tr><td>%1</td>").arg(QString::fromStdString(missed->topic).toHtmlEscaped())));
    // The missed topic's lesson to review, a link that opens it in the window.
    const QString link = QStringLiteral("<a href='lesson:%1'>").arg(QString::fromStdString(missed->practises));
    CHECK(drill.scoreText().contains(link));
    QSignalSpy review(&drill, &DrillDialog::openLesson);
    for (QLabel* label : drill.findChildren<QLabel*>())
        if (label->text().contains(link)) // clicked, as a learner would
            emit label->linkActivated(QStringLiteral("lesson:") + QString::fromStdString(missed->practises));
    REQUIRE_FALSE(review.isEmpty());
    CHECK(review[0][0].toString() == QString::fromStdString(missed->practises));
    REQUIRE(drill.missed()->count() == 1);
    CHECK(drill.missed()->item(0)->text() == QString::fromStdString(missed->title));
    QSignalSpy shown(&drill, &DrillDialog::showRun);
    test::widget<QPushButton>(drill, "showMe")->click();
    REQUIRE(shown.size() == 1);
    CHECK(shown[0][0].value<scenario::Scenario>().name == teach::answeredScenario(*missed, missed->wrong)->name);
}
