#include "window/dialogs/lesson_picker.h"

#include "lifeline/teach/course.h"
#include "lifeline/teach/lessons.h"
#include "lifeline/teach/reference_cards.h"
#include "window/controllers/course_progress.h"
#include "window/panels/glossary_links.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lifeline::ui {

QString lessonHtml(const QString& title, const QString& idea, const QString& watch, const QString& trap,
    const QString& fix, const QString& recap)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(breakableNames(title.toHtmlEscaped()));
    if (!recap.isEmpty())
        html += QStringLiteral("<p><i>%1</i></p>").arg(recap.toHtmlEscaped());
    // The texts' glossary links ([[in flight]]) become anchors whose definition shows on them.
    const auto section = [&html](const QString& heading, const QString& text) {
        if (!text.isEmpty())
            html += QStringLiteral("<p><b>%1</b> %2</p>")
                        .arg(heading.toHtmlEscaped(), htmlWithGlossaryLinks(text.toStdString()));
    };
    if (!idea.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(htmlWithGlossaryLinks(idea.toStdString()));
    section(LessonPicker::tr("What to watch:"), watch);
    section(LessonPicker::tr("Exam trap:"), trap);
    section(LessonPicker::tr("The fix:"), fix);
    return html;
}

QString referenceCardsHtml()
{
    QString html = QStringLiteral("<h4>%1</h4>").arg(LessonPicker::tr("Quick reference"));
    for (const auto& card : teach::referenceCards())
        html += QStringLiteral("<p><b>%1.</b> %2</p>")
                    .arg(QString::fromStdString(card.title).toHtmlEscaped(),
                        QString::fromStdString(card.text).toHtmlEscaped());
    return html;
}

LessonPicker::LessonPicker(const QString& current, QWidget* parent)
    : QDialog(parent)
    , m_list(new QListWidget(this))
    , m_preview(new QTextBrowser(this))
{
    setWindowTitle(tr("Lessons"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("<h2>Lifeline lessons</h2><p>A path in six blocks, each lesson building on the one "
                                "before. Each runs a small scenario on a virtual clock; its text stays beside the "
                                "timeline, with a button that applies the fix. ✓: every key moment seen.</p>"),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_list->setWordWrap(true); // whole titles, no sideways scrolling
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setMinimumWidth(340);
    m_list->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->addWidget(m_list, 2);
    row->addWidget(m_preview, 3);
    layout->addLayout(row, 1);
    // The path, block by block: a block's heading says what it is about and how far the learner got.
    QFont headingFont = m_list->font();
    headingFont.setBold(true);
    for (const auto& block : teach::courseBlocks()) {
        auto* heading = new QListWidgetItem(
            tr("%1 (%2)").arg(QString::fromStdString(block.title), progress::blockSummary(block)), m_list);
        heading->setFlags(Qt::ItemIsEnabled); // not a lesson: never chosen
        heading->setFont(headingFont);
        heading->setToolTip(QString::fromStdString(block.idea));
        for (const auto& step : block.steps) {
            const auto& text = *step.lesson->scenario.lesson;
            const QString mark = progress::lessonSeen(text.id) ? QStringLiteral("✓ ") : QStringLiteral("    ");
            auto* item = new QListWidgetItem(
                QStringLiteral("%1%2. %3").arg(mark).arg(text.number).arg(QString::fromStdString(text.title)), m_list);
            item->setData(Qt::UserRole, QString::fromStdString(text.id));
            item->setData(Qt::UserRole + 1,
                lessonHtml(QString::fromStdString(text.title), QString::fromStdString(text.idea),
                    QString::fromStdString(text.watch), QString::fromStdString(text.trap),
                    QString::fromStdString(text.fix), QString::fromStdString(step.recap)));
            if (QString::fromStdString(text.id) == current)
                m_list->setCurrentItem(item);
        }
    }
    if (!m_list->currentItem() && m_list->count() > 1)
        m_list->setCurrentRow(1); // the first lesson, under its block's heading
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    auto* open = buttons->addButton(tr("&Open lesson"), QDialogButtonBox::AcceptRole);
    open->setDefault(true);
    layout->addWidget(buttons);
    const auto preview = [this] {
        if (auto* item = m_list->currentItem())
            m_preview->setHtml(item->data(Qt::UserRole + 1).toString());
    };
    preview();
    connect(m_list, &QListWidget::currentItemChanged, this, preview);
    showGlossaryOnLinks(m_preview);
    connect(m_list, &QListWidget::itemActivated, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(980, 560);
}

QString LessonPicker::chosenId() const
{
    const auto* item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

} // namespace lifeline::ui
