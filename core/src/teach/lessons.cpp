#include "lifeline/teach/lessons.h"

namespace lifeline::teach {

const std::vector<LessonEntry>& builtinLessons()
{
    static const std::vector<LessonEntry> lessons = [] {
        std::vector<LessonEntry> out;
        for (const auto& [file, json] : lessonSources()) {
            auto parsed = scenario::parseScenario(json);
            if (auto* scenario = std::get_if<scenario::Scenario>(&parsed); scenario && scenario->lesson)
                out.push_back(LessonEntry { file, std::move(*scenario) });
        }
        return out; // in file order: the files are named NN-id.json, NN being the lesson's number
    }();
    return lessons;
}

const LessonEntry* findLesson(std::string_view idOrNumber)
{
    for (const auto& lesson : builtinLessons()) {
        if (lesson.scenario.lesson->id == idOrNumber || std::to_string(lesson.scenario.lesson->number) == idOrNumber)
            return &lesson;
    }
    return nullptr;
}

} // namespace lifeline::teach
