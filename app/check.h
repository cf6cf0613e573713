// `lifeline check`: reviews a queue's attributes (as the AWS CLI prints them) against its consumers, prints the
// findings, and writes a scenario per finding that shows it.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

// args[0] is "check". Exit 0 no high-severity finding, 1 some, 2 bad input.
int runCheck(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
