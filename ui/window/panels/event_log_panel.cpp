#include "window/panels/event_log_panel.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QVBoxLayout>

namespace lifeline::ui {

EventLogPanel::EventLogPanel(QWidget* parent)
    : QWidget(parent)
    , m_model(new EventLogModel(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_onlySelected(new QCheckBox(tr("Only the selected &message"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* bar = new QHBoxLayout;
    m_filter->setPlaceholderText(tr("Filter events: queue, message id, cause, consumer or text"));
    m_filter->setClearButtonEnabled(true);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_onlySelected);
    layout->addLayout(bar);
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    // Fixed row heights and no per-row sizing: a million rows scroll as fast as ten.
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    const int widths[] = { 80, 110, 80, 80, 80, 130, 110 };
    for (int c = 0; c < int(std::size(widths)); ++c)
        m_table->setColumnWidth(c, widths[c]);
    layout->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &EventLogPanel::applyFilter);
    connect(m_onlySelected, &QCheckBox::toggled, this, &EventLogPanel::applyFilter);
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (m_quiet || !current.isValid())
                return;
            const auto lane = MessageIndex(m_model->data(current, EventLogModel::LaneRole).toUInt());
            const auto time = TimeMs(m_model->data(current, EventLogModel::TimeRole).toLongLong());
            m_lane = lane == kNoMessage ? m_lane : lane;
            emit eventActivated(lane, time);
        });
}

void EventLogPanel::setRun(const RunView* run)
{
    m_lane = kNoMessage;
    m_model->setRun(run);
    applyFilter();
}

void EventLogPanel::sync()
{
    if (isVisible() && !visibleRegion().isEmpty())
        catchUp();
}

void EventLogPanel::catchUp()
{
    QScrollBar* scroll = m_table->verticalScrollBar();
    const bool atEnd = scroll->value() >= scroll->maximum() - 1;
    m_model->sync();
    if (atEnd && !m_table->selectionModel()->hasSelection())
        m_table->scrollToBottom();
}

void EventLogPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    catchUp();
}

void EventLogPanel::applyFilter()
{
    m_model->setFilter(m_filter->text(), m_onlySelected->isChecked() ? m_lane : kNoMessage);
    if (m_lane != kNoMessage)
        showLane(m_lane);
}

void EventLogPanel::showLane(MessageIndex lane)
{
    const bool changed = lane != m_lane;
    m_lane = lane;
    if (changed && m_onlySelected->isChecked()) {
        applyFilter();
        return;
    }
    m_quiet = true;
    m_model->sync(); // hidden, it may be behind: the lane's row is picked now, seen when the panel is shown
    const int row = m_model->firstRowOfLane(lane);
    if (row < 0)
        m_table->clearSelection();
    else {
        const QModelIndex index = m_model->index(row, 0);
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    }
    m_quiet = false;
}

} // namespace lifeline::ui
