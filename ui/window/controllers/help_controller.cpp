#include "window/controllers/help_controller.h"

#include "window/dialogs/lesson_picker.h"
#include "window/shortcut_table.h"

#include <QApplication>
#include <QDialog>
#include <QMenu>
#include <QMessageBox>
#include <QScreen>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace lifeline::ui {

namespace {
// A text the user reads beside the window: one window per kind, raised again when asked again, scrolling when the
// screen is short (the keys' table is taller than 768 px).
void showTextWindow(QWidget* parent, const QString& name, const QString& title, const QString& html, QSize size)
{
    auto* dialog = parent->findChild<QDialog*>(name + QStringLiteral("Dialog"));
    if (!dialog) {
        dialog = new QDialog(parent);
        dialog->setObjectName(name + QStringLiteral("Dialog"));
        dialog->setWindowTitle(title);
        auto* text = new QTextBrowser(dialog);
        text->setObjectName(name);
        text->setHtml(html);
        auto* layout = new QVBoxLayout(dialog);
        layout->addWidget(text);
        const QSize screen = parent->screen()->availableGeometry().size() * 9 / 10;
        dialog->resize(size.boundedTo(screen));
    }
    dialog->show();
    dialog->raise();
}
} // namespace

void HelpController::showQuickReference()
{
    showTextWindow(
        m_window, QStringLiteral("quickReference"), tr("Quick reference"), referenceCardsHtml(), { 560, 520 });
}

void HelpController::showKeys()
{
    showTextWindow(m_window, QStringLiteral("keys"), tr("Keys and mouse"), shortcutTableHtml(), { 640, 760 });
}

void HelpController::showAbout()
{
    QMessageBox::about(m_window, tr("About Lifeline"),
        tr("<h3>Lifeline %1</h3><p>Every Amazon SQS message's life, visible: a faithful SQS engine on a virtual "
           "clock, each message a lane on a live timeline.</p><p>Built with Qt %2.</p>")
            .arg(QStringLiteral(LIFELINE_VERSION), QString::fromLatin1(qVersion())));
}

HelpController::HelpController(QWidget* window)
    : QObject(window)
    , m_window(window)
{
}

void HelpController::fillMenu(QMenu* help)
{
    help->addAction(tr("&Keys and mouse"), QKeySequence::HelpContents, this, &HelpController::showKeys);
    help->addAction(tr("&Quick reference"), this, &HelpController::showQuickReference);
    help->addAction(tr("&About Lifeline"), this, &HelpController::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

} // namespace lifeline::ui
