#include "window/dialogs/practice_dialog.h"

#include "lifeline/support/duration.h"
#include "window/controllers/course_progress.h"
#include "window/dialogs/answer_form.h"
#include "window/panels/glossary_links.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

namespace lifeline::ui {

namespace {
bool passed(const std::string& id)
{
    return progress::exercisePassed(id);
}

} // namespace

PracticeDialog::PracticeDialog(QWidget* parent)
    : QDialog(parent)
    , m_tree(new QTreeWidget(this))
    , m_title(new QLabel(this))
    , m_question(new QLabel(this))
    , m_answer(new AnswerForm(this))
    , m_hint(new QLabel(this))
    , m_result(new QLabel(this))
    , m_score(new QLabel(this))
    , m_showRun(new QPushButton(tr("Show the run"), this))
{
    setWindowTitle(tr("Practice"));
    resize(920, 560);
    m_tree->setHeaderHidden(true);
    m_tree->setMinimumWidth(300);
    m_tree->setAccessibleName(tr("Exercises"));
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.25);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_question->setWordWrap(true);
    m_hint->setWordWrap(true);
    for (QLabel* text : { m_question, m_hint }) {
        text->setTextFormat(Qt::RichText); // the glossary's links
        showGlossaryOnLinks(text);
    }
    m_hint->hide();
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setOpenExternalLinks(true); // a question's source, AWS's page

    auto* checkButton = new QPushButton(tr("Check"), this);
    checkButton->setDefault(true);
    checkButton->setToolTip(tr("Run the situation with your answer and check it"));
    auto* hintButton = new QPushButton(tr("Hint"), this);
    m_showRun->setEnabled(false);
    m_showRun->setToolTip(tr("The run with your answer on the timeline, at the moment it went wrong"));
    connect(checkButton, &QPushButton::clicked, this, [this] { check(); });
    connect(hintButton, &QPushButton::clicked, m_hint, &QLabel::show);
    connect(m_showRun, &QPushButton::clicked, this, [this] {
        if (!m_current)
            return;
        if (auto scenario = teach::answeredScenario(*m_current, answer()))
            emit showRun(scenario.value(), m_wentWrongAt.value_or(-1));
    });

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(checkButton);
    buttons->addWidget(hintButton);
    buttons->addWidget(m_showRun);
    buttons->addStretch();
    auto* right = new QVBoxLayout;
    right->addWidget(m_title);
    right->addWidget(m_question);
    right->addWidget(new QLabel(tr("<b>Your answer</b>"), this));
    right->addWidget(m_answer);
    right->addLayout(buttons);
    right->addWidget(m_result);
    right->addWidget(m_hint);
    right->addStretch();
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_score);
    bottom->addStretch();
    bottom->addWidget(close);
    auto* columns = new QHBoxLayout;
    columns->addWidget(m_tree, 2);
    columns->addLayout(right, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns);
    layout->addLayout(bottom);

    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        if (const auto* e = teach::findExercise(item->data(0, Qt::UserRole).toString().toStdString()))
            showExercise(*e);
    });
    fillTree();
    if (!teach::practiceExercises().empty())
        selectExercise(QString::fromStdString(teach::practiceExercises().front().id));
}

void PracticeDialog::fillTree()
{
    const QString selected = m_current ? QString::fromStdString(m_current->id) : QString();
    const QSignalBlocker block(m_tree);
    m_tree->clear();
    std::map<std::string, QTreeWidgetItem*> topics;
    std::map<std::string, std::pair<int, int>> scores; // passed, of
    for (const teach::Exercise& e : teach::practiceExercises()) {
        auto& topic = topics[e.topic];
        if (!topic) {
            topic = new QTreeWidgetItem(m_tree);
            topic->setFlags(Qt::ItemIsEnabled);
            topic->setExpanded(true);
        }
        auto* item = new QTreeWidgetItem(topic);
        item->setText(
            0, (passed(e.id) ? QStringLiteral("✓ ") : QStringLiteral("    ")) + QString::fromStdString(e.title));
        item->setData(0, Qt::UserRole, QString::fromStdString(e.id));
        item->setToolTip(0, withoutGlossaryLinks(e.question));
        auto& [done, of] = scores[e.topic];
        done += passed(e.id) ? 1 : 0;
        ++of;
    }
    for (auto& [name, item] : topics) {
        const auto [done, of] = scores[name];
        item->setText(0, tr("%1  (%2 of %3)").arg(QString::fromStdString(name)).arg(done).arg(of));
        item->setExpanded(true);
    }
    m_score->setText(tr("Score: %1 of %2 exercises passed").arg(passedCount()).arg(teach::practiceExercises().size()));
    if (!selected.isEmpty())
        selectExercise(selected);
}

int PracticeDialog::passedCount() const
{
    int n = 0;
    for (const teach::Exercise& e : teach::practiceExercises())
        n += passed(e.id) ? 1 : 0;
    return n;
}

void PracticeDialog::selectExercise(const QString& id)
{
    for (int t = 0; t < m_tree->topLevelItemCount(); ++t)
        for (int i = 0; i < m_tree->topLevelItem(t)->childCount(); ++i)
            if (QTreeWidgetItem* item = m_tree->topLevelItem(t)->child(i);
                item->data(0, Qt::UserRole).toString() == id) {
                m_tree->setCurrentItem(item);
                if (const auto* e = teach::findExercise(id.toStdString()); e && e != m_current)
                    showExercise(*e);
            }
}

void PracticeDialog::showExercise(const teach::Exercise& exercise)
{
    m_current = &exercise;
    m_wentWrongAt.reset();
    m_title->setText(QString::fromStdString(exercise.title));
    m_question->setText(htmlWithGlossaryLinks(exercise.question));
    m_hint->setText(tr("Hint: %1").arg(htmlWithGlossaryLinks(exercise.hint)));
    m_hint->hide();
    m_result->clear();
    m_showRun->setEnabled(false);
    m_answer->setExercise(exercise);
}

teach::PracticeAnswer PracticeDialog::answer() const
{
    return m_answer->answer();
}

std::optional<teach::PracticeResult> PracticeDialog::check()
{
    if (!m_current)
        return std::nullopt;
    if (!m_answer->complete()) {
        m_result->setText(tr("Choose an answer first."));
        return std::nullopt;
    }
    const auto result = teach::checkAnswer(*m_current, answer());
    if (!result) {
        m_result->setText(
            tr("Cannot check this answer: %1").arg(QString::fromStdString(result.message()).toHtmlEscaped()));
        return std::nullopt;
    }
    m_wentWrongAt = result->at;
    m_showRun->setEnabled(!m_current->isQuestion()); // a question has no run to show
    QString text;
    if (result->passed) {
        text = tr("<span style='color:#009E73'><b>✓ Passed.</b></span> %1")
                   .arg(QString::fromStdString(result->why.substr(8)).toHtmlEscaped());
        markPassed(*m_current);
    } else {
        text = tr("<span style='color:#D55E00'><b>✗ Not yet:</b></span> %1")
                   .arg(QString::fromStdString(result->why).toHtmlEscaped());
        if (result->at)
            text += tr(" (it goes wrong at %1: Show the run)")
                        .arg(QString::fromStdString(lifeline::formatDuration(*result->at)));
    }
    m_result->setText(text + sourceLink(result.value()));
    return result.value();
}

QString PracticeDialog::resultText() const
{
    return m_result->text();
}

void PracticeDialog::markPassed(const teach::Exercise& exercise)
{
    progress::markExercisePassed(exercise.id);
    fillTree();
}

} // namespace lifeline::ui
