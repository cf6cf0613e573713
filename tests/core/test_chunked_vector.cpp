// The chunked vector's invariants (chunked_vector.h): indices never move, every element of a chunk is constructed,
// a released chunk frees its memory and leaves the others as they were.
#include "lifeline/support/chunked_vector.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>

using namespace lifeline;

TEST_CASE(
    "a chunked vector keeps every element through six chunks - and the others when one is released", "[chunked_vector]")
{
    // 4,096 eight-byte elements a chunk.
    ChunkedVector<uint64_t, 12> numbers;
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
    // 1,024 strings a chunk: every element of a chunk is constructed; the sanitizer build checks each string is
    // freed once.
    ChunkedVector<std::string, 10> texts;
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
    // 16-byte records, 2,048 a chunk; and plain integers, value-initialised (zero) in every chunk.
    ChunkedVector<Record, 11> records;
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
    ChunkedVector<uint32_t, 11> plain;
    for (uint32_t i = 0; i < 3 * 2048; ++i)
        REQUIRE(plain.emplace_back() == 0);
    CHECK(plain.chunkCount() == 3);
}
