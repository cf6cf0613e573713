// The chunked vector with its next chunk faulted in ahead, and the memory warmer's promise: faulting in never
// changes what memory holds.
#include "lifeline/chunked_vector.h"
#include "lifeline/memory_warmer.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

using namespace lifeline;

TEST_CASE("faulting memory in for writing leaves what it holds as it was", "[chunked_vector]")
{
    // 300,000 bytes: whole pages and two partial ones, the first shared with the allocator's note before it.
    const size_t bytes = 300'000;
    auto block = std::make_unique<uint8_t[]>(bytes);
    for (size_t i = 0; i < bytes; ++i)
        block[i] = uint8_t(i * 7 + 3);
#if defined(__linux__)
    CHECK(faultInForWrite(block.get() + 5, bytes - 10)); // Linux 5.14 and later (Debian 12's kernel is 6.1)
#endif
    size_t differing = 0;
    for (size_t i = 0; i < bytes; ++i)
        differing += block[i] != uint8_t(i * 7 + 3) ? 1 : 0;
    CHECK(differing == 0);
    CHECK_FALSE(faultInForWrite(block.get(), 0));
}

TEST_CASE(
    "a chunked vector of large chunks keeps every element through chunks taken from its spare", "[chunked_vector]")
{
    // 4,096 eight-byte elements a chunk, warmed ahead: from the second chunk on, the next ones are kept ready.
    ChunkedVector<uint64_t, 12, true> numbers;
    const uint64_t k = 2'654'435'761u;
    const size_t count = 5 * 4096 + 17;
    for (size_t i = 0; i < count; ++i)
        numbers.push_back(i * k);
    REQUIRE(numbers.size() == count);
    CHECK(numbers.chunkCount() == 6);
    CHECK(numbers.capacity() == 6 * 4096);
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i)
        wrong += numbers[i] != i * k ? 1 : 0;
    CHECK(wrong == 0);
    CHECK(numbers.back() == (count - 1) * k);

    // Releasing a whole chunk keeps the others and the indices.
    numbers.releaseChunk(1);
    CHECK(numbers.released(4096));
    CHECK_FALSE(numbers.released(4095));
    CHECK(numbers[4095] == 4095 * k);
    CHECK(numbers[2 * 4096] == 2 * 4096 * k);
    CHECK(numbers.capacity() == 5 * 4096);
}

TEST_CASE("a chunked vector of strings constructs each chunk's elements and destroys them once", "[chunked_vector]")
{
    // 1,024 strings a chunk, warmed ahead too. A chunk made from a spare has every element constructed; the
    // sanitizer build checks each string is freed once.
    ChunkedVector<std::string, 10, true> texts;
    for (size_t i = 0; i < 3 * 1024; ++i)
        texts.push_back("text number " + std::to_string(i) + " long enough to be on the heap");
    CHECK(texts.chunkCount() == 3);
    CHECK(texts[2048] == "text number 2048 long enough to be on the heap");
    texts.push_back("next");
    CHECK(texts.chunkCount() == 4);
    CHECK(texts[3 * 1024] == "next");
    CHECK(texts[3 * 1024 + 1].empty()); // beyond size() but in the chunk: constructed, not raw memory
    texts.releaseChunk(0);
    CHECK(texts.released(0));
    CHECK(texts[1024] == "text number 1024 long enough to be on the heap");
}

TEST_CASE(
    "a chunked vector's emplace_back gives a default element to fill in place, in every chunk", "[chunked_vector]")
{
    struct Record {
        uint32_t lane = 0xffffffffu;
        uint32_t count = 0;
        uint64_t extra = 7;
    };
    // 16-byte records, 2,048 a chunk: chunks from the third on come from the spares made ahead; and the same
    // without warming ahead.
    ChunkedVector<Record, 11, true> records;
    for (uint32_t i = 0; i < 5 * 2048; ++i) {
        Record& r = records.emplace_back();
        REQUIRE(r.lane == 0xffffffffu); // as the chunk constructed it
        REQUIRE(r.extra == 7);
        r.lane = i;
    }
    CHECK(records.size() == 5 * 2048);
    CHECK(records.chunkCount() == 5);
    CHECK(records[4 * 2048 + 3].lane == 4 * 2048 + 3);
    CHECK(records[4 * 2048 + 3].count == 0);
    ChunkedVector<Record, 11> plain;
    for (uint32_t i = 0; i < 3 * 2048; ++i)
        REQUIRE(plain.emplace_back().extra == 7);
    CHECK(plain.chunkCount() == 3);
}
