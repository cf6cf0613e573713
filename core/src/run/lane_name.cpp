#include "lifeline/run/lane_name.h"

#include "lifeline/support/json_depth.h"

#include <nlohmann/json.hpp>

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

std::string jsonFields(std::string_view body)
{
    // Small objects only: a name is worked out for every lane a picture draws, and a megabyte is not a name.
    constexpr size_t kLongestNamed = 4096;
    if (body.size() > kLongestNamed || body.empty() || body.front() != '{' || jsonNestsDeeperThan(body, 8))
        return {};
    const auto parsed = nlohmann::ordered_json::parse(body, nullptr, false); // the fields in the order written
    if (parsed.is_discarded() || !parsed.is_object())
        return {};
    std::string fields;
    int taken = 0;
    for (const auto& [key, value] : parsed.items()) {
        std::string shown;
        if (value.is_string())
            shown = value.get<std::string>();
        else if (value.is_number() || value.is_boolean())
            shown = value.dump();
        else
            continue; // a list or a map says little in a lane's name
        fields += (fields.empty() ? "" : ", ") + key + " " + shown;
        if (++taken == 2)
            break;
    }
    return fields.empty() ? std::string() : firstWords(fields);
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
    if (std::string name = bodyLaneName(run.message(lane).body.view()); !name.empty())
        return name;
    // Its body freed when it ended (a headless server's run): the name it gave while it was there.
    if (const MessageExtra* extra = run.extra(lane); extra && !extra->bodyName.empty())
        return extra->bodyName;
    return run.messageId(lane).substr(0, 8);
}

std::string bodyLaneName(std::string_view body)
{
    if (std::string fields = jsonFields(body); !fields.empty())
        return fields;
    return firstWords(body);
}

} // namespace lifeline
