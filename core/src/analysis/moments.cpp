// Finding a lesson's moments in a run's event log. The patterns that need more than one event (a timeout while
// someone still works, a timeout after a crash) follow each live lane's receiver and workers.
#include "lifeline/analysis/moments.h"

#include "lifeline/run/event_text.h"
#include "lifeline/run/fault_kind.h"
#include "lifeline/support/duration.h"

#include <algorithm>
#include <array>

namespace lifeline::analysis {

namespace {

constexpr std::array<const char*, size_t(MomentKind::Count)> kKindNames {
    "send",
    "delay-ends",
    "delay-changed",
    "receive",
    "visible-again",
    "visible-while-working",
    "back-after-crash",
    "duplicate-processing",
    "crash",
    "failed",
    "extended",
    "empty-receive",
    "refused",
    "dead-lettered",
    "expired",
    "purged",
    "redriven",
    "deleted",
    "no-effect",
    "repeat-skipped",
    "tenant-noisy",
    "alarm",
    "copy",
    "fault",
};

// The kind a single event is, when it is one by itself (the two-event kinds are decided in MomentFinder::read).
std::optional<MomentKind> singleEventKind(const Event& e)
{
    switch (e.cause) {
    case Cause::Send:
        return MomentKind::Send;
    case Cause::DelayEnded:
        return MomentKind::DelayEnds;
    case Cause::DelayChanged:
        return MomentKind::DelayChanged;
    case Cause::Receive:
        return MomentKind::Receive;
    case Cause::ProcessingStarted:
        return e.duplicate() ? std::optional(MomentKind::DuplicateProcessing) : std::nullopt;
    case Cause::ConsumerCrashed:
        return MomentKind::Crash;
    case Cause::ProcessingFailed:
        return MomentKind::Failed;
    case Cause::VisibilityChanged:
        return e.to == MessageState::InFlight ? std::optional(MomentKind::Extended) : std::nullopt;
    case Cause::PollEnded:
        return e.messagesReturned() == 0 ? std::optional(MomentKind::EmptyReceive) : std::nullopt;
    case Cause::RequestRefused:
        return MomentKind::Refused;
    case Cause::MoveToDlq:
        return MomentKind::DeadLettered;
    case Cause::Expiry:
        return MomentKind::Expired;
    case Cause::Purge:
        return MomentKind::Purged;
    case Cause::Redrive:
        return MomentKind::Redriven;
    case Cause::Delete:
        return MomentKind::Deleted;
    case Cause::NoEffect:
        return MomentKind::NoEffect;
    case Cause::ProcessingFinished:
        return e.repeatSkipped() ? std::optional(MomentKind::RepeatSkipped) : std::nullopt;
    case Cause::TenantNoisy:
        return MomentKind::TenantNoisy;
    case Cause::AlarmFired:
        return MomentKind::AlarmFired;
    case Cause::InjectedCopy:
        return MomentKind::Copy;
    case Cause::FaultInjected:
        return MomentKind::Fault;
    default:
        return std::nullopt;
    }
}

// "1st", "2nd", "3rd", "4th", "11th", "21st"
std::string ordinal(uint32_t n)
{
    const uint32_t lastTwo = n % 100, last = n % 10;
    const char* suffix = (lastTwo >= 11 && lastTwo <= 13) ? "th"
        : last == 1                                       ? "st"
        : last == 2                                       ? "nd"
        : last == 3                                       ? "rd"
                                                          : "th";
    return std::to_string(n) + suffix;
}

// What SQS's refusal says after its code and the "Reason: " that many texts carry ("Code: Value 1800 for parameter
// DelaySeconds is invalid. Reason: DelaySeconds must be >= 0 and <= 900." gives the last sentence).
std::string refusalReason(std::string_view text)
{
    if (const size_t reason = text.find("Reason: "); reason != std::string_view::npos)
        return std::string(text.substr(reason + 8));
    if (const size_t colon = text.find(": "); colon != std::string_view::npos)
        return std::string(text.substr(colon + 2));
    return std::string(text);
}

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

} // namespace

const char* toString(MomentKind kind)
{
    return size_t(kind) < kKindNames.size() ? kKindNames[size_t(kind)] : "?";
}

std::optional<MomentKind> momentKindNamed(const std::string& name)
{
    for (size_t i = 0; i < kKindNames.size(); ++i)
        if (name == kKindNames[i])
            return MomentKind(i);
    return std::nullopt;
}

std::vector<std::string> momentKindNames()
{
    return { kKindNames.begin(), kKindNames.end() };
}

MomentFinder::MomentFinder(std::vector<MomentSpec> specs)
    : m_specs(std::move(specs))
    , m_found(m_specs.size(), 0)
    , m_done(m_specs.empty())
{
}

void MomentFinder::advance(const RunView& engine)
{
    const EventLog& log = engine.log();
    // A bounded history may have released what was not read yet: those events are gone for moments too.
    m_next = std::max(m_next, log.firstRetained());
    for (; m_next < log.size() && !m_done; ++m_next)
        read(engine, log[m_next]);
    if (m_done)
        m_next = log.size();
}

void MomentFinder::read(const RunView& engine, const Event& e)
{
    LaneWork* lane = nullptr;
    if (e.message != kNoMessage)
        lane = &m_lanes[e.message];
    switch (e.cause) {
    case Cause::Receive:
        lane->receiver = e.actor;
        lane->receives = e.receiveNumber();
        lane->receivedAt = e.time;
        lane->receivedByNobody = false;
        break;
    case Cause::ReceivedByNobody:
        lane->receivedByNobody = true;
        break;
    case Cause::ProcessingStarted:
        lane->working.push_back(e.actor);
        break;
    case Cause::ProcessingFinished:
    case Cause::ProcessingFailed:
        std::erase(lane->working, e.actor);
        break;
    case Cause::ConsumerCrashed:
        m_crashedAt[e.actor] = e.time;
        if (lane)
            std::erase(lane->working, e.actor);
        break;
    case Cause::ConsumerRestarted:
        m_crashedAt.erase(e.actor);
        break;
    case Cause::VisibilityTimeout: {
        found(engine, MomentKind::VisibleAgain, e, lane->receiver);
        if (!lane->working.empty())
            found(engine, MomentKind::VisibleWhileWorking, e, lane->working.front());
        const auto crashed = m_crashedAt.find(lane->receiver);
        if (lane->receivedByNobody || (crashed != m_crashedAt.end() && crashed->second >= lane->receivedAt))
            found(engine, MomentKind::BackAfterCrash, e, lane->receiver);
        break;
    }
    default:
        break;
    }
    if (const auto kind = singleEventKind(e))
        found(engine, *kind, e, e.actor);
    // A lane that ended needs no more following.
    if (lane && isLive(e.from) && !isLive(e.to))
        m_lanes.erase(e.message);
}

bool MomentFinder::matches(const RunView& engine, const MomentSpec& spec, const Event& e) const
{
    if (spec.queue) {
        const QueueIndex queue = e.message != kNoMessage ? engine.message(e.message).queue : e.queue;
        if (queue == kNoQueue || engine.queueInfo(queue).name != *spec.queue)
            return false;
    }
    if (spec.body || spec.minAge || spec.maxAge) {
        if (e.message == kNoMessage)
            return false;
        const MessageRecord& record = engine.message(e.message);
        if (spec.body && record.body.view().find(*spec.body) == std::string::npos)
            return false;
        const TimeMs sentAt = engine.times(e.message).sentAt;
        if ((spec.minAge && e.time - sentAt < *spec.minAge) || (spec.maxAge && e.time - sentAt > *spec.maxAge))
            return false;
    }
    if (spec.to && e.to != *spec.to)
        return false;
    if (spec.deadLetterQueue) {
        const QueueIndex queue = e.message != kNoMessage ? engine.message(e.message).queue : e.queue;
        if (queue == kNoQueue || engine.queueInfo(queue).attributes.redrivePolicy.has_value() != *spec.deadLetterQueue)
            return false;
    }
    if (spec.receive && !(e.cause == Cause::Receive && e.receiveNumber() == *spec.receive))
        return false;
    if (spec.failure && !(e.cause == Cause::ProcessingFailed && e.failure() == *spec.failure))
        return false;
    return true;
}

std::string MomentFinder::caption(
    const RunView& engine, std::string text, const Event& e, QueueIndex queue, const std::string& consumer) const
{
    if (text.find('{') == std::string::npos)
        return text;
    const auto lane = m_lanes.find(e.message);
    const LaneWork* work = lane != m_lanes.end() ? &lane->second : nullptr;
    const uint32_t receives = e.cause == Cause::Receive ? e.receiveNumber() : work ? work->receives : 0;
    const std::string queueName = queue == kNoQueue ? std::string("the queue") : engine.queueInfo(queue).name;
    replaceAll(text, "{consumer}", consumer);
    replaceAll(text, "{queue}", queueName);
    replaceAll(text, "{receive}", std::to_string(receives));
    replaceAll(text, "{ordinal}", ordinal(receives));
    replaceAll(text, "{time}", describeDuration(e.time));
    if (work)
        replaceAll(text, "{sinceReceive}", describeDuration(e.time - work->receivedAt));
    if (e.message != kNoMessage) {
        const TimeMs sentAt = engine.times(e.message).sentAt;
        replaceAll(text, "{age}", describeDuration(e.time - sentAt));
        replaceAll(text, "{sentAt}", describeDuration(sentAt));
        replaceAll(text, "{body}", std::string(engine.message(e.message).body.view()));
    }
    if (e.cause == Cause::MoveToDlq)
        replaceAll(text, "{dlq}", engine.queueInfo(e.deadLetterQueue()).name);
    if (e.cause == Cause::RequestRefused)
        replaceAll(text, "{reason}", refusalReason(engine.log().text(e.textIndex())));
    if (e.cause == Cause::TenantNoisy)
        replaceAll(text, "{tenant}", engine.log().text(e.textIndex()));
    if (e.cause == Cause::FaultInjected && e.detail < uint32_t(FaultKind::Count)) // "short poll sampled"
        replaceAll(text, "{fault}", faultWords(FaultKind(e.detail)).name);
    if (e.cause == Cause::AlarmFired) // "dlq-not-empty: ALARM, ApproximateNumberOfMessagesVisible 2 > 0 for 1 min"
        replaceAll(text, "{alarm}", engine.log().text(e.textIndex()));
    // The queue's settings in force now: in a live run the moment is found within a frame of its event.
    if (const QueueAttributes* attributes = engine.queueAttributes(queue)) {
        replaceAll(text, "{retention}", describeDuration(attributes->messageRetentionPeriod * 1000));
        if (attributes->redrivePolicy)
            replaceAll(text, "{maxReceiveCount}", std::to_string(attributes->redrivePolicy->maxReceiveCount));
    }
    return text;
}

void MomentFinder::found(const RunView& engine, MomentKind kind, const Event& e, uint32_t about)
{
    bool done = true;
    for (size_t i = 0; i < m_specs.size(); ++i) {
        const MomentSpec& spec = m_specs[i];
        if (spec.kind == kind && m_found[i] < spec.limit && matches(engine, spec, e)) {
            ++m_found[i];
            Moment moment;
            moment.at = e.time;
            moment.lane = e.message;
            moment.queue = e.message != kNoMessage ? engine.message(e.message).queue : e.queue;
            moment.actor = about;
            moment.onActorRow = kind == MomentKind::Crash || kind == MomentKind::EmptyReceive;
            moment.spec = i;
            moment.caption = caption(engine, spec.caption, e, moment.queue, engine.actorName(about));
            m_moments.push_back(std::move(moment));
        }
        done = done && m_found[i] >= spec.limit;
    }
    m_done = done;
}

std::vector<Moment> findMoments(const RunView& engine, const std::vector<MomentSpec>& specs)
{
    MomentFinder finder(specs);
    finder.advance(engine);
    return finder.moments();
}

} // namespace lifeline::analysis
