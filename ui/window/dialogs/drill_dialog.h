// Lessons > Exam drill: exercises drawn across topics (teach::drawDrill), asked one after another like an exam's
// questions (choices shuffled, lettered as asked), each checked by its run when answered; then the score by topic with
// the lessons to review (links that open them), and the missed ones, each of which "Show me what happens" puts on the
// timeline with the answer given.
#pragma once

#include "lifeline/teach/drill.h"
#include "window/runtime/scenario_metatype.h"

#include <QDialog>

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace lifeline::ui {

class AnswerForm;

class DrillDialog : public QDialog {
    Q_OBJECT
public:
    DrillDialog(size_t count, uint64_t seed, QWidget* parent = nullptr);

    const teach::Exercise* current() const; // the question on show; nullptr on the score page
    AnswerForm* form() const { return m_form; }
    // What the Answer button does: checks the answer given; false when it cannot be checked yet (no choice).
    bool answer();
    void next(); // the next question, or the score after the last
    QString verdictText() const;
    QString scoreText() const;
    QListWidget* missed() const { return m_missed; }

signals:
    void showRun(const lifeline::scenario::Scenario& scenario, lifeline::TimeMs at);
    void openLesson(const QString& id); // a lesson to review, picked on the score page

private:
    void showQuestion();
    void showScore();

    std::vector<teach::DrillQuestion> m_drill;
    std::vector<teach::DrillAnswer> m_answers;
    std::vector<std::optional<TimeMs>> m_wentWrongAt; // per answer
    size_t m_index = 0;
    bool m_answered = false;
    QStackedWidget* m_pages;
    QLabel* m_header;
    QLabel* m_title;
    QLabel* m_question;
    AnswerForm* m_form;
    QLabel* m_verdict;
    QPushButton* m_go; // Answer, then Next question
    QLabel* m_score;
    QListWidget* m_missed;
};

} // namespace lifeline::ui
