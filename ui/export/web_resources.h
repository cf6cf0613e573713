// The web pages' templates and styles (resources/web/), compiled in by ui/CMakeLists.txt, and the one way their slots
// are filled: the player (player.html), the site's own pages (site-page.html) and the palette they share
// (palette.css). HTML and CSS live in those files, not in C++ strings.
#pragma once

#include "lifeline/support/outcome.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifeline::ui {

// A file of resources/web/ by name ("player.html"); empty for a name there is none of.
std::string_view webResource(std::string_view name);

// The template with every occurrence of each slot replaced by its text, in one pass from left to right: a text that
// holds a slot's name is never read again, and a slot the template lacks is an error naming it.
Outcome<std::string> fillSlots(
    std::string_view page, const std::vector<std::pair<std::string, std::string>>& slotTexts);

} // namespace lifeline::ui
