#include "timeline/timeline_accessible.h"

#include "timeline/lane_facts.h"
#include "timeline/timeline_view.h"

#include <QAccessibleWidget>

namespace lifeline::ui {

// One cell: a row's fact in one column. It names its row by what the row shows (a lane, a consumer), so it never
// points at another lane after the rows move; its words are read when asked.
class TimelineCellAccessible : public QAccessibleInterface, public QAccessibleTableCellInterface {
public:
    TimelineCellAccessible(TimelineAccessible* table, const RowRef& row, int column)
        : m_table(table)
        , m_row(row)
        , m_column(column)
        , m_said(table->cellText(row, column))
    {
    }

    bool isValid() const override { return m_table->rowOf(m_row) >= 0; }
    QObject* object() const override { return nullptr; }
    QWindow* window() const override { return m_table->window(); }
    QAccessibleInterface* childAt(int, int) const override { return nullptr; }
    QAccessibleInterface* parent() const override { return m_table; }
    QAccessibleInterface* child(int) const override { return nullptr; }
    int childCount() const override { return 0; }
    int indexOfChild(const QAccessibleInterface*) const override { return -1; }
    QString text(QAccessible::Text t) const override
    {
        if (t == QAccessible::Name)
            return m_table->cellText(m_row, m_column);
        if (t == QAccessible::Description)
            return m_table->columnDescription(m_column);
        return {};
    }
    void setText(QAccessible::Text, const QString&) override { }
    QRect rect() const override { return m_table->cellRect(m_row, m_column); }
    QAccessible::Role role() const override { return QAccessible::Cell; }
    QAccessible::State state() const override
    {
        QAccessible::State state;
        state.selectable = m_row.kind == LaneModel::MessageRow;
        state.selected = isSelected();
        state.focusable = state.selectable && m_column == LaneFacts::Name;
        state.focused = state.focusable && state.selected && m_table->view()->hasFocus();
        state.readOnly = true;
        state.invalid = !isValid();
        return state;
    }
    void* interface_cast(QAccessible::InterfaceType t) override
    {
        return t == QAccessible::TableCellInterface ? static_cast<QAccessibleTableCellInterface*>(this) : nullptr;
    }

    bool isSelected() const override
    {
        return m_row.kind == LaneModel::MessageRow && m_table->view()->selected() == MessageIndex(m_row.id);
    }
    QList<QAccessibleInterface*> columnHeaderCells() const override { return {}; }
    QList<QAccessibleInterface*> rowHeaderCells() const override { return {}; }
    int columnIndex() const override { return m_column; }
    int rowIndex() const override { return m_table->rowOf(m_row); }
    int columnExtent() const override { return 1; }
    int rowExtent() const override { return 1; }
    QAccessibleInterface* table() const override { return m_table; }

