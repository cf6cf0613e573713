// A lane's body in 16 bytes: up to 15 bytes inline, longer ones on the heap, the same text back either way.
#include "lifeline/support/compact_text.h"

#include <catch2/catch.hpp>
#include <string>
#include <utility>

using namespace lifeline;

TEST_CASE("compact text: inline up to 15 bytes, on the heap from 16, the same text back", "[body]")
{
    const CompactText empty;
    CHECK(empty.empty());
    CHECK(empty.view().empty());
    const CompactText fifteen(std::string_view("message-3600000"));
    CHECK(fifteen.size() == 15);
    CHECK(fifteen == "message-3600000");
    CHECK(fifteen.heapBytes() == 0);
    const CompactText sixteen(std::string_view("message-36000000"));
    CHECK(sixteen == "message-36000000");
    CHECK(sixteen.heapBytes() == 16);
    // Zero bytes and every byte value are text like any other.
    const std::string binary("a\0b\xff\x80z", 6);
    CHECK(CompactText(binary).view() == binary);
    const std::string long256k(size_t(256) * 1024, 'x');
    const CompactText big(long256k);
    CHECK(big.size() == size_t(256) * 1024);
    CHECK(big.str() == long256k);
}

TEST_CASE("compact text: copies, moves and assignments keep the text and free what they replace", "[body]")
{
    CompactText a(std::string_view("a body longer than fifteen bytes"));
    CompactText b = a; // copy from the heap
    CHECK(b == a);
    CHECK(b.data() != a.data());
    CompactText c = std::move(a); // the block moves, the source is left empty
    CHECK(c == "a body longer than fifteen bytes");
    CHECK(a.empty()); // NOLINT(bugprone-use-after-move): what a moved-from body holds is part of the contract
    c = std::string_view("short"); // heap to inline
    CHECK(c == "short");
    CHECK(c.heapBytes() == 0);
    c = b; // inline to heap
    CHECK(c == b);
    c = c.view().substr(2); // from its own text
    CHECK(c == "body longer than fifteen bytes");
    b = std::move(c);
    CHECK(b == "body longer than fifteen bytes");
    CompactText& self = b;
    b = self; // a self-assignment keeps the text
    CHECK(b == "body longer than fifteen bytes");
    b.clear();
    CHECK(b.empty());
    CHECK(b.heapBytes() == 0);
}
