// Untrusted JSON is bounded before it is parsed: copying, printing, patching and reading a JSON value recurse on
// its nesting, so text nested deeper than its use needs must never reach them. A linear scan, no recursion.
#pragma once

#include <string_view>

namespace lifeline {

// True when lists and objects in `text` nest deeper than `limit` (brackets inside strings do not count).
bool jsonNestsDeeperThan(std::string_view text, int limit);

} // namespace lifeline
