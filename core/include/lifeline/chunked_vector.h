// An append-only vector stored in fixed-size chunks: appending never moves what was written, so references stay
// valid, memory grows without a reallocation that holds twice the size, and nothing is copied on growth.
// A whole chunk can be released (its elements destroyed, its memory freed) while indices stay what they were: the
// engine forgets old history this way. Reading a released element is an error; released() says which are.
// A vector made to warm ahead keeps the next chunks' memory ready from its second chunk on, faulted in by the memory
// warmer's thread meanwhile, so the thread appending does not stop at each fresh page.
#pragma once

#include "lifeline/memory_warmer.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace lifeline {

// WarmAhead: keep the next chunks' memory ready and faulted in (for the few vectors a busy run appends to all the
// time: the event log's, the engine's messages', the simulation's processing records). Off, a vector holds no
// memory beyond its chunks (the viewer's indices, whose bytes a lane are a benchmark's figure).
template <class T, size_t ChunkBits = 16, bool WarmAhead = false> class ChunkedVector {
public:
    static constexpr size_t kChunkSize = size_t(1) << ChunkBits;

    T& push_back(T value)
    {
        if ((m_size & (kChunkSize - 1)) == 0)
            addChunk();
        T& slot = m_chunks.back()[m_size & (kChunkSize - 1)];
        slot = std::move(value);
        ++m_size;
        return slot;
    }
    // A new element at the back as its chunk constructed it (default-initialised), for the caller to fill in
    // place: for a type whose default constructor sets its fields, what push_back(T {}) gives, without building one
    // on the stack and copying it (read back at once, it stalls the processor).
    T& emplace_back()
    {
        if ((m_size & (kChunkSize - 1)) == 0)
            addChunk();
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
    struct Storage {
        void operator()(T* p) const { std::allocator<T>().deallocate(p, kChunkSize); }
    };
    struct Elements {
        void operator()(T* p) const
        {
            std::destroy_n(p, kChunkSize);
            Storage()(p);
        }
    };
    using Raw = std::unique_ptr<T, Storage>; // memory for a chunk, its elements not yet constructed

    void addChunk()
    {
        Raw raw;
        if (!m_spares.empty()) {
            raw = std::move(m_spares.back());
            m_spares.pop_back();
        } else {
            raw.reset(std::allocator<T>().allocate(kChunkSize));
        }
        // Default-initialised, as make_unique_for_overwrite would: trivial types are not zeroed first, so pages are
        // touched as elements are written, not all at once.
        std::uninitialized_default_construct_n(raw.get(), kChunkSize);
        m_chunks.emplace_back(raw.release());
        if (WarmAhead && m_spares.empty() && m_chunks.size() >= 2) // one chunk is what most runs need: no spares
            makeSpares(std::min(kMaxSpares, m_chunks.size()));
    }
    // The next `count` chunks' memory, in one request to the warmer: waking its thread costs the appending thread
    // a system call (about 10 microseconds on this machine), so it is asked once for several chunks, as many as
    // the vector holds up to kMaxSpares (the memory held ahead never exceeds what is used).
    void makeSpares(size_t count)
    {
        std::array<MemoryRange, kMaxSpares> ranges {};
        for (size_t i = 0; i < count; ++i)
            m_spares.emplace_back(std::allocator<T>().allocate(kChunkSize));
        for (size_t i = 0; i < count; ++i) // the last spare is taken first: warmed first
            ranges[i] = MemoryRange { m_spares[count - 1 - i].get(), sizeof(T) * kChunkSize };
        warmAhead(std::span<const MemoryRange>(ranges.data(), count));
    }

    static constexpr size_t kMaxSpares = 8;
    std::vector<std::unique_ptr<T[], Elements>> m_chunks;
    std::vector<Raw> m_spares; // the next chunks' memory, being faulted in; the last is taken first
    size_t m_size = 0;
    size_t m_releasedChunks = 0;
};

} // namespace lifeline
