#include "lifeline/run/lane_name.h"

namespace lifeline {

std::string firstWords(std::string_view body)
{
    std::string words;
    bool space = false;
    for (const char c : body) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n' || c == '\r')
            break;
        if (c == ' ' || c == '\t') {
            space = !words.empty();
            continue;
        }
        if (byte < 0x20 || byte == 0x7F)
            return {}; // not text a name can show
        if (space)
            words += ' ';
        space = false;
        words += c;
        if (words.size() > kLaneNameBytes)
            break;
    }
    if (words.size() <= kLaneNameBytes)
        return words;
    // Too long: cut at the last space that leaves a word, else at a character's start, and say it goes on.
    size_t cut = words.rfind(' ', kLaneNameBytes);
    if (cut == std::string::npos || cut < kLaneNameBytes / 2) {
        cut = kLaneNameBytes;
        while (cut > 0 && (static_cast<unsigned char>(words[cut]) & 0xC0) == 0x80)
            --cut; // not inside a UTF-8 sequence
    }
    words.resize(cut);
    return words + "…";
}

std::string laneName(const RunView& run, MessageIndex lane)
{
    // A DLQ's or a redrive's lane continues one before it: it keeps that message's name.
    MessageIndex named = lane;
    for (int hops = 0; hops < 64; ++hops) {
        const MessageExtra* extra = run.extra(named);
        if (extra && !extra->label.empty())
            return extra->label;
        if (!extra || extra->origin == kNoMessage || extra->origin >= named)
            break;
        named = extra->origin;
    }
    if (std::string words = firstWords(run.message(lane).body.view()); !words.empty())
        return words;
    return run.messageId(lane).substr(0, 8);
}

} // namespace lifeline
