#include "window/panels/lane_view_controls.h"

#include "timeline/timeline_view.h"
#include "timeline/view_state.h"

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QToolBar>

namespace lifeline::ui {

QList<QAction*> addLaneViewControls(QToolBar* bar, TimelineView* timeline, QWidget* window)
{
    // Filter lanes by text (id, body, group, consumer) and by state.
    QList<QAction*> added { bar->addSeparator() };
    auto* filterText = new QLineEdit(window);
    filterText->setPlaceholderText(QObject::tr("Filter: id, body, group or consumer"));
    filterText->setClearButtonEnabled(true);
    filterText->setObjectName(QStringLiteral("laneFilter"));
    filterText->setMaximumWidth(240);
    auto* filterState = new QComboBox(window);
    filterState->addItem(QObject::tr("all messages"), int(LaneFilter::State::All));
    filterState->addItem(QObject::tr("in the queue"), int(LaneFilter::State::Live));
    filterState->addItem(QObject::tr("in flight"), int(LaneFilter::State::InFlight));
    filterState->addItem(QObject::tr("ended"), int(LaneFilter::State::Ended));
    filterState->addItem(QObject::tr("dead-lettered"), int(LaneFilter::State::DeadLettered));
    filterState->addItem(QObject::tr("processed twice"), int(LaneFilter::State::Duplicates));
    const auto applyFilter = [timeline, filterText, filterState] {
        timeline->setFilter(
            LaneFilter { filterText->text().trimmed(), LaneFilter::State(filterState->currentData().toInt()) });
    };
    QObject::connect(filterText, &QLineEdit::textChanged, timeline, applyFilter);
    QObject::connect(filterState, &QComboBox::currentIndexChanged, timeline, applyFilter);
    added << bar->addWidget(filterText) << bar->addWidget(filterState);
    // At scale: only what is alive in view, in the order that finds problems first.
    bar->addAction(timeline->viewState()->aliveOnlyAction());
    added << timeline->viewState()->aliveOnlyAction();
    auto* order = new QComboBox(window);
    order->addItem(QObject::tr("by send time"), int(LaneOrder::Sent));
    order->addItem(QObject::tr("most received first"), int(LaneOrder::MostReceived));
    order->addItem(QObject::tr("longest in queue first"), int(LaneOrder::LongestInQueue));
    order->addItem(QObject::tr("by state"), int(LaneOrder::State));
    order->setToolTip(QObject::tr("The order of each queue's lanes"));
    order->setAccessibleName(QObject::tr("Lane order"));
    QObject::connect(order, &QComboBox::currentIndexChanged, timeline,
        [timeline, order](int) { timeline->setLaneOrder(LaneOrder(order->currentData().toInt())); });
    added << bar->addWidget(order);
    // Ctrl+F brings them back where a learning layout hid them.
    auto* findLanes = new QAction(QObject::tr("Filter lanes"), window);
    findLanes->setShortcut(QKeySequence::Find);
    QObject::connect(findLanes, &QAction::triggered, filterText, [filterText, added] {
        for (QAction* control : added)
            control->setVisible(true);
        filterText->setFocus();
    });
    window->addAction(findLanes);
    return added;
}

} // namespace lifeline::ui
