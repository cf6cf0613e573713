#include "timeline/lane_facts.h"

#include "lifeline/picture/actor_spans.h"
#include "lifeline/picture/lane_segments.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"
#include "timeline/picture_text.h"

#include <QObject>

namespace lifeline::ui {

namespace {

QString duration(TimeMs ms)
{
    return QString::fromStdString(formatDuration(ms));
}

LaneFacts messageFacts(const LaneModel& model, MessageIndex lane)
{
    const RunView& run = *model.run();
    const MessageRecord& record = run.message(lane);
    LaneFacts facts;
    facts.cells[LaneFacts::Name] = QString::fromStdString(laneName(run, lane));
    if (record.queue < run.queueCount())
        facts.cells[LaneFacts::Queue] = QString::fromStdString(run.queueInfo(record.queue).name);
    facts.cells[LaneFacts::State] = stateName(record.state);
    facts.cells[LaneFacts::Receives] = QString::number(record.receiveCount);
    // Since its last change of state; held by whoever received it last, while it is in flight.
    TimeMs since = -1;
    uint32_t holder = kSqsActor;
    const LaneIndex& index = model.lanes();
    if (lane < index.laneCount())
        for (uint32_t ev = index.lane(lane).first; ev != kNoEvent; ev = index.nextOfLane(ev)) {
            const Event& e = run.log()[ev];
            if (picture::isTransition(e))
                since = e.time;
            if (e.cause == Cause::Receive)
                holder = e.actor;
        }
    if (since >= 0)
        facts.cells[LaneFacts::Since] = duration(since);
    if (record.state == MessageState::InFlight && holder != kSqsActor)
        facts.cells[LaneFacts::HeldBy] = model.actorName(holder);
    if (const auto countdown = picture::laneCountdown(run, lane))
        facts.cells[LaneFacts::Next] = segmentWords(*countdown).label;
    return facts;
}

LaneFacts actorFacts(const LaneModel& model, uint32_t actor)
{
    const RunView& run = *model.run();
    LaneFacts facts;
    facts.cells[LaneFacts::Name] = model.actorName(actor);
    facts.cells[LaneFacts::Queue] = QObject::tr("consumer");
    QString doing = QObject::tr("idle");
    TimeMs since = -1;
    if (actor < model.lanes().actorCount())
        picture::readActorSpans(
            model.lanes(), actor, run.now(), run.now(), run.now(), [&](const picture::ActorSpan& s) {
                if (!s.open)
                    return true;
                since = s.from;
                switch (s.kind) {
                case picture::ActorSpan::Poll:
                    doing = QObject::tr("polling");
                    break;
                case picture::ActorSpan::Work:
                    doing = QObject::tr("working");
                    if (s.work.firstLane != kNoMessage)
                        facts.cells[LaneFacts::HeldBy] = QString::fromStdString(laneName(run, s.work.firstLane));
                    break;
                case picture::ActorSpan::Crash:
                    doing = QObject::tr("crashed");
                    break;
                case picture::ActorSpan::Tick:
                    break;
                }
                return true;
            });
    facts.cells[LaneFacts::State] = doing;
    if (since >= 0)
        facts.cells[LaneFacts::Since] = duration(since);
    return facts;
}

} // namespace

QString factsHeading(LaneFacts::Column column)
{
    switch (column) {
    case LaneFacts::Name:
        return QObject::tr("Message");
    case LaneFacts::Queue:
        return QObject::tr("Queue");
    case LaneFacts::State:
        return QObject::tr("State");
    case LaneFacts::Since:
        return QObject::tr("Since");
    case LaneFacts::Receives:
        return QObject::tr("Receives");
    case LaneFacts::HeldBy:
        return QObject::tr("Held by");
    case LaneFacts::Next:
        return QObject::tr("Next");
    case LaneFacts::ColumnCount:
        break;
    }
    return {};
}

LaneFacts rowFacts(const LaneModel& model, const RowRef& row)
{
    if (!model.run())
        return {};
    // A row laid out for a run since replaced (the view arranges its rows at its next paint) says nothing.
    if (row.kind == LaneModel::MessageRow)
        return row.id < model.run()->messageCount() ? messageFacts(model, row.id) : LaneFacts {};
    if (row.kind == LaneModel::ActorRow)
        return row.id < model.run()->actorCount() ? actorFacts(model, row.id) : LaneFacts {};
    LaneFacts facts;
    if (row.kind == LaneModel::QueueGroup && QueueIndex(row.group) < model.run()->queueCount())
        facts.cells[LaneFacts::Name] = QString::fromStdString(model.run()->queueInfo(QueueIndex(row.group)).name);
    return facts;
}

QString LaneFacts::story() const
{
    const auto& c = cells;
    const bool consumer = c[Queue] == QObject::tr("consumer");
    QStringList parts;
    QString head = consumer ? QObject::tr("%1 (consumer): %2").arg(c[Name], c[State])
                            : QObject::tr("%1 in %2: %3").arg(c[Name], c[Queue], c[State]);
    if (!c[Since].isEmpty())
        head += QObject::tr(" since %1").arg(c[Since]);
    parts << head;
    if (!consumer && c[Receives] == QStringLiteral("0"))
        parts << QObject::tr("not received yet");
    else if (!consumer)
        parts << (c[Receives] == QStringLiteral("1") ? QObject::tr("received 1 time")
                                                     : QObject::tr("received %1 times").arg(c[Receives]));
    if (!c[HeldBy].isEmpty())
        parts << (consumer ? QObject::tr("on %1") : QObject::tr("held by %1")).arg(c[HeldBy]);
    if (!c[Next].isEmpty())
        parts << c[Next];
    return parts.join(QStringLiteral(", ")) + QLatin1Char('.');
}

} // namespace lifeline::ui
