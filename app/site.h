// `lifeline site OUTDIR`: the course as static pages anyone can open without installing Lifeline: an index of the
// curriculum's blocks and lessons, and a page per lesson that plays its run as written and with its fix on one time
// axis (ui/export/web_export.h), each page one self-contained file.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lifeline::app {

// args[0] is "site". Exit 0 written, 1 a page could not be written, 2 bad input.
// A lesson's words as a page shows them: {"idea", "watch", "trap", "fix"}.
nlohmann::json lessonWords(const sim::LessonText& lesson);

int runSite(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
