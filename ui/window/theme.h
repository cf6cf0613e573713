// Light and dark themes for the whole application: the widgets' palette here; the timeline, overview, tiles and
// charts take the matching TimelineStyle / chart theme from the window.
#pragma once

namespace lifeline::ui {

void applyApplicationTheme(bool dark);

} // namespace lifeline::ui
