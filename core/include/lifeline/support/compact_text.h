// A message's body in 16 bytes, not std::string's 32: up to 15 bytes kept inline (a simulated "message-3600000"
// is 15), a longer one in a heap block of exactly its size. Every lane holds one, so the half it saves is 16 bytes
// of every simulated message (docs/decisions.md, "The event log keeps each event in 8 bytes").
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace lifeline {

class CompactText {
public:
    CompactText() noexcept { setEmpty(); }
    CompactText(std::string_view text) // NOLINT(google-explicit-constructor): a body is set from any text
    {
        setEmpty();
        assign(text);
    }
    CompactText(const CompactText& other)
    {
        setEmpty();
        assign(other.view());
    }
    CompactText(CompactText&& other) noexcept
        : m_bytes(other.m_bytes)
    {
        other.setEmpty();
    }
    CompactText& operator=(const CompactText& other)
    {
        if (this != &other)
            assign(other.view());
        return *this;
    }
    CompactText& operator=(CompactText&& other) noexcept
    {
        if (this != &other) {
            release();
            m_bytes = other.m_bytes;
            other.setEmpty();
        }
        return *this;
    }
    CompactText& operator=(std::string_view text)
    {
        assign(text);
        return *this;
    }
    ~CompactText() { release(); }

    void assign(std::string_view text)
    {
        if (text.size() <= kInline) {
            std::array<unsigned char, 16> bytes {};
            if (!text.empty()) // an empty view may have no data at all (a run file's column of freed bodies)
                std::memcpy(bytes.data(), text.data(), text.size());
            bytes[15] = static_cast<unsigned char>(text.size());
            release(); // after the copy: `text` may be this body's own
            m_bytes = bytes;
            return;
        }
        const auto size = static_cast<uint32_t>(text.size());
        char* block = new char[size];
        std::memcpy(block, text.data(), size);
        release();
        std::memcpy(m_bytes.data(), &block, sizeof block);
        std::memcpy(m_bytes.data() + 8, &size, sizeof size);
        m_bytes[15] = kHeap;
    }
    void clear() noexcept
    {
        release();
        setEmpty();
    }

    std::string_view view() const noexcept
    {
        if (m_bytes[15] != kHeap)
            return { reinterpret_cast<const char*>(m_bytes.data()), m_bytes[15] };
        return { heapBlock(), heapSize() };
    }
    operator std::string_view() const noexcept { return view(); } // NOLINT(google-explicit-constructor)
    std::string str() const { return std::string(view()); }
    const char* data() const noexcept { return view().data(); }
    size_t size() const noexcept { return m_bytes[15] == kHeap ? heapSize() : m_bytes[15]; }
    bool empty() const noexcept { return size() == 0; }
    // The heap block a long body holds beside the 16 bytes (0 when it is inline).
    size_t heapBytes() const noexcept { return m_bytes[15] == kHeap ? heapSize() : 0; }

    friend bool operator==(const CompactText& a, const CompactText& b) noexcept { return a.view() == b.view(); }
    friend bool operator==(const CompactText& a, std::string_view b) noexcept { return a.view() == b; }

private:
    static constexpr size_t kInline = 15; // the longest text kept inline
    static constexpr unsigned char kHeap = 0xff; // the last byte: the inline size (0..15), or kHeap

    void setEmpty() noexcept { m_bytes = {}; }
    void release() noexcept
    {
        if (m_bytes[15] == kHeap)
            delete[] heapBlock();
    }
    char* heapBlock() const noexcept
    {
        char* block = nullptr;
        std::memcpy(&block, m_bytes.data(), sizeof block);
        return block;
    }
    uint32_t heapSize() const noexcept
    {
        uint32_t size = 0;
        std::memcpy(&size, m_bytes.data() + 8, sizeof size);
        return size;
    }

    alignas(8) std::array<unsigned char, 16> m_bytes;
};
static_assert(sizeof(CompactText) == 16);

} // namespace lifeline
