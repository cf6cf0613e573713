#include "lifeline/observe/observer.h"

#include "lifeline/support/duration.h"

#include <algorithm>

namespace lifeline::observe {

namespace {
// A MessageId as the engine keeps it: a UUID's 128 bits. An id that is not a UUID (some emulators') is kept as a
// hash of its text, so one id still means one lane.
void uuidParts(const std::string& id, uint64_t& hi, uint64_t& lo)
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

MessageIdParts idOf(const std::string& messageId)
{
    MessageIdParts id;
    uuidParts(messageId, id.hi, id.lo);
    return id;
}
} // namespace

using endpoint::SqsAction;

Observer::Observer(int64_t epochMs, ObserverOptions options)
    : m_run(std::make_unique<RunStore>(1, options.historyMs))
    , m_epochMs(epochMs)
    , m_options(options)
{
}

Observer::~Observer() = default;

void Observer::advanceTo(TimeMs time)
{
    while (!m_due.empty() && m_due.top().at <= time) {
        const Due due = m_due.top();
        m_due.pop();
        m_run->setNow(due.at);
        fire(due);
    }
    m_run->setNow(time);
}

// Each attribute on its own: the upstream accepted them all, and one this run does not model (a KMS key it cannot
// check) must not keep the others out.
void Observer::applyAttributes(QueueIndex queue, const AttributeMap& given)
{
    QueueAttributes attributes = m_run->queueInfo(queue).attributes;
    for (const auto& [name, value] : given) {
        if (name == "QueueArn") {
            m_run->setQueueArn(queue, value);
            continue;
        }
        if (auto applied = lifeline::applyAttributes(attributes, { { name, value } }, { false, attributes.fifo }))
            attributes = std::move(applied).value();
    }
    m_run->setQueueAttributes(queue, std::move(attributes));
}

MessageIndex Observer::newLane(
    QueueIndex queue, const std::string& messageId, MessageState to, Cause cause, uint32_t actor, uint32_t detail)
{
    const MessageIndex lane = m_run->newLane(queue, to, cause, actor, detail);
    m_run->keepMessageId(lane, idOf(messageId));
    m_run->setTimes(lane, LaneTimes { .sentAt = m_run->now(), .enqueuedAt = m_run->now() });
    return lane;
}

void Observer::noEffect(MessageIndex lane, NoEffectKind kind, uint32_t actor)
{
    const MessageRecord& record = m_run->message(lane);
    m_run->note(lane, record.queue, record.state, Cause::NoEffect, actor, uint32_t(kind));
}

void Observer::schedule(TimeMs at, MessageIndex lane, Kind kind)
{
    m_due.push(Due { at, m_seq++, lane, kind });
}

void Observer::fire(const Due& due)
{
    const MessageRecord& record = m_run->message(due.lane);
    switch (due.kind) {
    case DelayEnd:
        if (record.state == MessageState::Delayed && m_run->times(due.lane).dueAt == due.at)
            m_run->transition(due.lane, MessageState::Visible, Cause::DelayEnded, kSqsActor, ruled());
        break;
    case VisibilityEnd:
        if (record.state == MessageState::InFlight && m_run->times(due.lane).dueAt == due.at) {
            m_run->transition(due.lane, MessageState::Visible, Cause::VisibilityTimeout, kSqsActor, ruled());
            if (m_options.inferring && m_openPolls[record.queue] > 0)
                moveDeadLetters(record.queue); // a long poll waiting on its queue finds it as it comes back
        }
        break;
    case RetentionEnd:
        if (isLive(record.state))
            m_run->transition(due.lane, MessageState::Expired, Cause::Expiry, kSqsActor, ruled());
        break;
    }
}

QueueIndex Observer::queueFor(const std::string& name)
{
    if (const auto index = m_run->queueIndex(name))
        return *index;
    m_lanesOf.emplace_back();
    QueueInfo queue;
    queue.name = name;
    queue.createdAt = queue.modifiedAt = m_run->now();
    queue.attributes.fifo = name.size() > 5 && name.ends_with(".fifo");
    return m_run->addQueue(std::move(queue));
}

std::vector<std::string> Observer::queuesSeen() const
{
    std::vector<std::string> names;
    for (size_t q = 0; q < m_run->queueCount(); ++q)
        if (m_run->queueInfo(QueueIndex(q)).alive)
            names.push_back(m_run->queueInfo(QueueIndex(q)).name);
    return names;
}

void Observer::noteAttributes(const std::string& queue, const AttributeMap& attributes)
{
    if (!m_run->queueIndex(queue) && wasDeleted(queue))
        return; // a poll answered after the queue was deleted
    applyAttributes(queueFor(queue), attributes);
    m_attributesKnown.insert(queue);
}

void Observer::pollStarted(const std::string& queue, uint32_t actor)
{
    if (!queue.empty() && !m_run->queueIndex(queue) && wasDeleted(queue))
        return;
    const QueueIndex index = queue.empty() ? kNoQueue : queueFor(queue);
    m_run->note(kNoMessage, index, MessageState::None, Cause::PollStarted, actor, ++m_polls);
    if (m_options.inferring && index != kNoQueue) {
        ++m_openPolls[index];
        moveDeadLetters(index); // a receive finds it at once
    }
}

uint64_t Observer::sendStarted(const std::string& queue, uint32_t actor, std::vector<ObservedSend> requested)
{
    const uint64_t token = ++m_sendTokens;
    if (!queue.empty() && !requested.empty())
        m_sendsInFlight.push_back({ token, queue, actor, std::move(requested) });
    return token;
}

void Observer::sendEnded(uint64_t token)
{
    std::erase_if(m_sendsInFlight, [token](const SendInFlight& send) { return send.token == token; });
}

std::optional<Observer::RequestedSend> Observer::takeSendInFlight(QueueIndex queue, const std::string& body)
{
    const std::string& name = m_run->queueInfo(queue).name;
    for (SendInFlight& send : m_sendsInFlight) {
        if (send.queue != name)
            continue;
        const auto same = std::ranges::find_if(send.messages, [&](const ObservedSend& m) { return m.body == body; });
        if (same != send.messages.end()) {
            RequestedSend taken { send.actor, std::move(*same) };
            send.messages.erase(same);
            return taken;
        }
    }
    return std::nullopt;
}

void Observer::observe(const ObservedCall& call, uint32_t actor)
{
    if (call.queue.empty())
        return; // ListQueues and the like: nothing on a lane
    if (!call.is(SqsAction::CreateQueue) && !m_run->queueIndex(call.queue) && wasDeleted(call.queue))
        return; // answered after its queue was deleted (a long poll): a deleted queue stays deleted
    if (!call.ok && !m_run->queueIndex(call.queue)) { // a queue that does not exist gets no row
        refused(kNoQueue, call, actor);
        return;
    }
    const QueueIndex queue = queueFor(call.queue);
    if (call.is(SqsAction::ReceiveMessage)) {
        m_run->note(kNoMessage, queue, MessageState::None, Cause::PollEnded, actor, uint32_t(call.received.size()));
        if (m_openPolls[queue] > 0)
            --m_openPolls[queue];
    }
    if (!call.ok) {
        refused(queue, call, actor);
        return;
    }
    if (call.is(SqsAction::CreateQueue)) {
        m_run->setQueueAlive(queue, true);
        m_run->note(kNoMessage, queue, MessageState::None, Cause::QueueCreated, actor);
        applyAttributes(queue, call.attributes);
    } else if (call.is(SqsAction::SetQueueAttributes) || call.is(SqsAction::GetQueueAttributes)) {
        applyAttributes(queue, call.attributes);
        if (call.is(SqsAction::SetQueueAttributes))
            for (const auto& [name, value] : call.attributes)
                m_run->note(kNoMessage, queue, MessageState::None, Cause::AttributesChanged, actor,
                    m_run->addText(name + "=" + value));
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
        m_run->setQueueAlive(queue, false);
        m_run->note(kNoMessage, queue, MessageState::None, Cause::QueueDeleted, actor);
        m_attributesKnown.erase(call.queue);
    }
}

void Observer::noteWork(
    const std::string& queue, const std::string& messageId, Cause cause, uint32_t actor, uint32_t detail)
{
    const auto known = m_laneById.find(messageId);
    if (known == m_laneById.end())
        return;
    MessageIndex lane = known->second;
    if (const auto moved = m_movedTo.find(lane);
        moved != m_movedTo.end() && m_run->queueInfo(m_run->message(moved->second).queue).name == queue)
        lane = moved->second; // worked on in the dead-letter queue it moved to
    const MessageRecord& record = m_run->message(lane);
    m_run->note(lane, record.queue, record.state, cause, actor, detail);
}

void Observer::refused(QueueIndex queue, const ObservedCall& call, uint32_t actor)
{
    // As the engine words a refusal, "Code: message", then the call: the summary counts refusals by their code.
    const std::string text = call.errorCode + ": "
        + (call.errorMessage.empty() ? std::string("(no message)") : call.errorMessage) + " (" + call.action + ")";
    m_run->note(kNoMessage, queue, MessageState::None, Cause::RequestRefused, actor, m_run->addText(text));
}

bool Observer::wasDeleted(const std::string& name) const
{
    for (size_t q = 0; q < m_run->queueCount(); ++q)
        if (m_run->queueInfo(QueueIndex(q)).name == name)
            return true; // none alive by that name (the caller asked), so this one was deleted
    return false;
}

void Observer::send(QueueIndex queue, const ObservedSend& sent, uint32_t actor)
{
    // One MessageId, one lane in its queue: a FIFO send SQS deduplicated answers the first message's id, and a
    // receive whose answer reached the proxy before the send's (long polling makes that race everyday) made the lane.
    if (const auto known = m_laneById.find(sent.messageId);
        known != m_laneById.end() && m_run->message(known->second).queue == queue) {
        const MessageIndex lane = known->second;
        if (lane < m_sendSeen.size() && m_sendSeen[lane])
            noEffect(lane, NoEffectKind::DeduplicatedSend, actor);
        else
            markSendSeen(lane);
        return;
    }
    const int64_t delaySeconds
        = std::clamp<int64_t>(sent.delaySeconds.value_or(m_run->queueAttributes(queue)->delaySeconds), 0, 900);
    const MessageIndex lane
        = sentLane(queue, sent, delaySeconds > 0 ? MessageState::Delayed : MessageState::Visible, actor);
    markSendSeen(lane);
    if (delaySeconds > 0) {
        LaneTimes times = m_run->times(lane);
        times.dueAt = m_run->now() + delaySeconds * 1000;
        m_run->setTimes(lane, times);
        schedule(times.dueAt, lane, DelayEnd);
    }
}

MessageIndex Observer::sentLane(QueueIndex queue, const ObservedSend& sent, MessageState to, uint32_t actor)
{
    const MessageIndex lane = newLane(queue, sent.messageId, to, Cause::Send, actor, 0);
    m_run->setBody(lane, sent.body);
    if (!sent.groupId.empty()) {
        MessageExtra extra;
        extra.groupId = sent.groupId;
        m_run->setExtra(lane, std::move(extra));
    }
    m_laneById[sent.messageId] = lane;
    m_lanesOf[queue].push_back(lane);
    schedule(m_run->now() + m_run->queueAttributes(queue)->messageRetentionPeriod * 1000, lane, RetentionEnd);
    return lane;
}

MessageIndex Observer::laneForReceipt(QueueIndex queue, const ObservedReceipt& receipt)
{
    const auto known = m_laneById.find(receipt.messageId);
    if (known != m_laneById.end() && m_run->message(known->second).queue == queue)
        return known->second;
    if (known != m_laneById.end())
        if (const auto moved = m_movedTo.find(known->second);
            moved != m_movedTo.end() && m_run->message(moved->second).queue == queue)
            return moved->second; // moved here at an earlier receive from its source
    // Not seen in this queue before: sent before the proxy started or by a client that does not go through it, or
    // moved here from a dead-letter source when a receive elsewhere went past its maxReceiveCount.
    MessageIndex lane = kNoMessage;
    if (known != m_laneById.end()) {
        const MessageIndex source = known->second;
        if (isLive(m_run->message(source).state))
            m_run->transition(source, MessageState::DeadLettered, Cause::MoveToDlq, kSqsActor, queue);
        lane = newLane(queue, receipt.messageId, MessageState::Visible, Cause::ArriveFromDlqSource, kSqsActor, source);
        MessageExtra extra;
        extra.origin = source;
        const QueueInfo& from = m_run->queueInfo(m_run->message(source).queue);
        extra.deadLetterQueueSourceArn = from.arn.empty() ? from.name : from.arn; // its ARN once attributes say it
        m_run->setExtra(lane, std::move(extra));
    } else if (auto sent = takeSendInFlight(queue, receipt.body)) {
        // Its send went through the proxy and is still waiting for its answer: sent by that client, drawn at this
        // instant (when the proxy learnt its MessageId), never hatched as unseen. The answer, when it comes, adds
        // nothing.
        sent->message.messageId = receipt.messageId;
        return sentLane(queue, sent->message, MessageState::Visible, sent->actor);
    } else {
        lane = newLane(queue, receipt.messageId, MessageState::Visible, Cause::FirstSeen, kSqsActor, 0);
    }
    // The hatched time before the first sighting starts at the send when the answer says when that was, else at the
    // proxy's start: either way the proxy did not see it.
    LaneTimes times = m_run->times(lane);
    times.sentAt
        = receipt.sentTimestampMs ? std::clamp<TimeMs>(*receipt.sentTimestampMs - m_epochMs, 0, times.sentAt) : 0;
    times.enqueuedAt = times.sentAt;
    m_run->setTimes(lane, times);
    m_run->setBody(lane, receipt.body);
    m_laneById[receipt.messageId] = lane;
    m_lanesOf[queue].push_back(lane);
    const QueueAttributes& attributes = *m_run->queueAttributes(queue);
    schedule(times.enqueuedAt + attributes.messageRetentionPeriod * 1000, lane, RetentionEnd);
    return lane;
}

void Observer::moveDeadLetters(QueueIndex queue)
{
    const auto& policy = m_run->queueAttributes(queue)->redrivePolicy;
    if (!policy)
        return;
    const std::string& arn = policy->deadLetterTargetArn;
    const QueueIndex dlq = queueFor(arn.substr(arn.rfind(':') + 1)); // the whole text when it has no ':'
    std::erase_if(m_lanesOf[queue], [&](MessageIndex lane) { return !isLive(m_run->message(lane).state); });
    for (const MessageIndex lane : std::vector<MessageIndex>(m_lanesOf[queue])) {
        const MessageRecord& record = m_run->message(lane);
        if (record.state != MessageState::Visible || int64_t(record.receiveCount) < policy->maxReceiveCount)
            continue;
        m_run->transition(lane, MessageState::DeadLettered, Cause::MoveToDlq, kSqsActor, ruled(dlq));
        const MessageIndex moved = m_run->newLane(dlq, MessageState::Visible, Cause::ArriveFromDlqSource, kSqsActor,
            lane | (m_options.inferring ? Event::kInferredArrival : 0));
        m_run->keepMessageId(moved, m_run->messageIdParts(lane));
        m_run->setTimes(moved, LaneTimes { .sentAt = m_run->times(lane).sentAt, .enqueuedAt = m_run->now() });
        MessageExtra extra;
        extra.origin = lane;
        const QueueInfo& from = m_run->queueInfo(queue);
        extra.deadLetterQueueSourceArn = from.arn.empty() ? from.name : from.arn;
        m_run->setExtra(moved, std::move(extra));
        m_movedTo[lane] = moved;
        m_lanesOf[dlq].push_back(moved);
        schedule(m_run->times(lane).sentAt + m_run->queueAttributes(dlq)->messageRetentionPeriod * 1000, moved,
            RetentionEnd);
    }
}

void Observer::contradiction(MessageIndex lane, std::string what, const ObservedCall& call)
{
    m_contradictions.push_back({ m_run->now(), lane, std::move(what), call.origin });
}

void Observer::checkReceivable(MessageIndex lane, const ObservedCall& call)
{
    const MessageRecord& record = m_run->message(lane);
    const LaneTimes& times = m_run->times(lane);
    const auto at = [](TimeMs t) { return lifeline::formatDuration(t); };
    switch (record.state) {
    case MessageState::InFlight:
        contradiction(lane,
            "received while in flight: receive #" + std::to_string(record.receiveCount)
                + "'s visibility timeout runs to " + at(times.dueAt)
                + " (a shorter VisibilityTimeout than the queue's, or a ChangeMessageVisibility "
                  "the trace does not show)",
            call);
        break;
    case MessageState::Delayed:
        contradiction(lane, "received while delayed: its delay runs to " + at(times.dueAt), call);
        break;
    case MessageState::DeadLettered:
        contradiction(lane,
            "received " + std::to_string(record.receiveCount + 1) + " times, past maxReceiveCount "
                + std::to_string(m_run->queueAttributes(record.queue)->redrivePolicy
                        ? m_run->queueAttributes(record.queue)->redrivePolicy->maxReceiveCount
                        : 0)
                + ", without moving to the dead-letter queue",
            call);
        break;
    case MessageState::Expired:
        contradiction(lane, "received after its retention period ended", call);
        break;
    default:
        break;
    }
}

void Observer::receive(QueueIndex queue, const ObservedCall& call, uint32_t actor)
{
    if (m_options.inferring)
        moveDeadLetters(queue);
    const int64_t visibility = std::clamp<int64_t>(
        call.visibilitySeconds.value_or(m_run->queueAttributes(queue)->visibilityTimeout), 0, 43200);
    for (const ObservedReceipt& receipt : call.received) {
        const MessageIndex lane = laneForReceipt(queue, receipt);
        // Its timeout was counted from the answer to the receive that took it; SQS took it at some point before, up
        // to that receive's uncertainty: the timeout may have ended by now, by SQS's clock.
        const auto uncertain = m_receivedUncertain.find(lane);
        if (m_run->message(lane).state == MessageState::InFlight && uncertain != m_receivedUncertain.end()
            && m_run->now() + uncertain->second >= m_run->times(lane).dueAt)
            m_run->transition(lane, MessageState::Visible, Cause::VisibilityTimeout, kSqsActor, ruled());
        m_receivedUncertain[lane] = call.uncertainMs;
        if (m_options.inferring)
            checkReceivable(lane, call);
        const uint32_t number = receipt.receiveCount.value_or(m_run->message(lane).receiveCount + 1);
        m_run->setReceiveCount(lane, number);
        LaneTimes times = m_run->times(lane);
        times.receivedAt = m_run->now();
        if (times.firstReceiveAt < 0)
            times.firstReceiveAt = m_run->now();
        times.dueAt = m_run->now() + visibility * 1000;
        m_run->setTimes(lane, times);
        m_run->transition(lane, MessageState::InFlight, Cause::Receive, actor, number);
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
        const MessageRecord& record = m_run->message(lane);
        if (deleting) {
            if (m_options.inferring && record.state == MessageState::Expired)
                contradiction(lane, "deleted after its retention period ended", call);
            if (isLive(record.state))
                m_run->transition(lane, MessageState::Deleted, Cause::Delete, actor, receipt->second.receiveNumber);
            else
                noEffect(lane, NoEffectKind::DeleteOfEndedMessage, actor);
            continue;
        }
        if (record.state != MessageState::InFlight) {
            noEffect(lane, NoEffectKind::VisibilityChangeAfterTimeout, actor);
            continue;
        }
        const int64_t seconds = std::clamp<int64_t>(handle.visibilitySeconds, 0, 43200);
        LaneTimes times = m_run->times(lane);
        times.dueAt = m_run->now() + seconds * 1000;
        m_run->setTimes(lane, times);
        m_run->transition(lane, seconds == 0 ? MessageState::Visible : MessageState::InFlight, Cause::VisibilityChanged,
            actor, uint32_t(seconds));
        if (seconds > 0)
            schedule(times.dueAt, lane, VisibilityEnd);
    }
}

void Observer::markSendSeen(MessageIndex lane)
{
    if (m_sendSeen.size() <= lane)
        m_sendSeen.resize(size_t(lane) + 1, false);
    m_sendSeen[lane] = true;
}

void Observer::forgetHistory()
{
    if (m_options.historyMs < 0 || m_run->now() < m_nextForget)
        return;
    m_nextForget = m_run->now() + 1000;
    m_run->forgetBefore(m_run->now() - m_options.historyMs);
    const auto forgotten = [&](MessageIndex lane) { return m_run->forgotten(lane); };
    std::erase_if(m_laneById, [&](const auto& entry) { return forgotten(entry.second); });
    std::erase_if(m_receipts, [&](const auto& entry) { return forgotten(entry.second.lane); });
    std::erase_if(m_receivedUncertain, [&](const auto& entry) { return forgotten(entry.first); });
    std::erase_if(m_movedTo, [&](const auto& entry) { return forgotten(entry.first) || forgotten(entry.second); });
    for (auto& lanes : m_lanesOf)
        std::erase_if(lanes, [&](MessageIndex lane) { return !isLive(m_run->message(lane).state); });
    // A retention timer outlives its message's delete by days: the ones for forgotten lanes go once the timers have
    // doubled since they were last sorted out.
    if (m_due.size() > 2 * m_dueKept + 4096) {
        std::vector<Due> kept;
        while (!m_due.empty()) {
            if (!forgotten(m_due.top().lane))
                kept.push_back(m_due.top());
            m_due.pop();
        }
        m_dueKept = kept.size();
        m_due = decltype(m_due)(std::greater<>(), std::move(kept));
    }
}

void Observer::endAll(QueueIndex queue, MessageState to, Cause cause, uint32_t actor)
{
    auto& lanes = m_lanesOf[queue];
    for (const MessageIndex lane : lanes)
        if (isLive(m_run->message(lane).state))
            m_run->transition(lane, to, cause, actor, 0);
    lanes.clear();
}

} // namespace lifeline::observe
