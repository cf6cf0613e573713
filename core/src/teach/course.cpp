#include "lifeline/teach/course.h"

#include <charconv>
#include <nlohmann/json.hpp>

namespace lifeline::teach {

const std::vector<CourseBlock>& courseBlocks()
{
    static const std::vector<CourseBlock> blocks = [] {
        std::vector<CourseBlock> out;
        const auto json = nlohmann::json::parse(courseSource(), nullptr, false);
        if (!json.is_object() || !json.contains("blocks") || !json["blocks"].is_array())
            return out; // a build defect the tests catch
        for (const auto& block : json["blocks"]) {
            if (!block.is_object())
                continue;
            CourseBlock parsed { block.value("id", ""), block.value("title", ""), block.value("idea", ""), {} };
            for (const auto& step : block.value("lessons", nlohmann::json::array()))
                if (const LessonEntry* lesson = step.is_object() ? findLesson(step.value("lesson", "")) : nullptr)
                    parsed.steps.push_back(CourseStep { lesson, step.value("recap", "") });
            out.push_back(std::move(parsed));
        }
        return out;
    }();
    return blocks;
}

std::optional<CoursePlace> placeInCourse(std::string_view lessonId)
{
    for (const auto& block : courseBlocks())
        for (size_t i = 0; i < block.steps.size(); ++i)
            if (block.steps[i].lesson->scenario.lesson->id == lessonId)
                return CoursePlace { &block, i + 1 };
    return std::nullopt;
}

std::vector<const LessonEntry*> lessonsInCourseOrder()
{
    std::vector<const LessonEntry*> out;
    for (const auto& block : courseBlocks())
        for (const auto& step : block.steps)
            out.push_back(step.lesson);
    return out;
}

const LessonEntry* findLessonOnPath(std::string_view text)
{
    const size_t dot = text.find('.');
    if (dot == std::string_view::npos)
        return findLesson(text);
    size_t block = 0;
    size_t position = 0;
    const char* end = text.data() + text.size();
    const auto [blockEnd, blockError] = std::from_chars(text.data(), text.data() + dot, block);
    const auto [positionEnd, positionError] = std::from_chars(text.data() + dot + 1, end, position);
    if (blockError != std::errc() || blockEnd != text.data() + dot || positionError != std::errc()
        || positionEnd != end)
        return nullptr;
    const auto& blocks = courseBlocks();
    if (block < 1 || block > blocks.size() || position < 1 || position > blocks[block - 1].steps.size())
        return nullptr;
    return blocks[block - 1].steps[position - 1].lesson;
}

std::string placeLabel(const CoursePlace& place)
{
    const auto& blocks = courseBlocks();
    const size_t block = size_t(place.block - blocks.data()) + 1;
    return std::to_string(block) + "." + std::to_string(place.position);
}

} // namespace lifeline::teach
