// The picture's words, in one table: what every renderer (the window's timeline, its hover and legend, the images,
// the web page, the control API's JSON) calls a state, a lane's mark and a segment. The window translates the English
// here in one place (ui/timeline/picture_text.cpp); the page's data carries the table as it carries the palette.
#pragma once

#include "lifeline/run/event_log.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace lifeline::picture {

// Every text of the table passes through one of these before it is shown: the window's translates (QCoreApplication::
// translate, in ui/timeline/picture_text.cpp), english() leaves the English as it is.
using Translate = std::string (*)(const char* english);
std::string english(const char* text);

// A state as the picture names it: "in flight" (the event log's toString says "in-flight", the CSV's word).
const char* stateWords(MessageState state);
// The legend's name for what `lifeline import` inferred from a queue's settings (hatched segments).
inline const char* inferredWords()
{
    return "inferred from the settings";
}

// What a lane marks at an event: a heartbeat extending its visibility (◆), the consumer holding it crashed (✕), a
// second processing of it (2×), its move to the DLQ (➜), a receive by a crashed consumer (⊘). A new mark is a row
// here, its words in kMarkWords and its event in laneMarkAt; each renderer gives it a colour (the window's and the
// images' in ui/timeline/lane_painter.cpp's laneMarkColor, which the page's palette carries).
// In the legends' order.
enum class LaneMark : uint8_t {
    Duplicate,
    Extended,
    Crash,
    ReceivedByNobody,
    DeadLetter,
    Expired,
    Purged,
    Redriven,
    Copy,
    Count
};
inline constexpr std::array kLaneMarks { LaneMark::Duplicate, LaneMark::Extended, LaneMark::Crash,
    LaneMark::ReceivedByNobody, LaneMark::DeadLetter, LaneMark::Expired, LaneMark::Purged, LaneMark::Redriven,
    LaneMark::Copy };
static_assert(kLaneMarks.size() == size_t(LaneMark::Count));

struct MarkWords {
    const char* id; // in the serialised picture and the page's palette ("deadLetter")
    const char* glyph; // drawn on the lane ("➜")
    const char* name; // in the legend and the hover ("moved to the DLQ")
};
const MarkWords& markWords(LaneMark mark);

// The mark a lane shows at this event, if any.
std::optional<LaneMark> laneMarkAt(const Event& e);
// The cause whose events may carry the mark (what a run's index records having seen).
Cause markCause(LaneMark mark);

// What a consumer's row shows, as its legend and hover name it.
enum class ActorActivity : uint8_t { Polling, Working, Failed, Crashed, Count };
struct ActivityWords {
    const char* id; // in the serialised picture ("poll")
    const char* name; // "polling"
};
const ActivityWords& activityWords(ActorActivity activity);

// What a segment says, as a phrase and its numbers, not as text: each renderer turns it into its own words (the
// window through tr(), the page from the table in its data) and a test reads the numbers.
enum class Phrase : uint8_t {
    None, // a terminal state: no words
    Delayed, // "delayed": not from a send's delay (or a delay of 0)
    DelayChanged, // "DelaySeconds 10 s → 30 s": a FIFO queue's DelaySeconds changed while it waited
    Timer, // "timer 1 min": the message's own DelaySeconds
    DelaySeconds, // "DelaySeconds 10 s": the queue's
    Visible, // "visible"
    VisibleInferred, // "visible · inferred": `lifeline import` drew its visibility timeout's end from the settings
    InFlight, // "in flight": received before the history held (no receive number)
    InFlightNumbered, // "in flight #2"
    VisibilityReset, // "#1 · reset to 30 s": after ChangeMessageVisibility
    Visibility, // "#1 · visibility 10 s": the timeout that ran out, or the lane's latest deadline
    VisibleAgainIn, // "visible again in 23 s": the countdown at now on a lane in flight (laneCountdown)
    ReceivableIn, // "receivable in 12 s": on a delayed one
    Count
};

struct SegmentPhrase {
    Phrase phrase = Phrase::None;
    uint32_t receive = 0; // %n
    TimeMs first = 0; // %1, a duration
    TimeMs second = 0; // %2, a duration
    bool operator==(const SegmentPhrase&) const = default;
};

// A phrase's words as templates: %n the receive number, %1 and %2 durations ("10 s", "1 min 30 s"); the short form is
// drawn where the whole does not fit ("#2", "30 s") and may be empty.
struct PhraseTemplate {
    const char* id; // in the serialised picture ("visibility")
    const char* label;
    const char* shortLabel;
};
const PhraseTemplate& phraseTemplate(Phrase phrase);

// A duration as the picture says it ("10 s", "1 min 30 s").
std::string durationWords(TimeMs ms);
// A template filled with a phrase's numbers.
std::string fillPhrase(const char* text, const SegmentPhrase& phrase);

struct SegmentText {
    std::string label;
    std::string shortLabel;
};
// The phrase in words: its templates translated, then filled.
SegmentText segmentText(const SegmentPhrase& phrase, Translate tr = english);

} // namespace lifeline::picture
