#include "window/controllers/course_progress.h"

#include "lifeline/teach/practice.h"

#include <QCoreApplication>
#include <QSettings>
#include <algorithm>

namespace lifeline::ui::progress {

namespace {
QString seenKey(const std::string& id)
{
    return QStringLiteral("course/seen/%1").arg(QString::fromStdString(id));
}

QString passedKey(const std::string& id)
{
    return QStringLiteral("practice/passed/%1").arg(QString::fromStdString(id));
}
} // namespace

bool lessonSeen(const std::string& lessonId)
{
    return QSettings().value(seenKey(lessonId), false).toBool();
}

void markLessonSeen(const std::string& lessonId)
{
    QSettings().setValue(seenKey(lessonId), true);
}

bool exercisePassed(const std::string& exerciseId)
{
    return QSettings().value(passedKey(exerciseId), false).toBool();
}

void markExercisePassed(const std::string& exerciseId)
{
    QSettings().setValue(passedKey(exerciseId), true);
}

BlockProgress ofBlock(const teach::CourseBlock& block)
{
    BlockProgress out;
    for (const auto& step : block.steps) {
        const std::string& id = step.lesson->scenario.lesson->id;
        ++out.lessons;
        out.lessonsSeen += lessonSeen(id) ? 1 : 0;
        for (const teach::Exercise& exercise : teach::practiceExercises())
            if (exercise.practises == id) {
                ++out.exercises;
                out.exercisesPassed += exercisePassed(exercise.id) ? 1 : 0;
            }
    }
    return out;
}

QString blockSummary(const teach::CourseBlock& block)
{
    const BlockProgress p = ofBlock(block);
    const auto tr = [](const char* text) { return QCoreApplication::translate("CourseProgress", text); };
    QString text = tr("%1 of %2 seen").arg(p.lessonsSeen).arg(p.lessons);
    if (p.exercises > 0)
        text += tr(" · %1 of %2 exercises passed").arg(p.exercisesPassed).arg(p.exercises);
    return text;
}

} // namespace lifeline::ui::progress
