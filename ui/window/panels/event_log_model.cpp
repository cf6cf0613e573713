#include "window/panels/event_log_model.h"

#include "lifeline/run/event_text.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"

#include <algorithm>

namespace lifeline::ui {

EventLogModel::EventLogModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void EventLogModel::setRun(const RunView* run)
{
    beginResetModel();
    m_run = run;
    m_synced = 0;
    m_firstHeld = 0;
    m_rows.clear();
    endResetModel();
    sync();
}

void EventLogModel::sync()
{
    if (!m_run)
        return;
    dropForgotten(m_run->log().firstRetained());
    const size_t size = m_run->log().size();
    if (size <= m_synced)
        return;
    if (!m_filtered) {
        beginInsertRows({}, int(m_synced - m_firstHeld), int(size - m_firstHeld) - 1);
        m_synced = size;
        endInsertRows();
        return;
    }
    std::vector<uint32_t> added;
    for (size_t e = m_synced; e < size; ++e)
        if (matches(e))
            added.push_back(uint32_t(e));
    m_synced = size;
    if (added.empty())
        return;
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + added.size()) - 1);
    m_rows.insert(m_rows.end(), added.begin(), added.end());
    endInsertRows();
}

void EventLogModel::dropForgotten(size_t firstRetained)
{
    if (firstRetained <= m_firstHeld)
        return;
    const size_t rowsGone = m_filtered
        ? size_t(std::lower_bound(m_rows.begin(), m_rows.end(), uint32_t(firstRetained)) - m_rows.begin())
        : std::min(firstRetained, m_synced) - m_firstHeld;
    if (rowsGone > 0)
        beginRemoveRows({}, 0, int(rowsGone) - 1);
    if (m_filtered)
        m_rows.erase(m_rows.begin(), m_rows.begin() + std::ptrdiff_t(rowsGone));
    m_firstHeld = firstRetained;
    m_synced = std::max(m_synced, firstRetained);
    if (rowsGone > 0)
        endRemoveRows();
}

void EventLogModel::setFilter(const QString& text, MessageIndex lane)
{
    beginResetModel();
    m_text = text.trimmed();
    m_needle = m_text.toLower().toStdString();
    m_needleCouldBeId = !m_needle.empty() && std::all_of(m_needle.begin(), m_needle.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-';
    });
    m_lane = lane;
    m_filtered = !m_text.isEmpty() || lane != kNoMessage;
    m_rows.clear();
    if (m_filtered)
        for (size_t e = m_firstHeld; e < m_synced; ++e)
            if (matches(e))
                m_rows.push_back(uint32_t(e));
    endResetModel();
}

bool EventLogModel::matches(size_t event) const
{
    const Event& e = m_run->log()[event];
    if (m_lane != kNoMessage) {
        // The message's events in every queue it went through (a DLQ lane is the same message).
        if (e.message == kNoMessage || m_run->firstLaneOf(e.message) != m_run->firstLaneOf(m_lane))
            return false;
    }
    if (m_needle.empty())
        return true;
    // A filter over a million events stays quick: the engine's strings are searched as they are, and a message id
    // is formatted only when the filter could be part of one.
    const auto has = [this](std::string_view haystack) {
        return std::search(haystack.begin(), haystack.end(), m_needle.begin(), m_needle.end(), [](char a, char b) {
            return (a >= 'A' && a <= 'Z' ? char(a - 'A' + 'a') : a) == b;
        }) != haystack.end();
    };
    const QueueIndex queue = e.queue != kNoQueue ? e.queue
        : e.message != kNoMessage                ? m_run->message(e.message).queue
                                                 : kNoQueue;
    if (queue != kNoQueue && has(m_run->queueInfo(queue).name))
        return true;
    if (has(toString(e.cause)))
        return true;
    if (has(m_run->actorName(e.actor)))
        return true;
    // Every cause whose detail is a text (a refusal's, a script's call and answer, an operator's action, ...).
    if (e.hasText() && has(m_run->log().text(e.textIndex())))
        return true;
    return m_needleCouldBeId && e.message != kNoMessage && has(m_run->messageId(e.message));
}

int EventLogModel::rowOfEvent(size_t event) const
{
    if (event >= m_synced || event < m_firstHeld)
        return -1;
    if (!m_filtered)
        return int(event - m_firstHeld);
    const auto at = std::lower_bound(m_rows.begin(), m_rows.end(), uint32_t(event));
    return at != m_rows.end() && *at == event ? int(at - m_rows.begin()) : -1;
}

int EventLogModel::firstRowOfLane(MessageIndex lane) const
{
    if (!m_run || lane == kNoMessage)
        return -1;
    const int rows = rowCount();
    for (int row = 0; row < rows; ++row)
        if (eventAt(row) >= m_run->log().firstRetained() && m_run->log()[eventAt(row)].message == lane)
            return row;
    return -1;
}

int EventLogModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    return m_filtered ? int(m_rows.size()) : int(m_synced - m_firstHeld);
}

int EventLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString EventLogModel::text(size_t event, int column) const
{
    const Event& e = m_run->log()[event];
    switch (column) {
    case Time:
        return QString::fromStdString(lifeline::formatDuration(e.time));
    case Queue:
        return e.queue == kNoQueue
            ? (e.message != kNoMessage ? QString::fromStdString(m_run->queueInfo(m_run->message(e.message).queue).name)
                                       : QString())
            : QString::fromStdString(m_run->queueInfo(e.queue).name);
    case Message:
        return e.message == kNoMessage ? QString() : QString::fromStdString(laneName(*m_run, e.message));
    case From:
    case To: {
        // Events that change no state (an actor's work, a refusal) leave both columns empty.
        const bool changes = e.from != e.to || e.cause == lifeline::Cause::VisibilityChanged
            || e.cause == lifeline::Cause::DelayChanged;
        return changes ? QString::fromLatin1(toString(column == From ? e.from : e.to)) : QString();
    }
    case Cause:
        return QString::fromLatin1(toString(e.cause));
    case Actor:
        return QString::fromStdString(m_run->actorName(e.actor));
    case Detail:
        return QString::fromStdString(eventDetail(*m_run, e));
    }
    return {};
}

QVariant EventLogModel::data(const QModelIndex& index, int role) const
{
    if (!m_run || !index.isValid() || index.row() >= rowCount())
        return {};
    const size_t event = eventAt(index.row());
    if (event < m_run->log().firstRetained())
        return {}; // forgotten since the last sync (a hidden panel syncs when it is shown)
    switch (role) {
    case Qt::DisplayRole:
        return text(event, index.column());
    case Qt::ToolTipRole:
        return index.column() == Detail ? text(event, Detail) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() == Time ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case EventRole:
        return qulonglong(event);
    case LaneRole:
        return uint(m_run->log()[event].message);
    case TimeRole:
        return qlonglong(m_run->log()[event].time);
    default:
        return {};
    }
}

QVariant EventLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const kNames[] = { QT_TR_NOOP("time"), QT_TR_NOOP("queue"), QT_TR_NOOP("message"),
        QT_TR_NOOP("from"), QT_TR_NOOP("to"), QT_TR_NOOP("cause"), QT_TR_NOOP("actor"), QT_TR_NOOP("detail") };
    return section >= 0 && section < ColumnCount ? tr(kNames[section]) : QVariant();
}

} // namespace lifeline::ui
