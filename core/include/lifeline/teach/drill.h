// An exam drill: exercises drawn across topics (a topic at a time, in turn, so twenty questions cover them all before
// any repeats a topic), answered in a row and scored by topic at the end.
#pragma once

#include "lifeline/teach/practice.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lifeline::teach {

// `count` exercises (at most as many as there are), none twice; the same seed draws the same drill.
std::vector<const Exercise*> drawDrill(size_t count, uint64_t seed);

struct DrillAnswer {
    const Exercise* exercise = nullptr;
    PracticeAnswer answer;
    bool passed = false;
};

struct TopicScore {
    int passed = 0;
    int asked = 0;
};
// By topic, in the order the topics were first asked.
std::vector<std::pair<std::string, TopicScore>> scoreByTopic(const std::vector<DrillAnswer>& answers);

} // namespace lifeline::teach
