#include "lifeline/observe/observer.h"

#include "../engine_internal.h"

#include <algorithm>

namespace lifeline {

// Writes an observed run into an Engine's store (Engine declares it a friend): lanes and states as the proxy saw
// them, with the counters viewers read kept as the engine keeps them.
struct ObservedRunAccess {
    static void setNow(Engine& engine, TimeMs time) { engine.m_now = std::max(engine.m_now, time); }

    static QueueIndex addQueue(Engine& engine, const std::string& name)
    {
        auto queue = std::make_unique<QueueState>();
        queue->index = QueueIndex(engine.m_queues.size());
        queue->uid = engine.m_nextQueueUid++;
        queue->name = name;
        queue->createdAt = engine.m_now;
        queue->modifiedAt = engine.m_now;
        queue->attributes.fifo = name.size() > 5 && name.ends_with(".fifo");
        engine.m_queueInfo.push_back(QueueInfo { name, queue->arn, true, queue->attributes.fifo, engine.m_now });
        engine.m_queues.push_back(std::move(queue));
        return engine.m_queues.back()->index;
    }

    // Each attribute on its own: the upstream accepted them all, and one this engine does not model (a KMS key it
    // cannot check) must not keep the others out.
    static void applyAttributes(Engine& engine, QueueIndex index, const AttributeMap& given)
    {
        QueueState& queue = *engine.m_queues[index];
        for (const auto& [name, value] : given) {
            if (name == "QueueArn") {
                queue.arn = value;
                engine.m_queueInfo[index].arn = value;
                continue;
            }
            auto applied = lifeline::applyAttributes(queue.attributes, { { name, value } }, { false, queue.fifo() });
            if (applied)
                queue.attributes = std::move(applied).value();
        }
        queue.modifiedAt = engine.m_now;
    }

    static void setAlive(Engine& engine, QueueIndex index, bool alive)
    {
        engine.m_queues[index]->alive = alive;
        engine.m_queueInfo[index].alive = alive;
    }

    static MessageIndex newLane(Engine& engine, QueueIndex index, const std::string& messageId, MessageState to,
        Cause cause, uint32_t actor, uint32_t detail)
    {
        QueueState& queue = *engine.m_queues[index];
        const MessageIndex lane = engine.addLane(index);
        MessageIdParts id;
        uuidParts(messageId, id.hi, id.lo);
        engine.keepMessageId(lane, id);
        MessageRecord& record = engine.m_messages[lane];
        engine.setTimes(lane, LaneTimes { .sentAt = engine.m_now, .enqueuedAt = engine.m_now });
        record.state = to;
        engine.enterCounters(queue, to);
        ++queue.liveMessages;
        engine.logEvent(engine.m_now, lane, index, MessageState::None, to, cause, actor, detail);
        return lane;
    }

    static MessageRecord& record(Engine& engine, MessageIndex lane) { return engine.m_messages[lane]; }
    static void setBody(Engine& engine, MessageIndex lane, const std::string& body) { engine.setBody(lane, body); }
    static void setTimes(Engine& engine, MessageIndex lane, const LaneTimes& times) { engine.setTimes(lane, times); }

    static void addExtra(Engine& engine, MessageIndex lane, MessageExtra extra)
    {
        engine.m_messages[lane].extra = engine.addExtra(std::move(extra));
    }

    static void setState(
        Engine& engine, MessageIndex lane, MessageState to, Cause cause, uint32_t actor, uint32_t detail)
    {
        MessageRecord& record = engine.m_messages[lane];
        QueueState& queue = *engine.m_queues[record.queue];
        const MessageState from = record.state;
        engine.leaveCounters(queue, from);
        engine.enterCounters(queue, to);
        if (isLive(from) && !isLive(to))
            --queue.liveMessages;
        else if (!isLive(from) && isLive(to))
            ++queue.liveMessages;
        record.state = to;
        engine.logEvent(engine.m_now, lane, record.queue, from, to, cause, actor, detail);
    }

    static void noEffect(Engine& engine, MessageIndex lane, NoEffectKind kind, uint32_t actor)
    {
        engine.noEffect(lane, kind, actor);
    }

    static void logQueueEvent(Engine& engine, QueueIndex index, Cause cause, uint32_t actor, uint32_t detail = 0)
    {
        engine.logEvent(engine.m_now, kNoMessage, index, MessageState::None, MessageState::None, cause, actor, detail);
    }

