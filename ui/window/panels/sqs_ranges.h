// SQS's ranges as core knows them (lifeline/queue_attributes.h), for the controls that set them: the window offers
// exactly what SQS accepts, and a new limit is changed in one place.
#pragma once

#include "lifeline/run/queue_attributes.h"

#include <string>
#include <utility>

namespace lifeline::ui {

// The range of a whole-number queue attribute (DelaySeconds, VisibilityTimeout, ...); any other name is a
// programming error (std::bad_optional_access).
inline std::pair<int, int> sqsRange(const std::string& attribute)
{
    const auto range = attributeRange(attribute).value();
    return { int(range.first), int(range.second) };
}

inline std::pair<int, int> maxReceiveCountRange()
{
    return { int(kMaxReceiveCountRange.first), int(kMaxReceiveCountRange.second) };
}

} // namespace lifeline::ui
