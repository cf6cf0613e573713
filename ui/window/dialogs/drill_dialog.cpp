#include "window/dialogs/drill_dialog.h"

#include "lifeline/teach/lessons.h"
#include "window/dialogs/answer_form.h"
#include "window/panels/glossary_links.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lifeline::ui {

DrillDialog::DrillDialog(size_t count, uint64_t seed, QWidget* parent)
    : QDialog(parent)
    , m_drill(teach::drawDrill(count, seed))
    , m_pages(new QStackedWidget(this))
    , m_header(new QLabel(this))
    , m_title(new QLabel(this))
    , m_question(new QLabel(this))
    , m_form(new AnswerForm(this))
    , m_verdict(new QLabel(this))
    , m_go(new QPushButton(this))
    , m_score(new QLabel(this))
    , m_missed(new QListWidget(this))
{
    setObjectName(QStringLiteral("drill"));
    setWindowTitle(tr("Exam drill"));
    resize(760, 560);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.25);
    m_title->setFont(bold);
    for (QLabel* text : { m_title, m_question, m_verdict, m_score })
        text->setWordWrap(true);
    for (QLabel* text : { m_question, m_verdict, m_score })
        text->setTextFormat(Qt::RichText);
    showGlossaryOnLinks(m_question);
    m_verdict->setOpenExternalLinks(true); // a question's source, AWS's page
    // A topic's lessons to review, linked from the score: opened in the window.
    connect(m_score, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link.startsWith(QStringLiteral("lesson:")))
            emit openLesson(link.mid(7));
    });
    m_go->setDefault(true);
    connect(m_go, &QPushButton::clicked, this, [this] {
        if (m_answered)
            next();
        else
            answer();
    });

    auto* questionPage = new QWidget(m_pages);
    auto* q = new QVBoxLayout(questionPage);
    q->addWidget(m_header);
    q->addWidget(m_title);
    q->addWidget(m_question);
    q->addWidget(new QLabel(tr("<b>Your answer</b>"), questionPage));
    q->addWidget(m_form);
    auto* row = new QHBoxLayout;
    row->addWidget(m_go);
    row->addStretch();
    q->addLayout(row);
    q->addWidget(m_verdict);
    q->addStretch();
    m_pages->addWidget(questionPage);

    auto* scorePage = new QWidget(m_pages);
    auto* s = new QVBoxLayout(scorePage);
    s->addWidget(m_score);
    s->addWidget(new QLabel(tr("<b>Missed</b>: pick one to see its run with your answer"), scorePage));
    m_missed->setObjectName(QStringLiteral("missed"));
    s->addWidget(m_missed, 1);
    auto* showMe = new QPushButton(tr("&Show me what happens"), scorePage);
    showMe->setObjectName(QStringLiteral("showMe"));
    s->addWidget(showMe, 0, Qt::AlignLeft);
    connect(showMe, &QPushButton::clicked, this, [this] {
        const int row = m_missed->currentRow();
        if (row < 0)
            return;
        const size_t at = size_t(m_missed->currentItem()->data(Qt::UserRole).toULongLong());
        const teach::DrillAnswer& a = m_answers[at];
        if (a.exercise->isQuestion()) { // no run of its own: the lesson it belongs to
            emit openLesson(QString::fromStdString(a.exercise->practises));
            return;
        }
        if (auto scenario = teach::answeredScenario(*a.exercise, a.answer))
            emit showRun(scenario.value(), m_wentWrongAt[at].value_or(-1));
    });
    connect(m_missed, &QListWidget::itemActivated, showMe, &QPushButton::click);
    m_pages->addWidget(scorePage);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_pages, 1);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(close);
    if (m_drill.empty())
        showScore();
    else
        showQuestion();
}

const teach::Exercise* DrillDialog::current() const
{
    return m_pages->currentIndex() == 0 && m_index < m_drill.size() ? m_drill[m_index].exercise : nullptr;
}

