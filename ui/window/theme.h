// Light, dark and high-contrast themes for the whole application: the widgets' palette here; the timeline, overview,
// tiles and charts take the matching TimelineStyle / chart theme from the window.
#pragma once

#include "timeline/timeline_style.h"

namespace lifeline::ui {

void applyApplicationTheme(Theme theme);

} // namespace lifeline::ui
