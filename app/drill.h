// `lifeline practice --drill N`: N exercises drawn across topics, asked in a row on the terminal, each checked by its
// run as it is answered, then the score by topic and the missed ones with the command that replays them.
#pragma once

#include <cstdint>
#include <iosfwd>

namespace lifeline::app {

// Reads the answers from `in` (a line each; an answer that does not read is asked again; the end of input ends the
// drill early). Exit 0 when every answer passed, 1 when any did not.
int runDrill(size_t count, uint64_t seed, std::istream& in, std::ostream& out);

} // namespace lifeline::app
