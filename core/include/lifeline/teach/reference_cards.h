// Quick reference cards: SQS limits that no run can show (sizes, batch sizes, quotas, encryption), each with the
// figure and where it comes from. Shown by `lifeline lessons --cards` and under the lesson in the window.
#pragma once

#include <string>
#include <vector>

namespace lifeline::teach {

struct ReferenceCard {
    std::string title; // "Message size"
    std::string text; // the rule with its numbers, one paragraph
};

const std::vector<ReferenceCard>& referenceCards();

} // namespace lifeline::teach
