#include "lifeline/run/event_log.h"

#include <algorithm>

namespace lifeline {

const char* toString(MessageState state)
{
    switch (state) {
    case MessageState::None:
        return "none";
    case MessageState::Delayed:
        return "delayed";
    case MessageState::Visible:
        return "visible";
    case MessageState::InFlight:
        return "in-flight";
    case MessageState::Deleted:
        return "deleted";
    case MessageState::DeadLettered:
        return "dead-lettered";
    case MessageState::Expired:
        return "expired";
    case MessageState::Purged:
        return "purged";
    case MessageState::Redriven:
        return "redriven";
    case MessageState::Count:
        break;
    }
    return "?";
}

const char* toString(Cause cause)
{
    switch (cause) {
    case Cause::Send:
        return "send";
    case Cause::DelayEnded:
        return "delay-ended";
    case Cause::Receive:
        return "receive";
    case Cause::VisibilityTimeout:
        return "visibility-timeout";
    case Cause::VisibilityChanged:
        return "visibility-changed";
    case Cause::Delete:
        return "delete";
    case Cause::MoveToDlq:
        return "move-to-dlq";
    case Cause::ArriveFromDlqSource:
        return "arrive-from-dlq-source";
    case Cause::Expiry:
        return "expiry";
    case Cause::Purge:
        return "purge";
    case Cause::Redrive:
        return "redrive";
    case Cause::ArriveFromRedrive:
        return "arrive-from-redrive";
    case Cause::DelayChanged:
        return "delay-changed";
    case Cause::RequestRefused:
        return "request-refused";
    case Cause::QueueCreated:
        return "queue-created";
    case Cause::QueueDeleted:
        return "queue-deleted";
    case Cause::AttributesChanged:
        return "attributes-changed";
    case Cause::PollStarted:
        return "poll-started";
    case Cause::PollEnded:
        return "poll-ended";
    case Cause::ProcessingStarted:
        return "processing-started";
    case Cause::ProcessingFinished:
        return "processing-finished";
    case Cause::ProcessingFailed:
        return "processing-failed";
    case Cause::ConsumerCrashed:
        return "consumer-crashed";
    case Cause::ConsumerRestarted:
        return "consumer-restarted";
    case Cause::Warning:
        return "warning";
    case Cause::OperatorAction:
        return "operator-action";
    case Cause::NoEffect:
        return "no-effect";
    case Cause::ReceivedByNobody:
        return "received-by-nobody";
    case Cause::ScriptedCall:
        return "scripted-call";
    case Cause::FirstSeen:
        return "first-seen";
    case Cause::TenantNoisy:
        return "tenant-noisy";
    case Cause::TenantQuiet:
        return "tenant-quiet";
    case Cause::AlarmFired:
        return "alarm-fired";
    case Cause::AlarmOk:
        return "alarm-ok";
    case Cause::InjectedCopy:
        return "injected-copy";
    case Cause::FaultInjected:
        return "fault-injected";
    case Cause::Count:
        break;
    }
    return "?";
}

size_t EventLog::eventBytes() const
{
    return m_packed.capacity() * sizeof(Packed) + m_groups.capacity() * sizeof(Group)
        + m_wide.capacity() * sizeof(Event);
}

uint32_t EventLog::kindOf(const Event& event)
{
    const uint32_t cause = uint32_t(event.cause), from = uint32_t(event.from), to = uint32_t(event.to);
    if (cause >= kCauseCapacity || ((from | to) >> 4) != 0)
        return kWide;
    const uint32_t triple = cause << 8 | from << 4 | to;
    uint8_t& number = m_kindNumber[triple];
    if (number == 0) {
        if (m_kindCount == kWide)
            return kWide;
        m_kinds[m_kindCount] = uint16_t(triple);
        number = uint8_t(++m_kindCount);
    }
    return number - 1u;
}

void EventLog::appendGeneral(const Event& event)
{
    const size_t index = m_packed.size();
    if ((index & ((size_t(1) << kGroupBits) - 1)) == 0)
        m_group = &m_groups.push_back(Group { event.time, 0, 0, false, false });
    Group& group = *m_group;
    const uint64_t time = uint64_t(event.time) - uint64_t(group.time); // an earlier time wraps: wide
    uint32_t message = kNoMessageOffset;
    if (event.message != kNoMessage) {
        if (!group.messageBased) {
            group.messageBased = true;
            group.messageBase = event.message;
        }
        message = uint32_t(event.message - group.messageBase + 0x8000); // -32,768 .. 32,766 from the base
        if (message >= kNoMessageOffset)
            message = UINT32_MAX;
    }
    uint32_t detail = event.detail;
    if (detail >= kBased) {
        if (!group.detailBased) {
            group.detailBased = true;
            group.detailBase = detail;
        }
        detail = detail - group.detailBase < kBased ? kBased | (detail - group.detailBase) : UINT32_MAX;
    }
    const uint32_t queue = event.queue == kNoQueue ? 0 : uint32_t(event.queue) + 1;
    const uint32_t kind = kindOf(event);
    const bool wide = (time >> 14 != 0) | (message == UINT32_MAX) | (detail == UINT32_MAX) | (event.actor >> 11 != 0)
        | (queue >> 5 != 0) | (kind == kWide);
    if (wide) {
        m_wide.push_back(event);
        m_packed.push_back(Packed(m_wide.size() - 1) << kQueueShift | kWide);
        return;
    }
    m_packed.push_back(time << kTimeShift | Packed(message) << kMessageShift | Packed(detail) << kDetailShift
        | Packed(event.actor) << kActorShift | Packed(queue) << kQueueShift | kind);
}

size_t EventLog::bytesUsed() const
{
    size_t bytes = eventBytes() + m_texts.capacity() * sizeof(std::string);
    for (size_t i = m_firstTextRetained; i < m_texts.size(); ++i)
        if (!m_texts.released(i) && m_texts[i].capacity() > 15)
            bytes += m_texts[i].capacity() + 1;
    return bytes;
}

void EventLog::releaseBefore(TimeMs cutoff)
{
    constexpr size_t kChunk = decltype(m_packed)::kChunkSize;
    for (size_t chunk = m_firstRetained / kChunk;
         (chunk + 1) * kChunk <= m_packed.size() && (*this)[(chunk + 1) * kChunk - 1].time < cutoff; ++chunk) {
        for (size_t i = chunk * kChunk; i < (chunk + 1) * kChunk; ++i)
            if (const Event e = (*this)[i]; e.hasText())
                m_textsNamedBefore = std::max(m_textsNamedBefore, size_t(e.textIndex()) + 1);
        m_packed.releaseChunk(chunk);
        m_groups.releaseChunk(chunk);
        m_firstRetained = (chunk + 1) * kChunk;
    }
    constexpr size_t kTextChunk = decltype(m_texts)::kChunkSize;
    for (size_t chunk = m_firstTextRetained / kTextChunk; (chunk + 1) * kTextChunk <= m_textsNamedBefore; ++chunk) {
        m_texts.releaseChunk(chunk);
        m_firstTextRetained = (chunk + 1) * kTextChunk;
    }
}

} // namespace lifeline
