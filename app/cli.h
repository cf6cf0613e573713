// The headless commands (`lessons`, `run`, `demo`): no QApplication, so they work with no display at all.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

// Runs a headless command; returns the exit status (0 ok, 2 bad arguments or a bad scenario).
int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
bool isHeadlessCommand(const std::string& first);

} // namespace lifeline::app
