#include "lifeline/teach/lesson_story.h"

#include "lifeline/sim/simulation.h"

namespace lifeline::teach {

LessonStory lessonStory(const scenario::Scenario& lesson)
{
    sim::Simulation run(lesson);
    run.runToEnd();
    LessonStory story;
    story.script = picture::storySpan(run.engine().run());
    if (lesson.lesson)
        story.moments = analysis::findMoments(run.engine().run(), lesson.lesson->moments);
    return story;
}

} // namespace lifeline::teach
