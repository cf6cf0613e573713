#include "main_window.h"

#include "lifeline/engine.h"

#include <QLabel>
#include <QVBoxLayout>

namespace lifeline::ui {

MainWindow::MainWindow(const Engine& engine, QWidget* parent)
    : QMainWindow(parent)
    , m_engine(engine)
    , m_lesson(new QLabel(this))
    , m_summary(new QLabel(this))
{
    setWindowTitle(tr("Lifeline"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    auto* heading = new QLabel(
        tr("<h2>Lifeline</h2><p>The life of every Amazon SQS message, made visible.</p>"
           "<p><i>The live timeline window is still being built. This build runs the engine "
           "and shows its queues below; <code>lifeline run --lesson 1 --summary</code> runs it headless.</i></p>"),
        central);
    heading->setWordWrap(true);
    layout->addWidget(heading);
    m_lesson->setWordWrap(true);
    m_lesson->setTextFormat(Qt::RichText);
    layout->addWidget(m_lesson);
    m_summary->setTextFormat(Qt::RichText);
    layout->addWidget(m_summary);
    layout->addStretch(1);
    setCentralWidget(central);
    resize(900, 560);
    refresh();
}

void MainWindow::setLesson(const QString& title, const QString& text)
{
    m_lesson->setText(QStringLiteral("<h3>%1</h3><p>%2</p>").arg(title.toHtmlEscaped(), text.toHtmlEscaped()));
    setWindowTitle(tr("Lifeline - %1").arg(title));
}

void MainWindow::refresh()
{
    QString html
        = QStringLiteral("<table cellpadding=4><tr><th align=left>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
              .arg(tr("queue"), tr("visible"), tr("in flight"), tr("delayed"));
    for (size_t i = 0; i < m_engine.queueCount(); ++i) {
        const auto& info = m_engine.queueInfo(QueueIndex(i));
        if (!info.alive)
            continue;
        const auto counters = m_engine.counters(info.name).value();
        html += QStringLiteral(
            "<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td></tr>")
                    .arg(QString::fromStdString(info.name))
                    .arg(counters.visible)
                    .arg(counters.inFlight)
                    .arg(counters.delayed);
    }
    html += QStringLiteral("</table><p>%1</p>").arg(tr("%n event(s) in the log", nullptr, int(m_engine.log().size())));
    m_summary->setText(html);
}

} // namespace lifeline::ui
