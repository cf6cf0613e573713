#include "window/panels/moment_list.h"

#include "lifeline/support/duration.h"

#include <QResizeEvent>

namespace lifeline::ui {

MomentList::MomentList(QWidget* parent)
    : QListWidget(parent)
{
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
    setToolTip(tr("The lesson's key moments, found in this run. Click one, or press N / Shift+N in the timeline."));
    connect(
        this, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) { emit momentRequested(row(item) + 1); });
    connect(this, &QListWidget::itemActivated, this,
        [this](QListWidgetItem* item) { emit momentRequested(row(item) + 1); });
}

void MomentList::setLaneModel(const LaneModel* model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (m_model) {
        connect(m_model, &LaneModel::momentsChanged, this, &MomentList::rebuild);
        connect(m_model, &LaneModel::runReset, this, &QListWidget::clear); // a new run
    }
    rebuild();
}

void MomentList::rebuild()
{
    const auto& moments = m_model ? m_model->moments() : std::vector<analysis::Moment> {};
    // Moments are only ever added while a run goes on (a new run resets the model, which clears the list): the
    // items there stay, with the selection.
    if (size_t(count()) > moments.size())
        clear();
    for (size_t i = size_t(count()); i < moments.size(); ++i)
        addItem(QStringLiteral("%1  %2  %3")
                    .arg(i + 1)
                    .arg(QString::fromStdString(lifeline::formatDuration(moments[i].at)),
                        QString::fromStdString(moments[i].caption)));
    setVisible(!moments.empty());
    fitHeight();
}

void MomentList::fitHeight()
{
    // As tall as its items wrapped at the list's width, up to seven lines: the lesson's text above keeps the room.
    const int width = std::max(80, viewport()->width() - 8);
    int height = 0;
    for (int i = 0; i < count(); ++i)
        height += fontMetrics().boundingRect(QRect(0, 0, width, 10000), Qt::TextWordWrap, item(i)->text()).height();
    height = std::min(height, 7 * fontMetrics().lineSpacing());
    setFixedHeight(height + 2 * frameWidth() + 6);
}

void MomentList::resizeEvent(QResizeEvent* event)
{
    QListWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fitHeight();
}

void MomentList::setFocused(int number)
{
    const QSignalBlocker block(this);
    setCurrentRow(number - 1);
}

} // namespace lifeline::ui
