#include "export/web_resources.h"

namespace lifeline::ui {

Outcome<std::string> fillSlots(std::string_view page, const std::vector<std::pair<std::string, std::string>>& slotTexts)
{
    for (const auto& [slot, text] : slotTexts)
        if (page.find(slot) == std::string_view::npos)
            return Failure { "the page template has no slot " + slot };
    std::string out;
    out.reserve(page.size());
    size_t copied = 0;
    for (size_t at = 0; at < page.size();) {
        const std::pair<std::string, std::string>* found = nullptr;
        for (const auto& slot : slotTexts)
            if (page.compare(at, slot.first.size(), slot.first) == 0) {
                found = &slot;
                break;
            }
        if (!found) {
            ++at;
            continue;
        }
        out.append(page.substr(copied, at - copied));
        out += found->second;
        at += found->first.size();
        copied = at;
    }
    out.append(page.substr(copied));
    return out;
}

} // namespace lifeline::ui
