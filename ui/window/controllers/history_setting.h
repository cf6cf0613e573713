// How much of a run the window remembers (View > History kept): the last 5, 10 (the default), 30 or 60 minutes of
// virtual time, or everything. What ended longer ago is forgotten (EngineOptions::historyMs), so a run left playing
// for hours stays within a laptop's memory; a lesson always keeps its whole run. Kept in the settings; a change
// applies from the next run (the engine's history is fixed when it starts).
#pragma once

#include "lifeline/support/duration.h"

#include <QObject>

class QMenu;

namespace lifeline::ui {

class HistorySetting : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultMinutes = 10;

    explicit HistorySetting(QObject* parent = nullptr);
    // The menu's choices, the one in force checked.
    void fillMenu(QMenu* menu);
    // Minutes kept; 0: everything.
    int minutes() const { return m_minutes; }
    void setMinutes(int minutes);
    // The history for a run of this length (EngineOptions::historyMs; -1: everything): at least the run's own
    // duration and a minute, so a lesson is never cut short. 0: a run with no end (the local endpoint).
    int64_t historyMsFor(TimeMs duration) const;

signals:
    void changed(int minutes);

private:
    int m_minutes = kDefaultMinutes;
};

} // namespace lifeline::ui
