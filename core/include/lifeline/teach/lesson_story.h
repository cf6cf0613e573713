// A lesson's story before it plays: what its script makes happen, found by running it to its end once (runs are
// deterministic: the run the learner watches is this one until they act). The window frames the story with it.
#pragma once

#include "lifeline/analysis/moments.h"
#include "lifeline/picture/story_frame.h"
#include "lifeline/scenario/scenario.h"

#include <vector>

namespace lifeline::teach {

struct LessonStory {
    picture::TimeSpan script; // first send to last change of a lane's state
    std::vector<analysis::Moment> moments; // its key moments, in time order
    TimeMs firstMoment() const { return moments.empty() ? script.from : moments.front().at; }
};

LessonStory lessonStory(const scenario::Scenario& lesson);

} // namespace lifeline::teach