    static uint32_t addText(Engine& engine, std::string text) { return engine.m_log.addText(std::move(text)); }

    // A MessageId as the engine keeps it: a UUID's 128 bits. An id that is not a UUID (some emulators') is kept as a
    // hash of its text, so one id still means one lane.
    static void uuidParts(const std::string& id, uint64_t& hi, uint64_t& lo)
    {
        hi = lo = 0;
        int digits = 0;
        for (const char c : id) {
            if (c == '-')
                continue;
            const int v = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f'         ? c - 'a' + 10
                : c >= 'A' && c <= 'F'         ? c - 'A' + 10
                                               : -1;
            if (v < 0 || digits >= 32) {
                digits = -1;
                break;
            }
            (digits < 16 ? hi : lo) = ((digits < 16 ? hi : lo) << 4) | uint64_t(v);
            ++digits;
        }
        if (digits == 32)
            return;
        uint64_t h = 1469598103934665603ULL; // FNV-1a, twice with different seeds
        uint64_t g = 1099511628211ULL;
        for (const char c : id) {
            h = (h ^ uint8_t(c)) * 1099511628211ULL;
            g = (g ^ uint8_t(c)) * 1469598103934665603ULL;
        }
        hi = h;
        lo = g;
    }
};

} // namespace lifeline

