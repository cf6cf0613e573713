// What a learner has done on the course's path, kept in the settings: a lesson is seen once every key moment of its
// run has been reached (as written or with its fix), an exercise passed once its check passed. The lesson list, the
// Lessons menu and the practice dialog read it; each block shows its share.
#pragma once

#include "lifeline/teach/course.h"

#include <QString>
#include <string>

namespace lifeline::ui::progress {

bool lessonSeen(const std::string& lessonId);
void markLessonSeen(const std::string& lessonId);
bool exercisePassed(const std::string& exerciseId);
void markExercisePassed(const std::string& exerciseId);

struct BlockProgress {
    int lessonsSeen = 0;
    int lessons = 0;
    int exercisesPassed = 0;
    int exercises = 0; // the exercises on the block's lessons
};
BlockProgress ofBlock(const teach::CourseBlock& block);
// "2 of 6 seen · 1 of 4 exercises passed" (no exercise part when the block has none).
QString blockSummary(const teach::CourseBlock& block);

} // namespace lifeline::ui::progress
