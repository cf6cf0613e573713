// An append-only vector stored in fixed-size chunks: appending never moves what was written, so references stay
// valid, memory grows without a reallocation that holds twice the size, and nothing is copied on growth.
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
        if ((m_size & (kChunkSize - 1)) == 0)
            // Trivial types are not zeroed first: pages are touched as elements are written, not all at once.
            m_chunks.push_back(std::make_unique_for_overwrite<T[]>(kChunkSize));
        T& slot = m_chunks.back()[m_size & (kChunkSize - 1)];
        slot = std::move(value);
        ++m_size;
        return slot;
    }
    T& operator[](size_t i) { return m_chunks[i >> ChunkBits][i & (kChunkSize - 1)]; }
    const T& operator[](size_t i) const { return m_chunks[i >> ChunkBits][i & (kChunkSize - 1)]; }
    T& back() { return (*this)[m_size - 1]; }
    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    size_t capacity() const { return m_chunks.size() * kChunkSize; }

private:
    std::vector<std::unique_ptr<T[]>> m_chunks;
    size_t m_size = 0;
};

} // namespace lifeline
