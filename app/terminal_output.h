// Output meant for a terminal shows a control character as "\x1b" instead of sending it: a queue's name, a body or
// an error text read from a file or a request could otherwise move the cursor, retitle the window or rewrite what
// was printed before (an escape sequence in a crafted run file's error message). Line breaks and tabs pass.
#pragma once

#include <streambuf>

namespace lifeline::app {

class TerminalSafeBuffer : public std::streambuf {
public:
    explicit TerminalSafeBuffer(std::streambuf* terminal);

protected:
    int_type overflow(int_type c) override;
    int sync() override;

private:
    bool write(const char* text);

    std::streambuf* m_terminal;
    bool m_afterC2 = false; // UTF-8's lead byte of U+0080..U+00BF held back: U+0080..U+009F are controls too
};

// Standard output and standard error each go through a TerminalSafeBuffer when it is a terminal; to a file or a
// pipe they stay as they are (a CSV written there keeps its bytes).
void makeTerminalOutputSafe();

} // namespace lifeline::app
