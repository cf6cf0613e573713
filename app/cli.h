// The headless commands `lessons`, `run` and `demo` (app/commands.cpp lists every command): no QApplication, so
// they work with no display at all.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

// args[0] is the command's name; each returns the exit status (0 ok, 1 an output not written, 2 bad arguments or a
// bad scenario).
int runLessonsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runRunCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
// `lifeline import`: lanes from traced SQS calls (docs/import.md).
int runImportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runDemoCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
