// The window's status bar: what the engine remembers (messages, events, memory) and the virtual clock as permanent
// labels, and the messages the window says for a while ("Saved ...", "Refused: ...").
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QStatusBar;

namespace lifeline {
class RunView;
} // namespace lifeline

namespace lifeline::ui {

class StatusBarController : public QObject {
    Q_OBJECT
public:
    explicit StatusBarController(QStatusBar* bar);

    // Re-reads the run on screen (none: the labels stay as they were).
    void sync(const RunView* engine);
    void say(const QString& text, int ms = 6000);
    QString message() const; // what the bar says now
    // "history: 3 messages · 24 events · 0.4 MB": the engine's figures, as the label shows them.
    static QString historyText(const RunView& engine);

private:
    QStatusBar* m_bar;
    QLabel* m_history;
    QLabel* m_clock;
};

} // namespace lifeline::ui
