#include "lifeline/picture/picture_words.h"

#include "lifeline/support/duration.h"

namespace lifeline::picture {

namespace {
constexpr std::array<MarkWords, size_t(LaneMark::Count)> kMarkWords { {
    { "duplicate", "2×", "duplicate" },
    { "extended", "◆", "visibility changed" },
    { "crash", "✕", "crash" },
    { "receivedByNobody", "⊘", "received by nobody" },
    { "deadLetter", "➜", "moved to the DLQ" },
    // Every end but the common one is told by more than its cap's colour: a lane that ends with no mark was deleted.
    { "expired", "◷", "retention ran out" },
    { "purged", "∅", "purged" },
    { "redriven", "↩", "redriven from the DLQ" },
    // An injected duplicate: the lane of a message's second copy starts with it (docs/faults.md).
    { "copy", "❐", "second copy (injected)" },
} };

constexpr std::array<ActivityWords, size_t(ActorActivity::Count)> kActivityWords { {
    { "poll", "polling" },
    { "work", "working" },
    { "failed", "failed" },
    { "crash", "crashed" },
} };

constexpr std::array<PhraseTemplate, size_t(Phrase::Count)> kPhrases { {
    { "none", "", "" },
    { "delayed", "delayed", "" },
    { "delayChanged", "DelaySeconds %1 → %2", "" },
    { "timer", "timer %1", "%1" },
    { "delaySeconds", "DelaySeconds %1", "%1" },
    { "visible", "visible", "" },
    { "visibleInferred", "visible · inferred", "inferred" },
    { "inFlight", "in flight", "" },
    { "inFlightNumbered", "in flight #%n", "#%n" },
    { "visibilityReset", "#%n · reset to %1", "#%n" },
    { "visibility", "#%n · visibility %1", "#%n" },
    { "visibleAgainIn", "visible again in %1", "%1" },
    { "receivableIn", "receivable in %1", "%1" },
} };
} // namespace

const char* stateWords(MessageState state)
{
    switch (state) {
    case MessageState::InFlight:
        return "in flight";
    case MessageState::None:
        return "";
    default:
        return toString(state);
    }
}

const MarkWords& markWords(LaneMark mark)
{
    return kMarkWords.at(size_t(mark));
}

std::optional<LaneMark> laneMarkAt(const Event& e)
{
    if (e.cause == Cause::VisibilityChanged && e.to == MessageState::InFlight)
        return LaneMark::Extended;
    if (e.cause == Cause::ConsumerCrashed)
        return LaneMark::Crash;
    if (e.cause == Cause::ProcessingStarted && e.duplicate())
        return LaneMark::Duplicate;
    if (e.cause == Cause::MoveToDlq)
        return LaneMark::DeadLetter;
    if (e.cause == Cause::ReceivedByNobody) // received by a crashed consumer: back after the timeout
        return LaneMark::ReceivedByNobody;
    if (e.cause == Cause::Expiry)
        return LaneMark::Expired;
    if (e.cause == Cause::Purge)
        return LaneMark::Purged;
    if (e.cause == Cause::Redrive)
        return LaneMark::Redriven;
    if (e.cause == Cause::InjectedCopy)
        return LaneMark::Copy;
    return std::nullopt;
}

const ActivityWords& activityWords(ActorActivity activity)
{
    return kActivityWords.at(size_t(activity));
}

Cause markCause(LaneMark mark)
{
    switch (mark) {
    case LaneMark::Duplicate:
        return Cause::ProcessingStarted;
    case LaneMark::Extended:
        return Cause::VisibilityChanged;
    case LaneMark::Crash:
        return Cause::ConsumerCrashed;
    case LaneMark::ReceivedByNobody:
        return Cause::ReceivedByNobody;
    case LaneMark::Expired:
        return Cause::Expiry;
    case LaneMark::Purged:
        return Cause::Purge;
    case LaneMark::Redriven:
        return Cause::Redrive;
    case LaneMark::Copy:
        return Cause::InjectedCopy;
    case LaneMark::DeadLetter:
    case LaneMark::Count:
        break;
    }
    return Cause::MoveToDlq;
}

const PhraseTemplate& phraseTemplate(Phrase phrase)
{
    return kPhrases.at(size_t(phrase));
}

std::string durationWords(TimeMs ms)
{
    return lifeline::describeDuration(ms);
}

std::string fillPhrase(const char* text, const SegmentPhrase& phrase)
{
    std::string out;
    for (const char* c = text; *c != '\0'; ++c) {
        if (*c != '%' || c[1] == '\0') {
            out += *c;
            continue;
        }
        switch (*++c) {
        case 'n':
            out += std::to_string(phrase.receive);
            break;
        case '1':
            out += durationWords(phrase.first);
            break;
        case '2':
            out += durationWords(phrase.second);
            break;
        default:
            out += '%';
            out += *c;
        }
    }
    return out;
}

std::string english(const char* text)
{
    return text;
}

SegmentText segmentText(const SegmentPhrase& phrase, Translate tr)
{
    const PhraseTemplate& words = phraseTemplate(phrase.phrase);
    return { fillPhrase(tr(words.label).c_str(), phrase), fillPhrase(tr(words.shortLabel).c_str(), phrase) };
}

} // namespace lifeline::picture
