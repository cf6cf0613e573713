// The toolbar's controls over which lanes the timeline shows and in what order: a filter by text (id, body, group
// or consumer) and by state, "alive in view" at scale, the lanes' order, and Ctrl+F to the filter.
#pragma once

#include <QList>

class QAction;
class QToolBar;
class QWidget;

namespace lifeline::ui {

class TimelineView;

// Adds them to `bar`, acting on `timeline`; Ctrl+F is an action of `window`. Returns the toolbar's actions for them (a
// learning layout hides them).
QList<QAction*> addLaneViewControls(QToolBar* bar, TimelineView* timeline, QWidget* window);

} // namespace lifeline::ui
