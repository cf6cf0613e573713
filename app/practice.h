// `lifeline practice`: lists the exercises, or runs one with the learner's answer and prints whether it passed.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

// args[0] is "practice". Exit 0 passed (or the list), 1 not passed, 2 bad input.
int runPractice(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
