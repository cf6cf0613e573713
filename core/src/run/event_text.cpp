#include "lifeline/run/event_text.h"

#include "lifeline/run/fault_kind.h"
#include "lifeline/run/lane_name.h"
#include "lifeline/support/duration.h"

namespace lifeline {

namespace {
std::string queueName(const RunView& run, QueueIndex queue)
{
    return queue < run.queueCount() ? run.queueInfo(queue).name : std::string("?");
}

std::string text(const RunView& run, const Event& e)
{
    return e.textIndex() < run.log().textCount() ? run.log().text(e.textIndex()) : std::string();
}

std::string failureText(FailureKind kind)
{
    switch (kind) {
    case FailureKind::Poison:
        return "poison message";
    case FailureKind::TimedOut:
        return "timed out";
    case FailureKind::Throttled:
        return "throttled: not invoked before its visibility timeout ended";
    case FailureKind::InProgressElsewhere:
        return "already in progress elsewhere: left, not processed again";
    case FailureKind::Threw:
        break;
    }
    return "threw an error";
}

std::string plural(uint32_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}
} // namespace

std::string noEffectText(NoEffectKind kind)
{
    switch (kind) {
    case NoEffectKind::DeleteOfEndedMessage:
        return "DeleteMessage OK, nothing changed: the message had already ended";
    case NoEffectKind::DeleteWithStaleHandle:
        return "DeleteMessage OK, nothing changed: the handle is from an earlier receive";
    case NoEffectKind::VisibilityChangeAfterTimeout:
        return "ChangeMessageVisibility OK, nothing changed: the handle's visibility timeout had already ended";
    case NoEffectKind::VisibilityChangeWithStaleHandle:
        return "ChangeMessageVisibility OK, nothing changed: the handle is from an earlier receive";
    case NoEffectKind::DeduplicatedSend:
        return "SendMessage OK, not stored: a duplicate of this message (same deduplication ID within 5 minutes)";
    }
    return "OK, nothing changed";
}

std::string eventDetail(const RunView& run, const Event& e)
{
    switch (e.cause) {
    case Cause::RequestRefused:
    case Cause::AttributesChanged:
    case Cause::Warning:
    case Cause::OperatorAction:
    case Cause::ScriptedCall:
    case Cause::TenantNoisy:
    case Cause::TenantQuiet:
    case Cause::AlarmFired:
    case Cause::AlarmOk:
        return text(run, e);
    case Cause::Receive:
        return "receive #" + std::to_string(e.receiveNumber());
    case Cause::Delete:
        return "handle of receive #" + std::to_string(e.receiveNumber());
    case Cause::PollStarted:
        return "waiting (poll " + std::to_string(e.pollNumber()) + ")";
    case Cause::PollEnded:
        return e.messagesReturned() == 0 ? std::string("empty receive")
                                         : plural(e.messagesReturned(), "message", "messages");
    case Cause::VisibilityChanged:
        return "VisibilityTimeout=" + std::to_string(e.visibilitySeconds());
    case Cause::DelayChanged:
        return "DelaySeconds " + std::to_string(e.oldDelaySeconds()) + " -> " + std::to_string(e.newDelaySeconds());
    case Cause::MoveToDlq:
        return "to " + queueName(run, e.deadLetterQueue()) + (e.inferred() ? ", inferred" : "");
    case Cause::VisibilityTimeout:
    case Cause::DelayEnded:
    case Cause::Expiry:
        return e.inferred() ? "inferred" : "";
    case Cause::ArriveFromDlqSource:
        return e.linkedLane() < run.messageCount()
            ? "from " + queueName(run, run.message(e.linkedLane()).queue) + (e.inferred() ? ", inferred" : "")
            : std::string();
    case Cause::Redrive:
        return e.linkedLane() < run.messageCount() ? "to " + queueName(run, run.message(e.linkedLane()).queue)
                                                   : std::string();
    case Cause::ArriveFromRedrive:
        return e.linkedLane() < run.messageCount() ? "from " + queueName(run, run.message(e.linkedLane()).queue)
                                                   : std::string();
    case Cause::ProcessingStarted:
        return e.duplicate() ? "duplicate processing" : "";
    case Cause::ProcessingFinished:
        return e.repeatSkipped() ? "a repeat, skipped" : "";
    case Cause::ProcessingFailed:
        return failureText(e.failure());
    case Cause::ConsumerCrashed:
        return "held " + plural(e.heldMessages(), "message", "messages");
    case Cause::NoEffect:
        return noEffectText(e.noEffect());
    case Cause::ReceivedByNobody:
        return "nobody will process it; back after the timeout";
    case Cause::InjectedCopy:
        return "a copy of " + (e.linkedLane() < run.messageCount() ? laneName(run, e.linkedLane()) : std::string("?"))
            + " (injected)";
    case Cause::FaultInjected:
        return e.detail < uint32_t(FaultKind::Count) ? faultWords(FaultKind(e.detail)).name + std::string(" (injected)")
                                                     : std::string("(injected)");
    default:
        return {};
    }
}

std::string eventSentence(const RunView& run, const Event& e, const std::string& actor)
{
    const std::string by = actor.empty() || actor == "SQS" ? std::string() : " by " + actor;
    switch (e.cause) {
    case Cause::Send:
        if (e.to != MessageState::Delayed || e.sentDelaySeconds() == 0)
            return "sent" + by;
        return "sent" + by + ", delayed " + lifeline::formatDuration(TimeMs(e.sentDelaySeconds()) * 1000) + " by "
            + (e.sentWithTimer() ? "its message timer" : "the queue's DelaySeconds");
    case Cause::Receive:
        return "receive #" + std::to_string(e.receiveNumber()) + by;
    case Cause::VisibilityTimeout:
        return e.inferred() ? "visibility timeout ended: visible again (inferred from the queue's settings)"
                            : "visibility timeout ended: visible again";
    case Cause::VisibilityChanged:
        return e.visibilitySeconds() == 0
            ? "visibility set to 0" + by + ": visible at once"
            : "visibility set to " + std::to_string(e.visibilitySeconds()) + " s from now" + by;
    case Cause::Delete:
        return "deleted" + by;
    case Cause::MoveToDlq:
        if (e.inferred())
            return "moved to the DLQ " + queueName(run, e.deadLetterQueue())
                + " on a receive (inferred from maxReceiveCount)";
        return "moved to the DLQ " + queueName(run, e.deadLetterQueue()) + " on a receive" + by;
    case Cause::ArriveFromDlqSource:
        return e.inferred() ? "arrived in this DLQ (same MessageId; inferred from maxReceiveCount)"
                            : "arrived in this DLQ (same MessageId)";
    case Cause::Expiry:
        return e.inferred() ? "expired: retention period passed (inferred from the queue's settings)"
                            : "expired: retention period passed";
    case Cause::Purge:
        return "purged" + by;
    case Cause::QueueDeleted:
        return "its queue was deleted" + by;
    case Cause::Redrive:
        return "redriven to its source as a new message";
    case Cause::ArriveFromRedrive:
        return "arrived by redrive (a new message)";
    case Cause::DelayEnded:
        return e.inferred() ? "delay ended: visible (inferred from the queue's settings)" : "delay ended: visible";
    case Cause::DelayChanged:
        return "queue delay changed from " + std::to_string(e.oldDelaySeconds()) + " s to "
            + std::to_string(e.newDelaySeconds()) + " s" + by + " (FIFO: applies to waiting messages)";
    case Cause::ProcessingStarted:
        return e.duplicate() ? "processing started" + by + ": DUPLICATE processing" : "processing started" + by;
    case Cause::ProcessingFinished:
        return e.repeatSkipped() ? "a repeat" + by + ": already processed, skipped and deleted (idempotent)"
                                 : "processing finished" + by;
    case Cause::ProcessingFailed:
        if (e.failure() == FailureKind::Throttled)
            return "never processed" + by + ": throttled, no free concurrency slot before its visibility timeout ended";
        return "processing failed" + by + " (" + failureText(e.failure()) + ")";
    case Cause::ConsumerCrashed:
        return actor + " crashed while holding it";
    case Cause::RequestRefused:
        return "refused: " + text(run, e);
    case Cause::NoEffect:
        return noEffectText(e.noEffect()) + by;
    case Cause::FirstSeen:
        return "first seen by the proxy (sent before it started, or by a client that does not go through it): not "
               "observed before";
    case Cause::TenantNoisy:
        return "tenant " + text(run, e)
            + " noisy: 30 or more of its messages in flight, over a tenth of the queue's; quiet tenants are served "
              "first";
    case Cause::TenantQuiet:
        return "tenant " + text(run, e) + " quiet again: its backlog drained or it sent nothing for 5 minutes";
    case Cause::ReceivedByNobody:
        return "received by " + actor + ", which is gone: nobody will process it; back after the timeout";
    case Cause::InjectedCopy:
        return "a second copy of the message, visible (injected: at-least-once delivery, a standard queue may deliver "
               "a message more than once)";
    case Cause::FaultInjected:
        return "injected: " + eventDetail(run, e);
    default: {
        const std::string detail = eventDetail(run, e);
        return std::string(toString(e.cause)) + by + (detail.empty() ? "" : ": " + detail);
    }
    }
}

} // namespace lifeline
