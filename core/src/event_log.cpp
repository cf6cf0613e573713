#include "lifeline/event_log.h"

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
    case Cause::Count:
        break;
    }
    return "?";
}

size_t EventLog::bytesUsed() const
{
    size_t bytes = m_events.capacity() * sizeof(Event);
    for (const auto& t : m_texts)
        bytes += sizeof(std::string) + (t.capacity() > 15 ? t.capacity() + 1 : 0);
    return bytes;
}

} // namespace lifeline
