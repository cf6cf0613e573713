// Lessons > Practice: the exercises by topic with the learner's progress, one exercise's question and the settings
// (or choices) it lets the learner change, Check (the run replays with the answer; the result says passed, or why
// not and where), a hint, and "Show the run" to see the answered run on the timeline. Progress is kept in QSettings
// (practice/passed/ID), with a score per topic.
#pragma once

#include "lifeline/teach/practice.h"
#include "window/runtime/scenario_metatype.h"

#include <QDialog>
#include <optional>

class QLabel;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;
class QWidget;

namespace lifeline::ui {

class AnswerForm;

class PracticeDialog : public QDialog {
    Q_OBJECT
public:
    explicit PracticeDialog(QWidget* parent = nullptr);

    void selectExercise(const QString& id);
    const teach::Exercise* current() const { return m_current; }
    // The answer as the controls say it now.
    teach::PracticeAnswer answer() const;
    // Checks the answer (what the Check button does); the result is shown and kept.
    std::optional<teach::PracticeResult> check();
    QString resultText() const;
    int passedCount() const;

signals:
    // Show the run with the learner's answer (and where it went wrong, or -1) on the main window's timeline.
    void showRun(const lifeline::scenario::Scenario& scenario, lifeline::TimeMs at);

private:
    void fillTree();
    void showExercise(const teach::Exercise& exercise);
    void markPassed(const teach::Exercise& exercise);

    QTreeWidget* m_tree;
    QLabel* m_title;
    QLabel* m_question;
    AnswerForm* m_answer;
    QLabel* m_hint;
    QLabel* m_result;
    QLabel* m_score;
    QPushButton* m_showRun;
    const teach::Exercise* m_current = nullptr;
    std::optional<TimeMs> m_wentWrongAt;
};

} // namespace lifeline::ui
