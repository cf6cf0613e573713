// An append-only vector stored in fixed-size chunks: appending never moves what was written, so references stay
// valid, memory grows without a reallocation that holds twice the size, and nothing is copied on growth.
//
// Invariants: element i lives in chunk i >> ChunkBits at i & (kChunkSize - 1), for ever; every element of an
// allocated chunk is constructed (value-initialised), also those past size(); a released chunk holds no memory and
// reading one of its elements is an error (released() says which are); only a full chunk can be released, never
// the one being filled. Tested in tests/core/test_chunked_vector.cpp, under the sanitizers too.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace lifeline {

template <class T, size_t ChunkBits = 16> class ChunkedVector {
public:
    static constexpr size_t kChunkSize = size_t(1) << ChunkBits;

    T& push_back(T value)
    {
        T& slot = emplace_back();
        slot = std::move(value);
        return slot;
    }
    // The next element, value-initialised, for the caller to fill in place.
    T& emplace_back()
    {
        if ((m_size & (kChunkSize - 1)) == 0)
            m_chunks.push_back(std::make_unique<T[]>(kChunkSize));
        return m_chunks.back()[m_size++ & (kChunkSize - 1)];
    }
    T& operator[](size_t i) { return m_chunks[i >> ChunkBits][i & (kChunkSize - 1)]; }
    const T& operator[](size_t i) const { return m_chunks[i >> ChunkBits][i & (kChunkSize - 1)]; }
    T& back() { return (*this)[m_size - 1]; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    // Elements the allocated chunks hold room for (released chunks hold none).
    size_t capacity() const { return (m_chunks.size() - m_releasedChunks) * kChunkSize; }

    size_t chunkCount() const { return m_chunks.size(); }
    // Destroys the elements of chunk `chunk` (indices chunk * kChunkSize onwards) and frees its memory. Only a full
    // chunk can be released: the last one, still being filled, cannot.
    void releaseChunk(size_t chunk)
    {
        if (chunk >= m_chunks.size() || !m_chunks[chunk] || (chunk + 1) * kChunkSize > m_size)
            return;
        m_chunks[chunk].reset();
        ++m_releasedChunks;
    }
    bool released(size_t i) const { return i < m_size && !m_chunks[i >> ChunkBits]; }
    bool chunkReleased(size_t chunk) const { return chunk < m_chunks.size() && !m_chunks[chunk]; }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    size_t m_size = 0;
    size_t m_releasedChunks = 0;
};

} // namespace lifeline
