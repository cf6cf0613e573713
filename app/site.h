// `lifeline site OUTDIR`: the command; the site itself is written by ui/site/course_site.h.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lifeline::app {

// args[0] is "site". Exit 0 written, 1 a page could not be written, 2 bad input.
int runSite(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace lifeline::app
