// Send one message by hand: body, an optional per-message delay (a message timer), and for FIFO the group and
// deduplication ids. SQS judges it: a refusal (a timer on FIFO, a delay over 900 s, no group id) shows SQS's text
// here, is drawn on the timeline, and nothing else changes. The dialog stays open after a refusal so it can be fixed.
// Enter sends, from the body too; Ctrl+Enter or Shift+Enter starts a new line in the body.
#pragma once

#include "lifeline/sim/simulation.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace lifeline::ui {

class SendMessageDialog : public QDialog {
    Q_OBJECT
public:
    SendMessageDialog(sim::Simulation* simulation, const QString& queue, QWidget* parent = nullptr);

    QPlainTextEdit* body() const { return m_body; }
    QCheckBox* useDelay() const { return m_useDelay; }
    QSpinBox* delay() const { return m_delay; }
    QLineEdit* groupId() const { return m_group; }
    QLineEdit* deduplicationId() const { return m_dedup; }
    QLabel* error() const { return m_error; }

    // Sends what the fields say; returns SQS's error text ("Code: message"), or empty when the message was sent.
    QString send();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    void sent(const QString& what);
    void refused(const QString& error);

private:
    sim::Simulation* m_simulation;
    QString m_queue;
    QPlainTextEdit* m_body;
    QCheckBox* m_useDelay;
    QSpinBox* m_delay;
    QLineEdit* m_group;
    QLineEdit* m_dedup;
    QLabel* m_error;
    QPushButton* m_sendButton = nullptr;
};

} // namespace lifeline::ui
