// MD5 and SHA-256, small and dependency-free: SQS digests bodies with MD5 and FIFO
// content-based deduplication with SHA-256.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace lifeline {

class Md5 {
public:
    Md5();
    void update(const void* data, size_t size);
    void update(std::string_view text) { update(text.data(), text.size()); }
    std::array<uint8_t, 16> finish();

private:
    void block(const uint8_t* p);
    uint32_t m_h[4];
    uint8_t m_buffer[64];
    uint64_t m_length = 0;
};

// An MD5 digest kept as bytes; hex() is what the SQS APIs show (formatting is left to whoever shows it).
struct Md5Digest {
    std::array<uint8_t, 16> bytes {};
    std::string hex() const;
    bool operator==(const Md5Digest&) const = default;
};

Md5Digest md5(std::string_view text);
std::array<uint8_t, 32> sha256(std::string_view text);
std::string md5Hex(std::string_view text);
std::string toHex(const uint8_t* data, size_t size);

} // namespace lifeline
