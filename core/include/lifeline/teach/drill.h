// An exam drill: exercises drawn across topics (a topic at a time, in turn, so twenty questions cover them all before
// any repeats a topic), answered in a row and scored by topic at the end.
#pragma once

#include "lifeline/teach/practice.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lifeline::teach {

// One question of a drill: the exercise, and its choices in the order they are asked, shuffled so that a letter
// says nothing (always answering B scored 75 % when the files' order was shown). They are shown lettered by position
// (drillLetter); the answer names the choice's own id, as `lifeline practice --choose` does.
struct DrillQuestion {
    const Exercise* exercise = nullptr;
    std::vector<const PracticeChoice*> choices;
    bool operator==(const DrillQuestion&) const = default;
};

// `count` exercises (at most as many as there are), none twice; the same seed draws the same drill, choices in the
// same order.
std::vector<DrillQuestion> drawDrill(size_t count, uint64_t seed);
std::string drillLetter(size_t position); // "A" for the first choice asked

struct DrillAnswer {
    const Exercise* exercise = nullptr;
    PracticeAnswer answer;
    bool passed = false;
};

struct TopicScore {
    int passed = 0;
    int asked = 0;
    std::vector<std::string> review; // the lessons (ids) the exercises missed practise, in the order missed, each once
};
// By topic, in the order the topics were first asked.
std::vector<std::pair<std::string, TopicScore>> scoreByTopic(const std::vector<DrillAnswer>& answers);

} // namespace lifeline::teach
