// What an exercise lets the learner answer: a spin box per setting (starting at the situation's value) or a radio
// button per choice, and the answer they say. The practice dialog and the exam drill ask with it.
#pragma once

#include "lifeline/teach/practice.h"

#include <QWidget>
#include <vector>

class QButtonGroup;
class QFormLayout;
class QSpinBox;

namespace lifeline::ui {

class AnswerForm : public QWidget {
    Q_OBJECT
public:
    explicit AnswerForm(QWidget* parent = nullptr);

    // The choices in `order` when given (the drill's shuffle, lettered by position), else in the exercise's own.
    void setExercise(const teach::Exercise& exercise, const std::vector<const teach::PracticeChoice*>& order = {});
    teach::PracticeAnswer answer() const;
    bool complete() const; // a choice picked, when the exercise asks for one

protected:
    bool eventFilter(QObject* watched, QEvent* event) override; // a click on a choice's words picks it

private:
    QFormLayout* m_form;
    QButtonGroup* m_choices;
    std::vector<QSpinBox*> m_spins;
    const teach::Exercise* m_exercise = nullptr;
};

// After a question's verdict: the AWS page its reason comes from, as a link (empty for an exercise with a run).
QString sourceLink(const teach::PracticeResult& result);

} // namespace lifeline::ui
