// CBOR's head of an item (RFC 8949, 3): the major type and a length or count, in the shortest form, as nlohmann
// writes it. The run file's writers put the heads of its big arrays and byte strings themselves, to write their
// items one at a time.
#pragma once

#include <cstdint>
#include <ostream>

namespace lifeline {

inline void cborHead(std::ostream& out, uint8_t major, uint64_t n)
{
    const auto type = uint8_t(major << 5);
    if (n <= 0x17) {
        out.put(char(type | n));
        return;
    }
    const int bytes = n <= 0xff ? 1 : n <= 0xffff ? 2 : n <= 0xffffffff ? 4 : 8;
    out.put(char(type | (bytes == 1 ? 0x18 : bytes == 2 ? 0x19 : bytes == 4 ? 0x1a : 0x1b)));
    for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8)
        out.put(char((n >> shift) & 0xff));
}

} // namespace lifeline