void DrillDialog::showQuestion()
{
    const teach::Exercise& e = *m_drill[m_index].exercise;
    m_header->setText(
        tr("Question %1 of %2 \u00b7 %3").arg(m_index + 1).arg(m_drill.size()).arg(QString::fromStdString(e.topic)));
    m_title->setText(QString::fromStdString(e.title));
    m_question->setText(htmlWithGlossaryLinks(e.question));
    m_form->setExercise(e, m_drill[m_index].choices);
    m_form->setEnabled(true);
    m_verdict->clear();
    m_answered = false;
    m_go->setText(tr("&Answer"));
    m_pages->setCurrentIndex(0);
}

bool DrillDialog::answer()
{
    const teach::Exercise* e = current();
    if (!e || m_answered)
        return false;
    if (!m_form->complete()) {
        m_verdict->setText(tr("Choose an answer first."));
        return false;
    }
    const teach::PracticeAnswer given = m_form->answer();
    const auto result = teach::checkAnswer(*e, given);
    const bool passed = result && result->passed;
    m_answers.push_back(teach::DrillAnswer { e, given, passed });
    m_wentWrongAt.push_back(result ? result->at : std::nullopt);
    if (passed)
        m_verdict->setText(tr("<span style='color:#009E73'><b>✓ Right.</b></span> %1")
                               .arg(QString::fromStdString(result->why.substr(8)).toHtmlEscaped())
            + sourceLink(result.value()));
    else
        m_verdict->setText(tr("<span style='color:#D55E00'><b>✗ Not this time:</b></span> %1")
                               .arg(QString::fromStdString(result ? result->why : result.message()).toHtmlEscaped())
            + (result ? sourceLink(result.value()) : QString()));
    m_answered = true;
    m_form->setEnabled(false);
    m_go->setText(m_index + 1 < m_drill.size() ? tr("&Next question") : tr("See the &score"));
    m_go->setFocus();
    return true;
}

void DrillDialog::next()
{
    if (!m_answered)
        return;
    if (++m_index < m_drill.size())
        showQuestion();
    else
        showScore();
}

void DrillDialog::showScore()
{
    int passed = 0;
    for (const auto& a : m_answers)
        passed += a.passed ? 1 : 0;
    QString html = tr("<h2>Score: %1 of %2</h2><table cellspacing='6'>").arg(passed).arg(m_answers.size());
    for (const auto& [topic, score] : teach::scoreByTopic(m_answers)) {
        QStringList review;
        for (const std::string& id : score.review)
            if (const teach::LessonEntry* lesson = teach::findLesson(id))
                review << QStringLiteral("<a href='lesson:%1'>%2</a>")
                              .arg(QString::fromStdString(id),
                                  QString::fromStdString(lesson->scenario.name).toHtmlEscaped());
        html += QStringLiteral("<tr><td>%1</td><td align='right'>%2 of %3</td><td>%4</td></tr>")
                    .arg(QString::fromStdString(topic).toHtmlEscaped())
                    .arg(score.passed)
                    .arg(score.asked)
                    .arg(review.isEmpty() ? QString() : tr("review: %1").arg(review.join(QStringLiteral(", "))));
    }
    html += QStringLiteral("</table>");
    m_score->setText(html);
    m_missed->clear();
    for (size_t i = 0; i < m_answers.size(); ++i)
        if (!m_answers[i].passed) {
            auto* item = new QListWidgetItem(QString::fromStdString(m_answers[i].exercise->title), m_missed);
            item->setData(Qt::UserRole, qulonglong(i));
        }
    if (m_missed->count() > 0)
        m_missed->setCurrentRow(0);
    m_pages->setCurrentIndex(1);
}

QString DrillDialog::verdictText() const
{
    return m_verdict->text();
}

QString DrillDialog::scoreText() const
{
    return m_score->text();
}

} // namespace lifeline::ui
