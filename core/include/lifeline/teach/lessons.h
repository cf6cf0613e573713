// The built-in lessons: one scenario each (resources/lessons/*.json, compiled in), in lesson order.
#pragma once

#include "lifeline/scenario/scenario.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lifeline::teach {

struct LessonEntry {
    std::string file; // 08-visibility-too-short.json
    scenario::Scenario scenario; // with scenario.lesson set
};

// Every built-in lesson, parsed, sorted by number. (A lesson that fails to parse is a build defect: tests check.)
const std::vector<LessonEntry>& builtinLessons();

// By id ("visibility-too-short") or number ("8").
const LessonEntry* findLesson(std::string_view idOrNumber);

// The raw files, for tests and for saving a lesson as a scenario file.
const std::vector<std::pair<std::string, std::string>>& lessonSources();

} // namespace lifeline::teach
