#include "window/panels/glossary_links.h"

#include "lifeline/teach/glossary.h"

#include <QCursor>
#include <QLabel>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QToolTip>

namespace lifeline::ui {

namespace {
const QString kScheme = QStringLiteral("glossary:");

void showTip(const QString& link, QWidget* over)
{
    const QString html = glossaryDefinitionHtml(link);
    if (html.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), html, over);
}
} // namespace

QString breakableNames(QString text)
{
    // A zero-width space where a lower-case letter meets a capital, in names of 16 letters or more: a narrow panel
    // wraps "ApproximateNumberOfMessagesVisible" at its words instead of cutting it off.
    static const QRegularExpression longName(QStringLiteral("[A-Za-z]{16,}"));
    static const QRegularExpression wordStart(QStringLiteral("(?<=[a-z])(?=[A-Z])"));
    for (qsizetype at = 0;;) {
        const auto match = longName.match(text, at);
        if (!match.hasMatch())
            return text;
        QString name = match.captured();
        name.replace(wordStart, QStringLiteral("\u200B"));
        text.replace(match.capturedStart(), match.capturedLength(), name);
        at = match.capturedStart() + name.size();
    }
}

QString htmlWithGlossaryLinks(const std::string& text)
{
    QString html;
    for (const teach::TextPiece& piece : teach::textPieces(text)) {
        const QString words = breakableNames(QString::fromStdString(piece.text).toHtmlEscaped());
        if (piece.term)
            html += QStringLiteral("<a href=\"%1%2\">%3</a>")
                        .arg(kScheme, QString::fromStdString(piece.term->id), words);
        else
            html += words;
    }
    return html;
}

QString withoutGlossaryLinks(const std::string& text)
{
    return QString::fromStdString(teach::withoutLinks(text));
}

QString glossaryDefinitionHtml(const QString& link)
{
    if (!link.startsWith(kScheme))
        return {};
    const teach::GlossaryTerm* term = teach::findGlossaryTerm(link.mid(kScheme.size()).toStdString());
    if (!term)
        return {};
    return QStringLiteral("<p style=\"white-space:normal\"><b>%1</b>: %2</p>")
        .arg(QString::fromStdString(term->term).toHtmlEscaped(),
            QString::fromStdString(term->definition).toHtmlEscaped());
}

void showGlossaryOnLinks(QLabel* label)
{
    label->setTextInteractionFlags(
        label->textInteractionFlags() | Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    label->setOpenExternalLinks(false);
    QObject::connect(label, &QLabel::linkHovered, label, [label](const QString& link) { showTip(link, label); });
    QObject::connect(label, &QLabel::linkActivated, label, [label](const QString& link) { showTip(link, label); });
}

void showGlossaryOnLinks(QTextBrowser* browser)
{
    browser->setOpenLinks(false);
    QObject::connect(browser, &QTextBrowser::highlighted, browser,
        [browser](const QUrl& link) { showTip(link.toString(), browser); });
    QObject::connect(browser, &QTextBrowser::anchorClicked, browser,
        [browser](const QUrl& link) { showTip(link.toString(), browser); });
}

} // namespace lifeline::ui
