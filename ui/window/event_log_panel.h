// The event log as a table with a text filter and "only the selected message"; its selection and the timeline's
// follow each other: picking a row selects that message on the timeline, selecting a lane picks its first row.
// While the last row is in view, new events keep it in view.
#pragma once

#include "window/event_log_model.h"

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

    void setEngine(const Engine* engine, std::vector<std::string> actorNames);
    void sync();
    // The timeline selected a lane: pick its first row (no signal back).
    void showLane(MessageIndex lane);

signals:
    void eventActivated(lifeline::MessageIndex lane, lifeline::TimeMs time);

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
