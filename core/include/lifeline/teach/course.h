// The course: the built-in lessons in blocks a learner climbs (one message, waiting, failures, FIFO, Lambda, at
// scale), each lesson with a recap line that ties it to the one before (resources/course.json, compiled in). A
// lesson keeps its number and id wherever it sits on the path: `--lesson 10` opens the poison pill as it always did.
#pragma once

#include "lifeline/teach/lessons.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lifeline::teach {

struct CourseStep {
    const LessonEntry* lesson = nullptr;
    std::string recap; // "Before: ... Now: ..."
};

struct CourseBlock {
    std::string id; // "failures"
    std::string title; // "Failures"
    std::string idea; // one line: what the block is about
    std::vector<CourseStep> steps; // in path order
};

// The blocks in path order. (A course file that names an unknown lesson, leaves one out or names one twice is a
// build defect: tests check.)
const std::vector<CourseBlock>& courseBlocks();

// Where a lesson sits on the path: its block, and its position in it from 1.
struct CoursePlace {
    const CourseBlock* block = nullptr;
    size_t position = 0;
    const CourseStep& step() const { return block->steps[position - 1]; }
};
std::optional<CoursePlace> placeInCourse(std::string_view lessonId);

// Every lesson in path order.
std::vector<const LessonEntry*> lessonsInCourseOrder();

// A lesson by its place on the path as the Lessons menu and `lifeline lessons` show it ("1.5": block 1, its fifth
// lesson), or as findLesson takes it (its id, or its number, which it keeps wherever it sits: "10" is the poison pill).
const LessonEntry* findLessonOnPath(std::string_view placeIdOrNumber);
std::string placeLabel(const CoursePlace& place); // "1.5"

const char* courseSource(); // the raw file, compiled in

} // namespace lifeline::teach
