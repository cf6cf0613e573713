// Every event of the engine's log as a table row (time, queue, message, from, to, cause, actor, detail), read in
// place: no copy of the log, only, when a filter is on, the list of matching event numbers. sync() appends what
// the engine logged since, in one insert, and removes what a bounded history forgot.
#pragma once

#include "lifeline/engine/engine.h"

#include <QAbstractTableModel>

namespace lifeline::ui {

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Queue, Message, From, To, Cause, Actor, Detail, ColumnCount };
    enum Role { EventRole = Qt::UserRole + 1, LaneRole, TimeRole };

    explicit EventLogModel(QObject* parent = nullptr);

    void setRun(const RunView* run);
    void sync();
    // Rows whose queue, message id, cause, actor or detail contain `text` (case-insensitive); `lane` keeps only that
    // message's events (kNoMessage: all). An empty filter shows the whole log.
    void setFilter(const QString& text, MessageIndex lane);
    size_t eventAt(int row) const { return m_filtered ? m_rows[size_t(row)] : m_firstHeld + size_t(row); }
    int rowOfEvent(size_t event) const; // -1 when filtered out or not synced yet
    int firstRowOfLane(MessageIndex lane) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    bool matches(size_t event) const;
    // The rows of events a bounded history released leave the table from its top.
    void dropForgotten(size_t firstRetained);
    QString text(size_t event, int column) const;

    const RunView* m_run = nullptr;
    size_t m_synced = 0; // events of the log the model has read
    size_t m_firstHeld = 0; // the first event with a row (a bounded history forgets the ones before)
    bool m_filtered = false;
    QString m_text;
    std::string m_needle; // m_text lower-cased, UTF-8: matched against the engine's own strings, no QString per row
    bool m_needleCouldBeId = false; // only hex digits and '-': worth formatting message ids for
    MessageIndex m_lane = kNoMessage;
    std::vector<uint32_t> m_rows; // the matching events, when filtered
};

} // namespace lifeline::ui