    // The words now, if they are not what it said last.
    std::optional<QString> changed()
    {
        QString now = m_table->cellText(m_row, m_column);
        if (now == m_said)
            return std::nullopt;
        m_said = now;
        return now;
    }

private:
    TimelineAccessible* m_table;
    RowRef m_row;
    int m_column;
    QString m_said;
};

namespace {

// Each view's table, while it exists.
QHash<const TimelineView*, TimelineAccessible*>& tables()
{
    static QHash<const TimelineView*, TimelineAccessible*> made;
    return made;
}

QAccessibleInterface* timelineFactory(const QString& className, QObject* object)
{
    if (className == QLatin1String("lifeline::ui::TimelineView") && object && object->isWidgetType())
        if (auto* view = qobject_cast<TimelineView*>(object))
            return new TimelineAccessible(view);
    return nullptr;
}

bool sameRow(const RowRef& a, const RowRef& b)
{
    return a.kind == b.kind && a.id == b.id && a.group == b.group;
}

} // namespace

TimelineAccessible::TimelineAccessible(TimelineView* view)
    : QAccessibleWidget(view, QAccessible::Table)
    , m_told(rows())
{
    tables().insert(view, this);
}

TimelineAccessible::~TimelineAccessible()
{
    tables().remove(static_cast<const TimelineView*>(object()));
    for (const QAccessible::Id id : std::as_const(m_cells))
        QAccessible::deleteAccessibleInterface(id);
}

void TimelineAccessible::install()
{
    static const bool installed = [] {
        QAccessible::installFactory(timelineFactory);
        return true;
    }();
    (void)installed;
}

TimelineAccessible* TimelineAccessible::existing(const TimelineView* view)
{
    return tables().value(view, nullptr);
}

TimelineView* TimelineAccessible::view() const
{
    return static_cast<TimelineView*>(widget());
}

const std::vector<RowRef>& TimelineAccessible::rows() const
{
    m_rows.clear();
    const TimelineView* v = view();
    if (!v->model().run() || !v->painter().totalRows())
        return m_rows;
    for (const auto& span : v->painter().visibleRows(v->rect(), v->frame()))
        for (int r = span.from; r < std::min(span.to, v->painter().totalRows()); ++r) {
            const RowRef row = v->painter().rowAt(r);
            if (row.kind == LaneModel::MessageRow || row.kind == LaneModel::ActorRow)
                m_rows.push_back(row);
        }
    return m_rows;
}

int TimelineAccessible::rowOf(const RowRef& row) const
{
    const std::vector<RowRef>& now = rows();
    for (size_t i = 0; i < now.size(); ++i)
        if (sameRow(now[i], row))
            return int(i);
    return -1;
}

QString TimelineAccessible::cellText(const RowRef& row, int column) const
{
    if (column < 0 || column >= LaneFacts::ColumnCount)
        return {};
    return rowFacts(view()->model(), row).cells[size_t(column)];
}

QRect TimelineAccessible::cellRect(const RowRef& row, int column) const
{
    const TimelineView* v = view();
    const int flat = [&] {
        for (int r = 0; r < v->painter().totalRows(); ++r)
            if (sameRow(v->painter().rowAt(r), row))
                return r;
        return -1;
    }();
    if (flat < 0 || column < 0 || column >= LaneFacts::ColumnCount)
        return {};
    // The name over the label column, the other facts side by side over the lane.
    const int label = v->timelineStyle().labelWidth;
    const int top = v->painter().rowTop(v->rect(), v->frame(), flat);
    const int each = std::max(1, (v->width() - label) / (LaneFacts::ColumnCount - 1));
    const QRect local = column == LaneFacts::Name
        ? QRect(0, top, label, v->timelineStyle().rowHeight)
        : QRect(label + (column - 1) * each, top, each, v->timelineStyle().rowHeight);
    return QRect(v->mapToGlobal(local.topLeft()), local.size());
}

quint64 TimelineAccessible::cellKey(const RowRef& row, int column)
{
    return (quint64(row.kind) << 56) | (quint64(uint32_t(row.group) & 0xffffu) << 40) | (quint64(row.id) << 8)
        | quint64(column);
}

QString TimelineAccessible::text(QAccessible::Text t) const
{
    if (t == QAccessible::Name) {
        const QString name = view()->accessibleName();
        return name.isEmpty() ? QObject::tr("Timeline") : name;
    }
    if (t == QAccessible::Description)
        return QObject::tr("Each row is a message lane or a consumer in view. Up and Down move between lanes, Left and "
                           "Right between the lane's events, Enter tells its story.");
    return QAccessibleWidget::text(t);
}

int TimelineAccessible::columnCount() const
{
    return LaneFacts::ColumnCount;
}

int TimelineAccessible::rowCount() const
{
    return int(rows().size());
}

int TimelineAccessible::childCount() const
{
    return rowCount() * columnCount();
}

QAccessibleInterface* TimelineAccessible::child(int index) const
{
    if (index < 0 || index >= childCount())
        return nullptr;
    return cellAt(index / columnCount(), index % columnCount());
}

int TimelineAccessible::indexOfChild(const QAccessibleInterface* child) const
{
    if (!child || child->parent() != this || child->role() != QAccessible::Cell)
        return -1;
    auto* cell = const_cast<QAccessibleInterface*>(child)->tableCellInterface();
    if (!cell || cell->rowIndex() < 0)
        return -1;
    return cell->rowIndex() * columnCount() + cell->columnIndex();
}

QAccessibleInterface* TimelineAccessible::cellAt(int row, int column) const
{
    if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount())
        return nullptr;
    const RowRef ref = m_rows[size_t(row)];
    const quint64 key = cellKey(ref, column);
    if (const auto found = m_cells.constFind(key); found != m_cells.constEnd())
        return QAccessible::accessibleInterface(*found);
    auto* cell = new TimelineCellAccessible(const_cast<TimelineAccessible*>(this), ref, column);
    m_cells.insert(key, QAccessible::registerAccessibleInterface(cell));
    return cell;
}

QAccessibleInterface* TimelineAccessible::childAt(int x, int y) const
{
    const std::vector<RowRef> now = rows();
    for (size_t r = 0; r < now.size(); ++r)
        for (int c = 0; c < columnCount(); ++c)
            if (cellRect(now[r], c).contains(x, y))
                return cellAt(int(r), c);
    return nullptr;
}

