// The window's status bar: what the engine remembers (messages, events, memory), the window's own memory, and the
// virtual clock as permanent labels; a warning before memory runs short; and the messages the window says for a while
// ("Saved ...", "Refused: ...").
#pragma once

#include <QElapsedTimer>
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
    void sync(const RunView* run);
    void say(const QString& text, int ms = 6000);
    QString message() const; // what the bar says now
    // "history: 3 messages · 24 events · 0.4 MB": the engine's figures, as the label shows them.
    static QString historyText(const RunView& run);

    // The process's resident memory (/proc/self/statm), 0 where it cannot be read.
    static size_t residentBytes();
    // Where the memory warning is given (4 GB, or 40 % of the machine's memory when less).
    void setMemoryWarningBytes(size_t bytes) { m_warnAtBytes = bytes; }
    // Off for a window shot: the same request gives the same picture, whatever this process holds.
    void setProcessMemoryShown(bool shown) { m_processMemoryShown = shown; }

private:
    void warnOfMemory(const RunView* run);

    QStatusBar* m_bar;
    QLabel* m_history;
    QLabel* m_clock;
    QElapsedTimer m_rssRead;
    size_t m_residentBytes = 0;
    size_t m_warnAtBytes = 0;
    bool m_processMemoryShown = true;
    const RunView* m_warnedFor = nullptr; // the run the memory warning was given for (once a run)
};

} // namespace lifeline::ui
