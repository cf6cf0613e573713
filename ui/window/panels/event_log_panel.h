// The event log as a table with a text filter and "only the selected message"; its selection and the timeline's
// follow each other: picking a row selects that message on the timeline, selecting a lane picks its first row.
// While the last row is in view, new events keep it in view. Out of view, it takes no new rows until it is shown.
#pragma once

#include "window/panels/event_log_model.h"

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QTableView;

namespace lifeline::ui {

class EventLogPanel : public QWidget {
    Q_OBJECT
public:
    explicit EventLogPanel(QWidget* parent = nullptr);

    EventLogModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filterText() const { return m_filter; }
    QCheckBox* onlySelected() const { return m_onlySelected; }

    void setRun(const RunView* run);
    // New events become rows, while the panel can be seen. Behind another dock tab (Qt moves it out of view rather
    // than hiding it) it takes none: every row inserted costs the table's header per row of the whole log (2 ms a
    // frame at 5.6 million events), and nobody sees them there. catchUp() takes them whatever it shows: when it is
    // shown or its tab is picked.
    void sync();
    void catchUp();
    // The timeline selected a lane: pick its first row (no signal back).
    void showLane(MessageIndex lane);

signals:
    void eventActivated(lifeline::MessageIndex lane, lifeline::TimeMs time);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void applyFilter();

    EventLogModel* m_model;
    QTableView* m_table;
    QLineEdit* m_filter;
    QCheckBox* m_onlySelected;
    MessageIndex m_lane = kNoMessage;
    bool m_quiet = false; // selecting from showLane(): do not echo to the timeline
};

} // namespace lifeline::ui
