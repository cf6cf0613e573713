#include "window/dialogs/answer_form.h"

#include "lifeline/support/duration.h"
#include "lifeline/teach/drill.h"

#include <QButtonGroup>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QSpinBox>
#include <algorithm>

namespace lifeline::ui {

namespace {
// The value a control starts at: what the situation has at the control's path (the setup to fix), else its minimum.
int64_t startingValue(const teach::Exercise& exercise, const teach::PracticeControl& control)
{
    try {
        const auto& value = exercise.scenario.at(nlohmann::json::json_pointer(control.path));
        if (value.is_number_integer())
            return value.get<int64_t>();
        if (value.is_string()) {
            if (const auto d = lifeline::parseDuration(value.get<std::string>()))
                return *d / 1000;
            return std::stoll(value.get<std::string>());
        }
    } catch (const std::exception&) { // not there (a setting the situation leaves at SQS's default)
    }
    return control.min;
}
} // namespace

AnswerForm::AnswerForm(QWidget* parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
    , m_choices(new QButtonGroup(this))
{
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint); // a number box as wide as its number
}

void AnswerForm::setExercise(const teach::Exercise& exercise, const std::vector<const teach::PracticeChoice*>& order)
{
    m_exercise = &exercise;
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_spins.clear();
    for (QAbstractButton* b : m_choices->buttons())
        m_choices->removeButton(b);
    for (const teach::PracticeControl& control : exercise.controls) {
        auto* spin = new QSpinBox(this);
        spin->setRange(int(std::clamp<int64_t>(control.min, INT32_MIN, INT32_MAX)),
            int(std::clamp<int64_t>(control.max, INT32_MIN, INT32_MAX)));
        spin->setValue(int(startingValue(exercise, control)));
        if (!control.unit.empty())
            spin->setSuffix(QStringLiteral(" ") + QString::fromStdString(control.unit));
        spin->setAccessibleName(QString::fromStdString(control.name));
        m_form->addRow(QString::fromStdString(control.name), spin);
        m_spins.push_back(spin);
    }
    std::vector<const teach::PracticeChoice*> shown = order;
    if (shown.empty())
        for (const teach::PracticeChoice& choice : exercise.choices)
            shown.push_back(&choice);
    for (size_t i = 0; i < shown.size(); ++i) {
        // In the exercise's order a choice shows its own id; in another order (the drill's) its letter there.
        const std::string letter = order.empty() ? shown[i]->id : teach::drillLetter(i);
        // A radio button's text never wraps, so a long choice would run past a 1024-pixel screen: the words go in a
        // label that wraps beside it, and a click on them picks it. The button keeps the words as its name.
        const QString words
            = QStringLiteral("%1. %2").arg(QString::fromStdString(letter), QString::fromStdString(shown[i]->text));
        auto* radio = new QRadioButton(this);
        radio->setAccessibleName(words);
        radio->setProperty("choice", QString::fromStdString(shown[i]->id));
        m_choices->addButton(radio);
        auto* label = new QLabel(words, this);
        label->setWordWrap(true);
        label->setProperty("radio", QVariant::fromValue<QObject*>(radio));
        label->installEventFilter(this);
        auto* row = new QHBoxLayout;
        row->addWidget(radio, 0, Qt::AlignTop);
        row->addWidget(label, 1);
        m_form->addRow(row);
    }
}

bool AnswerForm::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::MouseButtonRelease)
        if (auto* radio = qobject_cast<QRadioButton*>(watched->property("radio").value<QObject*>()))
            radio->setChecked(true);
    return QWidget::eventFilter(watched, event);
}

teach::PracticeAnswer AnswerForm::answer() const
{
    teach::PracticeAnswer answer;
    if (!m_exercise)
        return answer;
    for (size_t i = 0; i < m_spins.size() && i < m_exercise->controls.size(); ++i)
        answer.settings[m_exercise->controls[i].name] = m_spins[i]->value();
    if (QAbstractButton* chosen = m_choices->checkedButton())
        answer.choice = chosen->property("choice").toString().toStdString();
    return answer;
}

bool AnswerForm::complete() const
{
    return m_exercise && (m_exercise->choices.empty() || m_choices->checkedButton() != nullptr);
}

QString sourceLink(const teach::PracticeResult& result)
{
    if (result.source.empty())
        return {};
    const QString url = QString::fromStdString(result.source).toHtmlEscaped();
    return QObject::tr("<br><small>Source: <a href='%1'>%1</a></small>").arg(url);
}

} // namespace lifeline::ui
