#include "terminal_output.h"

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace lifeline::app {

TerminalSafeBuffer::TerminalSafeBuffer(std::streambuf* terminal)
    : m_terminal(terminal)
{
}

bool TerminalSafeBuffer::write(const char* text)
{
    for (; *text; ++text)
        if (m_terminal->sputc(*text) == traits_type::eof())
            return false;
    return true;
}

TerminalSafeBuffer::int_type TerminalSafeBuffer::overflow(int_type c)
{
    if (traits_type::eq_int_type(c, traits_type::eof()))
        return traits_type::not_eof(c);
    const auto byte = static_cast<unsigned char>(traits_type::to_char_type(c));
    char escaped[8];
    if (m_afterC2) {
        m_afterC2 = false;
        if (byte >= 0x80 && byte <= 0x9F) { // a C1 control: 0x9B is a CSI as good as ESC [
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(byte));
            return write(escaped) ? c : traits_type::eof();
        }
        if (m_terminal->sputc(char(0xC2)) == traits_type::eof())
            return traits_type::eof();
    }
    if (byte == 0xC2) {
        m_afterC2 = true;
        return c;
    }
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7F) {
        std::snprintf(escaped, sizeof escaped, "\\x%02x", unsigned(byte));
        return write(escaped) ? c : traits_type::eof();
    }
    return m_terminal->sputc(char(byte));
}

int TerminalSafeBuffer::sync()
{
    if (m_afterC2) {
        m_afterC2 = false;
        m_terminal->sputc(char(0xC2));
    }
    return m_terminal->pubsync();
}

void makeTerminalOutputSafe()
{
    // Made once, for the life of the program: the streams point at them until it exits.
    if (isatty(STDOUT_FILENO)) {
        static TerminalSafeBuffer out(std::cout.rdbuf());
        std::cout.rdbuf(&out);
    }
    if (isatty(STDERR_FILENO)) {
        static TerminalSafeBuffer err(std::cerr.rdbuf());
        std::cerr.rdbuf(&err);
    }
}

} // namespace lifeline::app
