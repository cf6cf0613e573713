// `lifeline screenshot`: the whole window as a user would see it at a virtual instant, written as a PNG, rendered
// offscreen (no display needed, nothing shown on one).
#pragma once

#include "lifeline/support/outcome.h"
#include "window/window_shot.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

struct ScreenshotCommand {
    ui::WindowShotRequest request;
    std::string out; // the PNG to write
};

// args[0] is "screenshot". A bad option, lesson or scenario file: the message names it.
Outcome<ScreenshotCommand> parseScreenshot(const std::vector<std::string>& args);
extern const char* const kScreenshotHelp;
// Exit 0 written, 1 the file could not be written, 2 bad input.
int runScreenshot(int argc, char** argv, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