namespace lifeline::observe {

using Access = ObservedRunAccess;
using endpoint::SqsAction;

Observer::Observer(int64_t epochMs)
    : m_engine(std::make_unique<Engine>(EngineOptions { .epochMs = epochMs }))
    , m_epochMs(epochMs)
{
}

Observer::~Observer() = default;

void Observer::advanceTo(TimeMs time)
{
    while (!m_due.empty() && m_due.top().at <= time) {
        const Due due = m_due.top();
        m_due.pop();
        Access::setNow(*m_engine, due.at);
        fire(due);
    }
    Access::setNow(*m_engine, time);
}

void Observer::schedule(TimeMs at, MessageIndex lane, Kind kind)
{
    m_due.push(Due { at, m_seq++, lane, kind });
}

void Observer::fire(const Due& due)
{
    const MessageRecord& record = m_engine->message(due.lane);
    switch (due.kind) {
    case DelayEnd:
        if (record.state == MessageState::Delayed && m_engine->times(due.lane).dueAt == due.at)
            Access::setState(*m_engine, due.lane, MessageState::Visible, Cause::DelayEnded, kSqsActor, 0);
        break;
    case VisibilityEnd:
        if (record.state == MessageState::InFlight && m_engine->times(due.lane).dueAt == due.at)
            Access::setState(*m_engine, due.lane, MessageState::Visible, Cause::VisibilityTimeout, kSqsActor, 0);
        break;
    case RetentionEnd:
        if (isLive(record.state))
            Access::setState(*m_engine, due.lane, MessageState::Expired, Cause::Expiry, kSqsActor, 0);
        break;
    }
}

QueueIndex Observer::queueFor(const std::string& name)
{
    if (const auto index = m_engine->queueIndex(name))
        return *index;
    m_lanesOf.emplace_back();
    return Access::addQueue(*m_engine, name);
}

std::vector<std::string> Observer::queuesSeen() const
{
    std::vector<std::string> names;
    for (size_t q = 0; q < m_engine->queueCount(); ++q)
        if (m_engine->queueInfo(QueueIndex(q)).alive)
            names.push_back(m_engine->queueInfo(QueueIndex(q)).name);
    return names;
}

void Observer::noteAttributes(const std::string& queue, const AttributeMap& attributes)
{
    Access::applyAttributes(*m_engine, queueFor(queue), attributes);
    m_attributesKnown.insert(queue);
}

void Observer::pollStarted(const std::string& queue, uint32_t actor)
{
    m_engine->recordActorEvent(
        Cause::PollStarted, actor, kNoMessage, queue.empty() ? kNoQueue : queueFor(queue), ++m_polls);
}

void Observer::observe(const ObservedCall& call, uint32_t actor)
{
    if (call.queue.empty())
        return; // ListQueues and the like: nothing on a lane
    if (!call.ok && !m_engine->queueIndex(call.queue)) { // a queue that does not exist gets no row
        refused(kNoQueue, call, actor);
        return;
    }
    const QueueIndex queue = queueFor(call.queue);
    if (call.is(SqsAction::ReceiveMessage))
        m_engine->recordActorEvent(Cause::PollEnded, actor, kNoMessage, queue, uint32_t(call.received.size()));
    if (!call.ok) {
        refused(queue, call, actor);
        return;
    }
    if (call.is(SqsAction::CreateQueue)) {
        Access::setAlive(*m_engine, queue, true);
        Access::logQueueEvent(*m_engine, queue, Cause::QueueCreated, actor);
        Access::applyAttributes(*m_engine, queue, call.attributes);
    } else if (call.is(SqsAction::SetQueueAttributes) || call.is(SqsAction::GetQueueAttributes)) {
        Access::applyAttributes(*m_engine, queue, call.attributes);
        if (call.is(SqsAction::SetQueueAttributes))
            for (const auto& [name, value] : call.attributes)
                Access::logQueueEvent(
                    *m_engine, queue, Cause::AttributesChanged, actor, Access::addText(*m_engine, name + "=" + value));
        else
            m_attributesKnown.insert(call.queue);
    } else if (call.is(SqsAction::SendMessage) || call.is(SqsAction::SendMessageBatch)) {
        for (const ObservedSend& sent : call.sent)
            send(queue, sent, actor);
    } else if (call.is(SqsAction::ReceiveMessage)) {
        receive(queue, call, actor);
    } else if (!call.handles.empty()) {
        deleteOrChange(call, actor);
    } else if (call.is(SqsAction::PurgeQueue)) {
        endAll(queue, MessageState::Purged, Cause::Purge, actor);
    } else if (call.is(SqsAction::DeleteQueue)) {
        endAll(queue, MessageState::Deleted, Cause::QueueDeleted, actor);
        Access::setAlive(*m_engine, queue, false);
        Access::logQueueEvent(*m_engine, queue, Cause::QueueDeleted, actor);
        m_attributesKnown.erase(call.queue);
    }
}

void Observer::refused(QueueIndex queue, const ObservedCall& call, uint32_t actor)
{
    const std::string text = call.action + ": " + call.errorCode
        + (call.errorMessage.empty() ? std::string() : " (" + call.errorMessage + ")");
    m_engine->recordActorEvent(Cause::RequestRefused, actor, kNoMessage, queue, 0, &text);
}

void Observer::send(QueueIndex queue, const ObservedSend& sent, uint32_t actor)
{
    const QueueAttributes& attributes = *m_engine->queueAttributes(queue);
    const int64_t delaySeconds = std::clamp<int64_t>(sent.delaySeconds.value_or(attributes.delaySeconds), 0, 900);
    const MessageState to = delaySeconds > 0 ? MessageState::Delayed : MessageState::Visible;
    const MessageIndex lane = Access::newLane(*m_engine, queue, sent.messageId, to, Cause::Send, actor, 0);
    Access::setBody(*m_engine, lane, sent.body);
    if (!sent.groupId.empty()) {
        MessageExtra extra;
        extra.groupId = sent.groupId;
        Access::addExtra(*m_engine, lane, std::move(extra));
    }
    m_laneById[sent.messageId] = lane;
    m_lanesOf[queue].push_back(lane);
    if (delaySeconds > 0) {
        LaneTimes times = m_engine->times(lane);
        times.dueAt = m_engine->now() + delaySeconds * 1000;
        Access::setTimes(*m_engine, lane, times);
        schedule(times.dueAt, lane, DelayEnd);
    }
    schedule(m_engine->now() + attributes.messageRetentionPeriod * 1000, lane, RetentionEnd);
}

MessageIndex Observer::laneForReceipt(QueueIndex queue, const ObservedReceipt& receipt)
{
    const auto known = m_laneById.find(receipt.messageId);
    if (known != m_laneById.end() && m_engine->message(known->second).queue == queue)
        return known->second;
    // Not seen in this queue before: sent before the proxy started or by a client that does not go through it, or
    // moved here from a dead-letter source when a receive elsewhere went past its maxReceiveCount.
    MessageIndex lane = kNoMessage;
    if (known != m_laneById.end()) {
        const MessageIndex source = known->second;
        if (isLive(m_engine->message(source).state))
            Access::setState(*m_engine, source, MessageState::DeadLettered, Cause::MoveToDlq, kSqsActor, queue);
        lane = Access::newLane(
            *m_engine, queue, receipt.messageId, MessageState::Visible, Cause::ArriveFromDlqSource, kSqsActor, source);
        MessageExtra extra;
        extra.origin = source;
        const QueueInfo& from = m_engine->queueInfo(m_engine->message(source).queue);
        extra.deadLetterQueueSourceArn = from.arn.empty() ? from.name : from.arn; // its ARN once attributes say it
        Access::addExtra(*m_engine, lane, std::move(extra));
    } else {
        lane = Access::newLane(
            *m_engine, queue, receipt.messageId, MessageState::Visible, Cause::FirstSeen, kSqsActor, 0);
    }
    // The hatched time before the first sighting starts at the send when the answer says when that was, else at the
    // proxy's start: either way the proxy did not see it.
    LaneTimes times = m_engine->times(lane);
    times.sentAt
        = receipt.sentTimestampMs ? std::clamp<TimeMs>(*receipt.sentTimestampMs - m_epochMs, 0, times.sentAt) : 0;
    times.enqueuedAt = times.sentAt;
    Access::setTimes(*m_engine, lane, times);
    Access::setBody(*m_engine, lane, receipt.body);
    m_laneById[receipt.messageId] = lane;
    m_lanesOf[queue].push_back(lane);
    const QueueAttributes& attributes = *m_engine->queueAttributes(queue);
    schedule(times.enqueuedAt + attributes.messageRetentionPeriod * 1000, lane, RetentionEnd);
    return lane;
}

void Observer::receive(QueueIndex queue, const ObservedCall& call, uint32_t actor)
{
    const int64_t visibility = std::clamp<int64_t>(
        call.visibilitySeconds.value_or(m_engine->queueAttributes(queue)->visibilityTimeout), 0, 43200);
    for (const ObservedReceipt& receipt : call.received) {
        const MessageIndex lane = laneForReceipt(queue, receipt);
        MessageRecord& record = Access::record(*m_engine, lane);
        const uint32_t number = receipt.receiveCount.value_or(record.receiveCount + 1);
        record.receiveCount = number;
        LaneTimes times = m_engine->times(lane);
        times.receivedAt = m_engine->now();
        if (times.firstReceiveAt < 0)
            times.firstReceiveAt = m_engine->now();
        times.dueAt = m_engine->now() + visibility * 1000;
        Access::setTimes(*m_engine, lane, times);
        Access::setState(*m_engine, lane, MessageState::InFlight, Cause::Receive, actor, number);
        schedule(times.dueAt, lane, VisibilityEnd);
        m_receipts[receipt.receiptHandle] = Receipt { lane, number };
    }
}

void Observer::deleteOrChange(const ObservedCall& call, uint32_t actor)
{
    const bool deleting = call.is(SqsAction::DeleteMessage) || call.is(SqsAction::DeleteMessageBatch);
    for (const ObservedHandle& handle : call.handles) {
        const auto receipt = m_receipts.find(handle.receiptHandle);
        if (receipt == m_receipts.end()) {
            ++m_unknownHandles;
            continue;
        }
        const MessageIndex lane = receipt->second.lane;
        MessageRecord& record = Access::record(*m_engine, lane);
        if (deleting) {
            if (isLive(record.state))
                Access::setState(
                    *m_engine, lane, MessageState::Deleted, Cause::Delete, actor, receipt->second.receiveNumber);
            else
                Access::noEffect(*m_engine, lane, NoEffectKind::DeleteOfEndedMessage, actor);
            continue;
        }
        if (record.state != MessageState::InFlight) {
            Access::noEffect(*m_engine, lane, NoEffectKind::VisibilityChangeAfterTimeout, actor);
            continue;
        }
        const int64_t seconds = std::clamp<int64_t>(handle.visibilitySeconds, 0, 43200);
        LaneTimes times = m_engine->times(lane);
        times.dueAt = m_engine->now() + seconds * 1000;
        Access::setTimes(*m_engine, lane, times);
        Access::setState(*m_engine, lane, seconds == 0 ? MessageState::Visible : MessageState::InFlight,
            Cause::VisibilityChanged, actor, uint32_t(seconds));
        if (seconds > 0)
            schedule(times.dueAt, lane, VisibilityEnd);
    }
}

void Observer::endAll(QueueIndex queue, MessageState to, Cause cause, uint32_t actor)
{
    auto& lanes = m_lanesOf[queue];
    for (const MessageIndex lane : lanes)
        if (isLive(m_engine->message(lane).state))
            Access::setState(*m_engine, lane, to, cause, actor, 0);
    lanes.clear();
}

} // namespace lifeline::observe
