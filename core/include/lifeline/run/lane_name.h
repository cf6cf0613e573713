// What a lane is called on the timeline, in hovers and in the event log: the name a scenario gave its message ("the
// retry"), else a small JSON object's first two fields ("id 17, kind charge"), else its body's first words ("order
// 4", "poison order 17"), else the start of its MessageId. A learner
// finds "the retry" of a lesson's text by its name; the MessageId stays in the hover and the history.
#pragma once

#include "lifeline/run/run_view.h"

#include <string>

namespace lifeline {

inline constexpr size_t kLaneNameBytes = 24; // a body's first words, cut at a word to fit

std::string laneName(const RunView& run, MessageIndex lane);
// The body's first words: its first line, spaces collapsed, cut at a word (and marked "…") to kLaneNameBytes;
// empty when it has no printable words.
std::string firstWords(std::string_view body);
// A JSON object's first two fields that are text, numbers or true/false, as "key value" ("id 17, kind charge"), cut
// as firstWords cuts; empty for anything else (not JSON, no such field, over 4 KiB).
std::string jsonFields(std::string_view body);
// What a body names its lane: jsonFields, else firstWords; empty when neither says anything.
std::string bodyLaneName(std::string_view body);

} // namespace lifeline
