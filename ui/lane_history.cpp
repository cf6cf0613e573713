#include "lane_history.h"

#include "lifeline/sim/duration.h"

#include <QObject>

namespace lifeline::ui {

namespace {
QString describe(const Engine& engine, const Event& e, const QString& who)
{
    const QString by = who.isEmpty() ? QString() : QObject::tr(" by %1").arg(who);
    switch (e.cause) {
    case Cause::Send:
        return e.to == MessageState::Delayed
            ? QObject::tr("sent%1, delayed until %2")
                  .arg(by, QString::fromStdString(sim::formatDuration(engine.message(e.message).dueAt)))
            : QObject::tr("sent%1").arg(by);
    case Cause::Receive:
        return QObject::tr("receive #%1%2").arg(e.detail).arg(by);
    case Cause::VisibilityTimeout:
        return QObject::tr("visibility timeout ended: visible again");
    case Cause::VisibilityChanged:
        return e.detail == 0 ? QObject::tr("visibility set to 0%1: visible at once").arg(by)
                             : QObject::tr("visibility extended to %1 s%2").arg(e.detail).arg(by);
    case Cause::Delete:
        return QObject::tr("deleted%1").arg(by);
    case Cause::MoveToDlq:
        return QObject::tr("moved to the DLQ %1")
            .arg(QString::fromStdString(engine.queueInfo(QueueIndex(e.detail)).name));
    case Cause::ArriveFromDlqSource:
        return QObject::tr("arrived in this DLQ (same MessageId)");
    case Cause::Expiry:
        return QObject::tr("expired: retention period passed");
    case Cause::Purge:
        return QObject::tr("purged");
    case Cause::Redrive:
        return QObject::tr("redriven to its source as a new message");
    case Cause::ArriveFromRedrive:
        return QObject::tr("arrived by redrive (a new message)");
    case Cause::DelayEnded:
        return QObject::tr("delay ended: visible");
    case Cause::DelayChanged:
        return QObject::tr("queue delay changed to %1 s (FIFO: applies to waiting messages)").arg(e.detail);
    case Cause::ProcessingStarted:
        return e.detail == 1 ? QObject::tr("processing started%1: DUPLICATE processing").arg(by)
                             : QObject::tr("processing started%1").arg(by);
    case Cause::ProcessingFinished:
        return QObject::tr("processing finished%1").arg(by);
    case Cause::ProcessingFailed:
        return e.detail == 1 ? QObject::tr("processing failed%1 (poison message)").arg(by)
            : e.detail == 2  ? QObject::tr("function timed out%1").arg(by)
                             : QObject::tr("processing failed%1").arg(by);
    case Cause::ConsumerCrashed:
        return QObject::tr("%1 crashed while holding it").arg(who);
    case Cause::RequestRefused:
        return QObject::tr("refused: %1").arg(QString::fromStdString(engine.log().text(e.detail)));
    default:
        return QString::fromLatin1(toString(e.cause));
    }
}

} // namespace

std::vector<HistoryEntry> laneHistory(
    const Engine& engine, const LaneIndex& index, MessageIndex lane, const std::vector<std::string>& actorNames)
{
    std::vector<HistoryEntry> out;
    if (lane >= index.laneCount())
        return out;
    // From the message's first lane through its DLQ continuations, in time order.
    std::vector<MessageIndex> lanes;
    for (MessageIndex l = lane; l != kNoMessage;) {
        lanes.insert(lanes.begin(), l);
        const MessageIndex root = engine.firstLaneOf(l);
        if (root == l)
            break;
        l = engine.extra(l)->origin;
    }
    for (const MessageIndex l : lanes) {
        for (uint32_t ev = index.lane(l).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            const Event& e = engine.log()[ev];
            HistoryEntry entry { e.time, e.queue, e.from, e.to, e.cause, e.actor, {} };
            const QString who = e.actor == kNoActor ? QString()
                : e.actor < actorNames.size()       ? QString::fromStdString(actorNames[e.actor])
                                                    : QObject::tr("client %1").arg(e.actor);
            entry.text = describe(engine, e, who);
            out.push_back(std::move(entry));
        }
    }
    return out;
}

std::vector<TimeMs> laneEventTimes(const Engine& engine, const LaneIndex& index, MessageIndex lane)
{
    std::vector<TimeMs> out;
    if (lane >= index.laneCount())
        return out;
    for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev))
        if (out.empty() || out.back() != engine.log()[ev].time)
            out.push_back(engine.log()[ev].time);
    return out;
}

} // namespace lifeline::ui
