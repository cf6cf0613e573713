// The timeline as a screen reader reads it: a table whose rows are the message lanes and consumer rows in view and
// whose cells are a row's facts at the run's now (lane_facts.h: name, queue, state, since, receives, who holds it,
// what happens next). Written for Lifeline rather than on Qt's QAccessibleTable, which reads a QAbstractItemModel
// and is known to crash under Orca (cellAt(-1, -1), children that dangle after a reset): every index here is
// checked, and a cell names its lane, not a position, so a cell of a lane that scrolled away reads as gone.
#pragma once

#include "timeline/row_layout.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QHash>
#include <vector>

namespace lifeline::ui {

class TimelineView;
class TimelineCellAccessible;

class TimelineAccessible : public QAccessibleWidget, public QAccessibleTableInterface {
public:
    explicit TimelineAccessible(TimelineView* view);
    ~TimelineAccessible() override;
    TimelineAccessible(const TimelineAccessible&) = delete;
    TimelineAccessible& operator=(const TimelineAccessible&) = delete;

    // Registered once for every TimelineView (QAccessible::installFactory).
    static void install();
    // The view's table if a reader has asked for it (none is made here: without a reader, a view tells nobody).
    static TimelineAccessible* existing(const TimelineView* view);

    QAccessible::Role role() const override { return QAccessible::Table; }
    QString text(QAccessible::Text t) const override;
    int childCount() const override;
    QAccessibleInterface* child(int index) const override;
    int indexOfChild(const QAccessibleInterface* child) const override;
    QAccessibleInterface* childAt(int x, int y) const override;
    QAccessibleInterface* focusChild() const override;
    void* interface_cast(QAccessible::InterfaceType t) override;

    QAccessibleInterface* caption() const override { return nullptr; }
    QAccessibleInterface* summary() const override { return nullptr; }
    QAccessibleInterface* cellAt(int row, int column) const override;
    int selectedCellCount() const override;
    QList<QAccessibleInterface*> selectedCells() const override;
    QString columnDescription(int column) const override;
    QString rowDescription(int row) const override;
    int selectedColumnCount() const override { return 0; }
    int selectedRowCount() const override;
    int columnCount() const override;
    int rowCount() const override;
    QList<int> selectedColumns() const override { return {}; }
    QList<int> selectedRows() const override;
    bool isColumnSelected(int) const override { return false; }
    bool isRowSelected(int row) const override;
    bool selectRow(int row) override;
    bool selectColumn(int) override { return false; }
    bool unselectRow(int row) override;
    bool unselectColumn(int) override { return false; }
    void modelChange(QAccessibleTableModelChangeEvent* event) override;

    // After the view changed (its rows, the run's now, the selection): the table's rows are read again, a reset is
    // announced when they differ, and every cell a reader has asked for says when its words changed.
    void viewChanged();
    // Another run in the view: every cell handed out is let go (their lanes were the old run's), and a reset told.
    void runReplaced();
    // The selected lane's name cell, focused (a screen reader speaks it).
    void announceSelection();

    TimelineView* view() const;
    int rowOf(const RowRef& row) const; // -1: not in the table now
    QString cellText(const RowRef& row, int column) const;
    QRect cellRect(const RowRef& row, int column) const;

private:
    // The rows in view now (read at each question: the view may have moved since the last change was told).
    const std::vector<RowRef>& rows() const;
    static quint64 cellKey(const RowRef& row, int column);

    mutable std::vector<RowRef> m_rows; // as last read
    std::vector<RowRef> m_told; // as the last reset told them
    mutable QHash<quint64, QAccessible::Id> m_cells; // the cells handed out, by lane and column
};

} // namespace lifeline::ui
