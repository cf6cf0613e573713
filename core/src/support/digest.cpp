#include "lifeline/support/digest.h"

#include <cstring>

namespace lifeline {

namespace {
inline uint32_t rotl(uint32_t x, int c)
{
    return (x << c) | (x >> (32 - c));
}
inline uint32_t rotr(uint32_t x, int c)
{
    return (x >> c) | (x << (32 - c));
}

constexpr uint32_t kMd5K[64] = { 0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613,
    0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6,
    0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681,
    0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085,
    0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
    0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82,
    0xbd3af235, 0x2ad7d2bb, 0xeb86d391 };

constexpr uint32_t kSha256K[64] = { 0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152,
    0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138,
    0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70,
    0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
    0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa,
    0xa4506ceb, 0xbef9a3f7, 0xc67178f2 };
} // namespace

Md5::Md5()
    : m_h { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 }
{
}

// The four rounds unrolled (RFC 1321's reference shape): SQS digests every body, so this is on the send path.
#define LIFELINE_MD5_STEP(f, a, b, c, d, x, t, s)                                                                      \
    (a) += f(b, c, d) + (x) + (t);                                                                                     \
    (a) = rotl(a, s) + (b);
#define LIFELINE_MD5_F(x, y, z) ((z) ^ ((x) & ((y) ^ (z))))
#define LIFELINE_MD5_G(x, y, z) ((y) ^ ((z) & ((x) ^ (y))))
#define LIFELINE_MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define LIFELINE_MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

void Md5::block(const uint8_t* p)
{
    uint32_t m[16];
    std::memcpy(m, p, 64); // little-endian words: x86 and ARM Linux both are
    uint32_t a = m_h[0], b = m_h[1], c = m_h[2], d = m_h[3];
    for (int i = 0; i < 16; i += 4) {
        LIFELINE_MD5_STEP(LIFELINE_MD5_F, a, b, c, d, m[i], kMd5K[i], 7)
        LIFELINE_MD5_STEP(LIFELINE_MD5_F, d, a, b, c, m[i + 1], kMd5K[i + 1], 12)
        LIFELINE_MD5_STEP(LIFELINE_MD5_F, c, d, a, b, m[i + 2], kMd5K[i + 2], 17)
        LIFELINE_MD5_STEP(LIFELINE_MD5_F, b, c, d, a, m[i + 3], kMd5K[i + 3], 22)
    }
    for (int i = 16; i < 32; i += 4) {
        LIFELINE_MD5_STEP(LIFELINE_MD5_G, a, b, c, d, m[(5 * i + 1) % 16], kMd5K[i], 5)
        LIFELINE_MD5_STEP(LIFELINE_MD5_G, d, a, b, c, m[(5 * i + 6) % 16], kMd5K[i + 1], 9)
        LIFELINE_MD5_STEP(LIFELINE_MD5_G, c, d, a, b, m[(5 * i + 11) % 16], kMd5K[i + 2], 14)
        LIFELINE_MD5_STEP(LIFELINE_MD5_G, b, c, d, a, m[(5 * i + 16) % 16], kMd5K[i + 3], 20)
    }
    for (int i = 32; i < 48; i += 4) {
        LIFELINE_MD5_STEP(LIFELINE_MD5_H, a, b, c, d, m[(3 * i + 5) % 16], kMd5K[i], 4)
        LIFELINE_MD5_STEP(LIFELINE_MD5_H, d, a, b, c, m[(3 * i + 8) % 16], kMd5K[i + 1], 11)
        LIFELINE_MD5_STEP(LIFELINE_MD5_H, c, d, a, b, m[(3 * i + 11) % 16], kMd5K[i + 2], 16)
        LIFELINE_MD5_STEP(LIFELINE_MD5_H, b, c, d, a, m[(3 * i + 14) % 16], kMd5K[i + 3], 23)
    }
    for (int i = 48; i < 64; i += 4) {
        LIFELINE_MD5_STEP(LIFELINE_MD5_I, a, b, c, d, m[(7 * i) % 16], kMd5K[i], 6)
        LIFELINE_MD5_STEP(LIFELINE_MD5_I, d, a, b, c, m[(7 * i + 7) % 16], kMd5K[i + 1], 10)
        LIFELINE_MD5_STEP(LIFELINE_MD5_I, c, d, a, b, m[(7 * i + 14) % 16], kMd5K[i + 2], 15)
        LIFELINE_MD5_STEP(LIFELINE_MD5_I, b, c, d, a, m[(7 * i + 21) % 16], kMd5K[i + 3], 21)
    }
    m_h[0] += a;
    m_h[1] += b;
    m_h[2] += c;
    m_h[3] += d;
}

void Md5::update(const void* data, size_t size)
{
    auto p = static_cast<const uint8_t*>(data);
    size_t used = m_length % 64;
    m_length += size;
    if (used) {
        const size_t take = std::min(size, 64 - used);
        std::memcpy(m_buffer + used, p, take);
        p += take;
        size -= take;
        if (used + take < 64)
            return;
        block(m_buffer);
    }
    for (; size >= 64; size -= 64, p += 64)
        block(p);
    if (size)
        std::memcpy(m_buffer, p, size);
}

std::array<uint8_t, 16> Md5::finish()
{
    const uint64_t bits = m_length * 8;
    uint8_t padding[72] = { 0x80 };
    const size_t used = m_length % 64;
    const size_t padLength = (used < 56 ? 56 : 120) - used;
    for (int i = 0; i < 8; ++i)
        padding[padLength + i] = uint8_t(bits >> (8 * i));
    update(padding, padLength + 8);
    std::array<uint8_t, 16> out {};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            out[i * 4 + j] = uint8_t(m_h[i] >> (8 * j));
    return out;
}

std::array<uint8_t, 32> sha256(std::string_view text)
{
    uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
    std::string data(text);
    const uint64_t bits = uint64_t(text.size()) * 8;
    data.push_back(char(0x80));
    while (data.size() % 64 != 56)
        data.push_back('\0');
    for (int i = 7; i >= 0; --i)
        data.push_back(char(bits >> (8 * i)));
    for (size_t off = 0; off < data.size(); off += 64) {
        const auto* p = reinterpret_cast<const uint8_t*>(data.data() + off);
        uint32_t w[64];
        for (int i = 0; i < 16; ++i)
            w[i] = uint32_t(p[size_t(i) * 4]) << 24 | uint32_t(p[size_t(i) * 4 + 1]) << 16
                | uint32_t(p[size_t(i) * 4 + 2]) << 8 | uint32_t(p[size_t(i) * 4 + 3]);
        for (int i = 16; i < 64; ++i) {
            const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
        for (int i = 0; i < 64; ++i) {
            const uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
            const uint32_t ch = (e & f) ^ (~e & g);
            const uint32_t t1 = hh + s1 + ch + kSha256K[i] + w[i];
            const uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
            const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
            const uint32_t t2 = s0 + maj;
            hh = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        h[0] += a;
        h[1] += b;
        h[2] += c;
        h[3] += d;
        h[4] += e;
        h[5] += f;
        h[6] += g;
        h[7] += hh;
    }
    std::array<uint8_t, 32> out {};
    for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 4; ++j)
            out[i * 4 + j] = uint8_t(h[i] >> (24 - 8 * j));
    return out;
}

std::string toHex(const uint8_t* data, size_t size)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out(size * 2, '0');
    for (size_t i = 0; i < size; ++i) {
        out[i * 2] = kDigits[data[i] >> 4];
        out[i * 2 + 1] = kDigits[data[i] & 15];
    }
    return out;
}

std::string Md5Digest::hex() const
{
    return toHex(bytes.data(), bytes.size());
}

Md5Digest md5(std::string_view text)
{
    Md5 state;
    state.update(text);
    return Md5Digest { state.finish() };
}

std::string md5Hex(std::string_view text)
{
    Md5 md5;
    md5.update(text);
    const auto digest = md5.finish();
    return toHex(digest.data(), digest.size());
}

} // namespace lifeline
