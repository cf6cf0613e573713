#include "window/dialogs/send_message_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace lifeline::ui {

SendMessageDialog::SendMessageDialog(sim::Simulation* simulation, const QString& queue, QWidget* parent)
    : QDialog(parent)
    , m_simulation(simulation)
    , m_queue(queue)
    , m_body(new QPlainTextEdit(this))
    , m_useDelay(new QCheckBox(tr("Message &timer (DelaySeconds)"), this))
    , m_delay(new QSpinBox(this))
    , m_group(new QLineEdit(this))
    , m_dedup(new QLineEdit(this))
    , m_error(new QLabel(this))
{
    setWindowTitle(tr("Send a message to %1").arg(queue));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_body->setPlainText(QStringLiteral("hello"));
    m_body->setTabChangesFocus(true);
    m_body->setMaximumHeight(90);
    form->addRow(tr("&Body"), m_body);
    // The range goes past SQS's 900 on purpose: SQS, not the spin box, says what is wrong.
    m_delay->setRange(-1, 9999);
    m_delay->setSuffix(tr(" s"));
    m_delay->setEnabled(false);
    form->addRow(m_useDelay, m_delay);
    const bool fifo = queue.endsWith(QLatin1String(".fifo"));
    m_group->setPlaceholderText(fifo ? tr("required on a FIFO queue") : tr("FIFO queues only"));
    if (fifo)
        m_group->setText(QStringLiteral("g1"));
    m_dedup->setPlaceholderText(tr("FIFO: needed unless content-based deduplication is on"));
    form->addRow(tr("Message&GroupId"), m_group);
    form->addRow(tr("Message&DeduplicationId"), m_dedup);
    layout->addLayout(form);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setStyleSheet(QStringLiteral("color: #D52B1E"));
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* sendButton = buttons->addButton(tr("&Send"), QDialogButtonBox::AcceptRole);
    sendButton->setDefault(true);
    m_sendButton = sendButton;
    m_body->installEventFilter(this);
    layout->addWidget(buttons);
    connect(m_useDelay, &QCheckBox::toggled, m_delay, &QWidget::setEnabled);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(sendButton, &QPushButton::clicked, this, [this] {
        if (send().isEmpty())
            accept();
    });
}

bool SendMessageDialog::eventFilter(QObject* watched, QEvent* event)
{
    // A body is mostly one line: Enter sends, as in every other field of the dialog; a new line takes Ctrl or Shift.
    if (watched == m_body && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            if (key->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier))
                m_body->insertPlainText(QStringLiteral("\n"));
            else
                m_sendButton->click();
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

QString SendMessageDialog::send()
{
    if (!m_simulation)
        return tr("No simulation is running.");
    scenario::TimedMessage message;
    message.body = m_body->toPlainText().toStdString();
    if (m_useDelay->isChecked())
        message.delaySeconds = m_delay->value();
    if (!m_group->text().isEmpty())
        message.groupId = m_group->text().toStdString();
    if (!m_dedup->text().isEmpty())
        message.deduplicationId = m_dedup->text().toStdString();
    const auto result = sim::operate(*m_simulation,
        [queue = m_queue.toStdString(), message](sim::Simulation& s) { return s.sendMessage(queue, message); });
    if (!result) {
        QString text = QString::fromStdString(result.error().code + ": " + result.error().message);
        m_error->setText(text);
        emit refused(text);
        return text;
    }
    m_error->clear();
    emit sent(tr("Sent %1 to %2").arg(QString::fromStdString(result->messageId), m_queue));
    return {};
}

} // namespace lifeline::ui
