// The window's docks arranged for the screen it opens on, once, when it is first laid out at its size: on a small
// screen the timeline keeps the room, on a wide one the lesson has a column of its own.
#include "window/main_window.h"

#include <QDockWidget>
#include <QShowEvent>
#include <QTabBar>
#include <QTimer>
#include <algorithm>

namespace lifeline::ui {

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_docksArranged) {
        m_docksArranged = true;
        QTimer::singleShot(0, this, &MainWindow::arrangeDocks); // once the window is laid out at its size
    }
}

void MainWindow::arrangeDocks()
{
    const auto dock = [this](const char* name) { return findChild<QDockWidget*>(QLatin1String(name)); };
    QDockWidget* lesson = dock("lessonDock");
    QDockWidget* message = dock("messageDock");
    QDockWidget* charts = dock("chartsDock");
    if (!lesson || !message || !charts)
        return;
    if (width() < 1200 || height() < 800) {
        // A small screen: the timeline keeps the room. The message's history is a tab behind the lesson; below 800
        // px the charts and the event log give way first (View brings them back); narrower than 1200 px the queue
        // controls and the consumers' tiles share the left column as tabs.
        tabifyDockWidget(lesson, message);
        lesson->raise();
        if (height() < 800) {
            charts->hide();
            dock("eventLogDock")->hide();
        } else {
            resizeDocks({ charts }, { 150 }, Qt::Vertical);
        }
        if (width() < 1200) {
            // The side columns as narrow as their controls read, for the timeline (sized before the tabs are
            // made: resized after, the tab bar's edge is drawn at a width that depends on when it is painted).
            resizeDocks({ dock("queueDock"), lesson }, { 330, 230 }, Qt::Horizontal);
            tabifyDockWidget(dock("queueDock"), dock("consumersDock"));
            dock("queueDock")->raise();
            // No base line along the tabs: its length depended on when the bar was first painted (two shots of
            // the same instant differed by it).
            for (auto* tabs : findChildren<QTabBar*>(QString(), Qt::FindDirectChildrenOnly))
                tabs->setDrawBase(false);
        }
        return;
    }
    // Room enough: the lesson's column runs to the bottom of the window, its text reads without scrolling, the
    // message's history below it, short charts.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({ lesson }, { std::min(420, width() / 4) }, Qt::Horizontal);
    resizeDocks({ lesson, message }, { height() * 7 / 10, height() * 3 / 10 }, Qt::Vertical);
    resizeDocks({ charts }, { std::min(200, height() / 5) }, Qt::Vertical);
}

} // namespace lifeline::ui