QAccessibleInterface* TimelineAccessible::focusChild() const
{
    for (int r = 0; r < rowCount(); ++r)
        if (isRowSelected(r))
            return cellAt(r, LaneFacts::Name);
    return nullptr;
}

void* TimelineAccessible::interface_cast(QAccessible::InterfaceType t)
{
    if (t == QAccessible::TableInterface)
        return static_cast<QAccessibleTableInterface*>(this);
    return QAccessibleWidget::interface_cast(t);
}

QString TimelineAccessible::columnDescription(int column) const
{
    return column >= 0 && column < columnCount() ? factsHeading(LaneFacts::Column(column)) : QString();
}

QString TimelineAccessible::rowDescription(int row) const
{
    return row >= 0 && row < rowCount() ? cellText(m_rows[size_t(row)], LaneFacts::Name) : QString();
}

bool TimelineAccessible::isRowSelected(int row) const
{
    return row >= 0 && row < rowCount() && m_rows[size_t(row)].kind == LaneModel::MessageRow
        && view()->selected() == MessageIndex(m_rows[size_t(row)].id);
}

int TimelineAccessible::selectedRowCount() const
{
    return int(selectedRows().size());
}

QList<int> TimelineAccessible::selectedRows() const
{
    QList<int> rows;
    for (int r = 0; r < rowCount(); ++r)
        if (isRowSelected(r))
            rows << r;
    return rows;
}

int TimelineAccessible::selectedCellCount() const
{
    return selectedRowCount() * columnCount();
}

QList<QAccessibleInterface*> TimelineAccessible::selectedCells() const
{
    QList<QAccessibleInterface*> cells;
    for (const int r : selectedRows())
        for (int c = 0; c < columnCount(); ++c)
            cells << cellAt(r, c);
    return cells;
}

bool TimelineAccessible::selectRow(int row)
{
    if (row < 0 || row >= rowCount() || m_rows[size_t(row)].kind != LaneModel::MessageRow)
        return false;
    view()->select(MessageIndex(m_rows[size_t(row)].id));
    return true;
}

bool TimelineAccessible::unselectRow(int row)
{
    if (!isRowSelected(row))
        return false;
    view()->select(kNoMessage);
    return true;
}

void TimelineAccessible::modelChange(QAccessibleTableModelChangeEvent*)
{
    // Every change is a reset: the rows are read again, and the cells of rows gone are let go.
    m_told = rows();
    for (auto it = m_cells.begin(); it != m_cells.end();) {
        auto* cell = static_cast<TimelineCellAccessible*>(QAccessible::accessibleInterface(*it));
        if (cell && cell->isValid()) {
            ++it;
            continue;
        }
        QAccessible::deleteAccessibleInterface(*it);
        it = m_cells.erase(it);
    }
}

void TimelineAccessible::viewChanged()
{
    const std::vector<RowRef> now = rows();
    const bool same = now.size() == m_told.size()
        && std::equal(
            now.begin(), now.end(), m_told.begin(), [](const RowRef& a, const RowRef& b) { return sameRow(a, b); });
    if (!same) {
        QAccessibleTableModelChangeEvent reset(view(), QAccessibleTableModelChangeEvent::ModelReset);
        modelChange(&reset); // (Qt calls it too, only while a reader is connected)
        QAccessible::updateAccessibility(&reset);
    }
    for (const QAccessible::Id id : std::as_const(m_cells)) {
        auto* cell = static_cast<TimelineCellAccessible*>(QAccessible::accessibleInterface(id));
        if (cell && cell->isValid() && cell->changed()) {
            QAccessibleEvent event(cell, QAccessible::NameChanged);
            QAccessible::updateAccessibility(&event);
        }
    }
}

void TimelineAccessible::runReplaced()
{
    for (const QAccessible::Id id : std::as_const(m_cells))
        QAccessible::deleteAccessibleInterface(id);
    m_cells.clear();
    QAccessibleTableModelChangeEvent reset(view(), QAccessibleTableModelChangeEvent::ModelReset);
    QAccessible::updateAccessibility(&reset);
}

void TimelineAccessible::announceSelection()
{
    if (QAccessibleInterface* focused = focusChild()) {
        QAccessibleEvent event(focused, QAccessible::Focus);
        QAccessible::updateAccessibility(&event);
        QAccessibleEvent selection(focused, QAccessible::Selection);
        QAccessible::updateAccessibility(&selection);
    }
}

} // namespace lifeline::ui
