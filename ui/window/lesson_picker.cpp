#include "window/lesson_picker.h"

#include "lifeline/teach/lessons.h"
#include "lifeline/teach/reference_cards.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lifeline::ui {

QString lessonHtml(
    const QString& title, const QString& idea, const QString& watch, const QString& trap, const QString& fix)
{
    QString html = QStringLiteral("<h3>%1</h3>").arg(title.toHtmlEscaped());
    const auto section = [&html](const QString& heading, const QString& text) {
        if (!text.isEmpty())
            html += QStringLiteral("<p><b>%1</b> %2</p>").arg(heading.toHtmlEscaped(), text.toHtmlEscaped());
    };
    if (!idea.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(idea.toHtmlEscaped());
    section(LessonPicker::tr("What to watch:"), watch);
    section(LessonPicker::tr("Exam trap:"), trap);
    section(LessonPicker::tr("The fix:"), fix);
    return html;
}

QString referenceCardsHtml()
{
    QString html = QStringLiteral("<h4>%1</h4>").arg(LessonPicker::tr("Quick reference"));
    for (const auto& card : sim::referenceCards())
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
    auto* heading = new QLabel(tr("<h2>Lifeline lessons</h2><p>Each lesson runs a small scenario on a virtual clock. "
                                  "Pick one to load it; its text stays beside the timeline, with a button that "
                                  "applies the fix.</p>"),
        this);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    m_list->setWordWrap(true); // whole titles, no sideways scrolling
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setMinimumWidth(340);
    m_list->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->addWidget(m_list, 2);
    row->addWidget(m_preview, 3);
    layout->addLayout(row, 1);
    for (const auto& lesson : sim::builtinLessons()) {
        const auto& text = *lesson.scenario.lesson;
        auto* item = new QListWidgetItem(
            QStringLiteral("%1. %2").arg(text.number).arg(QString::fromStdString(text.title)), m_list);
        item->setData(Qt::UserRole, QString::fromStdString(text.id));
        item->setData(Qt::UserRole + 1,
            lessonHtml(QString::fromStdString(text.title), QString::fromStdString(text.idea),
                QString::fromStdString(text.watch), QString::fromStdString(text.trap),
                QString::fromStdString(text.fix)));
        if (QString::fromStdString(text.id) == current)
            m_list->setCurrentItem(item);
    }
    if (!m_list->currentItem() && m_list->count() > 0)
        m_list->setCurrentRow(0);
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
