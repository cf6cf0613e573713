#include "window/controllers/status_bar_controller.h"

#include "lifeline/engine/engine.h"
#include "lifeline/support/duration.h"

#include <QLabel>
#include <QStatusBar>
#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace lifeline::ui {

StatusBarController::StatusBarController(QStatusBar* bar)
    : QObject(bar)
    , m_bar(bar)
    , m_history(new QLabel(bar))
    , m_clock(new QLabel(bar))
{
    m_history->setToolTip(tr("What this run's engine remembers, and the memory the whole window takes. The window "
                             "keeps the last minutes View > History kept says (a lesson its whole run); what ended "
                             "before is forgotten and drawn as such."));
    m_bar->addPermanentWidget(m_history);
    m_bar->addPermanentWidget(m_clock);
    // Once a run, before memory runs short: at 4 GB, or at 40 % of the machine's memory when that is less.
    const size_t physical = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE));
    m_warnAtBytes = std::min<size_t>(size_t(4) << 30, physical / 5 * 2);
    // The clock's text changes every frame: at a fixed size, each change repaints the label alone instead of laying
    // out the window again (a fifth of an idle run's CPU).
    m_clock->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_clock->setFixedSize(
        m_clock->fontMetrics().horizontalAdvance(tr("virtual time 999h59m59.99s")) + 8, m_clock->sizeHint().height());
}

void StatusBarController::sync(const RunView* run)
{
    if (!run)
        return;
    m_clock->setText(tr("virtual time %1").arg(QString::fromStdString(lifeline::formatDuration(run->now()))));
    // The run's own figure beside the whole window's (the timeline's indexes, Qt, the charts): the truth about
    // memory is the process's. Read once a second: it is a file to open.
    if (!m_rssRead.isValid() || m_rssRead.elapsed() >= 1000 || run != m_warnedFor) {
        m_rssRead.start();
        m_residentBytes = residentBytes();
    }
    QString text = historyText(*run);
    if (m_residentBytes > 0 && m_processMemoryShown)
        text += tr(" · the window %1 MB").arg(double(m_residentBytes) / 1e6, 0, 'f', 0);
    m_history->setText(text);
    warnOfMemory(run);
}

size_t StatusBarController::residentBytes()
{
    std::ifstream statm("/proc/self/statm");
    size_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident))
        return 0;
    return resident * size_t(sysconf(_SC_PAGESIZE));
}

void StatusBarController::warnOfMemory(const RunView* run)
{
    if (run == m_warnedFor || m_residentBytes < m_warnAtBytes)
        return;
    m_warnedFor = run;
    say((run->historyMs() < 0
                ? tr("The window holds %1 MB and grows with every message (it keeps the whole run): choose a shorter "
                     "View > History kept and Restart, or lower the producer rate, before the machine runs short of "
                     "memory.")
                : tr("The window holds %1 MB: choose a shorter View > History kept and Restart, or lower the producer "
                     "rate, before the machine runs short of memory."))
            .arg(double(m_residentBytes) / 1e6, 0, 'f', 0),
        60000);
}

void StatusBarController::say(const QString& text, int ms)
{
    m_bar->showMessage(text, ms);
}

QString StatusBarController::message() const
{
    return m_bar->currentMessage();
}

QString StatusBarController::historyText(const RunView& run)
{
    const size_t messages = run.messageCount();
    const size_t events = run.log().size();
    const QString kept = run.historyMs() < 0
        ? QString()
        : tr(" (the last %1 kept)").arg(QString::fromStdString(lifeline::describeDuration(run.historyMs())));
    return tr("history: %1 · %2%3 · %4 MB")
        .arg(messages == 1 ? tr("1 message") : tr("%L1 messages").arg(qulonglong(messages)),
            events == 1 ? tr("1 event") : tr("%L1 events").arg(qulonglong(events)), kept)
        .arg(double(run.bytesUsed()) / 1e6, 0, 'f', 1);
}

} // namespace lifeline::ui
