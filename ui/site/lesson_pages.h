// A lesson on the web, for `lifeline site` and `lifeline run --lesson N --export F.html`: its page plays its run as
// written and with its fix on one time axis, the compare headline as the page's claim; the index shows a still of it.
#pragma once

#include "lifeline/scenario/scenario.h"
#include "lifeline/support/outcome.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace lifeline::ui {

// "lesson-07.html"
std::string lessonPageName(const scenario::LessonText& lesson);

// A lesson's words as a page shows them: {"idea", "watch", "trap", "fix"}.
nlohmann::json lessonWords(const scenario::LessonText& lesson);

// The index's pictures of a lesson's run as written: the app's timeline image, its key moments pinned, 480x270 in
// base64 PNG, light and dark.
struct LessonStills {
    std::string light, dark;
};

// Writes the lesson's page into `dir`, `nav` its links above the title ([[text, link], ...]); fills `stills`.
Outcome<> writeLessonPage(const scenario::Scenario& scenario, const std::filesystem::path& dir,
    const nlohmann::json& nav, LessonStills& stills);

} // namespace lifeline::ui
