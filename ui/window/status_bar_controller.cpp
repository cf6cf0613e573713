#include "window/status_bar_controller.h"

#include "lifeline/engine/engine.h"
#include "lifeline/support/duration.h"

#include <QLabel>
#include <QStatusBar>

namespace lifeline::ui {

StatusBarController::StatusBarController(QStatusBar* bar)
    : QObject(bar)
    , m_bar(bar)
    , m_history(new QLabel(bar))
    , m_clock(new QLabel(bar))
{
    m_history->setToolTip(tr("What this run's engine remembers. The window keeps every message and event, so any "
                             "moment can be scrolled back to; a headless endpoint keeps only --history."));
    m_bar->addPermanentWidget(m_history);
    m_bar->addPermanentWidget(m_clock);
    // The clock's text changes every frame: at a fixed size, each change repaints the label alone instead of laying
    // out the window again (a fifth of an idle run's CPU).
    m_clock->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    m_clock->setFixedSize(
        m_clock->fontMetrics().horizontalAdvance(tr("virtual time 999h59m59.99s")) + 8, m_clock->sizeHint().height());
}

void StatusBarController::sync(const RunView* engine)
{
    if (!engine)
        return;
    m_clock->setText(tr("virtual time %1").arg(QString::fromStdString(sim::formatDuration(engine->now()))));
    m_history->setText(historyText(*engine));
}

void StatusBarController::say(const QString& text, int ms)
{
    m_bar->showMessage(text, ms);
}

QString StatusBarController::message() const
{
    return m_bar->currentMessage();
}

QString StatusBarController::historyText(const RunView& engine)
{
    const size_t messages = engine.messageCount();
    const size_t events = engine.log().size();
    return tr("history: %1 · %2 · %3 MB")
        .arg(messages == 1 ? tr("1 message") : tr("%L1 messages").arg(qulonglong(messages)),
            events == 1 ? tr("1 event") : tr("%L1 events").arg(qulonglong(events)))
        .arg(double(engine.bytesUsed()) / 1e6, 0, 'f', 1);
}

} // namespace lifeline::ui
