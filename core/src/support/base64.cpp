#include "lifeline/support/base64.h"

#include <array>
#include <cstdint>

namespace lifeline {

namespace {
constexpr char kStandard[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr char kUrl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

const char* alphabetOf(Base64 variant)
{
    return variant == Base64::Standard ? kStandard : kUrl;
}

// Each character's value in an alphabet, -1 for characters outside it.
constexpr std::array<int8_t, 256> valuesOf(const char* alphabet)
{
    std::array<int8_t, 256> values {};
    for (auto& v : values)
        v = -1;
    for (int i = 0; i < 64; ++i)
        values[uint8_t(alphabet[i])] = int8_t(i);
    return values;
}
constexpr auto kStandardValues = valuesOf(kStandard);
constexpr auto kUrlValues = valuesOf(kUrl);
} // namespace

void base64Append(std::string& out, std::string_view bytes, Base64 variant)
{
    const char* alphabet = alphabetOf(variant);
    const bool pad = variant == Base64::Standard;
    const size_t whole = bytes.size() / 3, rest = bytes.size() % 3;
    const size_t length = whole * 4 + (rest == 0 ? 0 : pad ? 4 : rest + 1);
    const size_t at = out.size();
    out.resize(at + length); // one allocation at most; written in place below
    char* p = out.data() + at;
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v
            = uint32_t(uint8_t(bytes[i])) << 16 | uint32_t(uint8_t(bytes[i + 1])) << 8 | uint8_t(bytes[i + 2]);
        *p++ = alphabet[v >> 18];
        *p++ = alphabet[(v >> 12) & 63];
        *p++ = alphabet[(v >> 6) & 63];
        *p++ = alphabet[v & 63];
    }
    if (rest == 0)
        return;
    // One or two bytes left: two or three characters, and padding to four in the standard variant.
    const bool two = rest == 2;
    uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
    if (two)
        v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    *p++ = alphabet[v >> 18];
    *p++ = alphabet[(v >> 12) & 63];
    if (two)
        *p++ = alphabet[(v >> 6) & 63];
    else if (pad)
        *p++ = '=';
    if (pad)
        *p = '=';
}

std::string base64Encode(std::string_view bytes, Base64 variant)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    base64Append(out, bytes, variant);
    return out;
}

std::optional<size_t> base64DecodeInto(std::string_view text, Base64 variant, char* out, size_t capacity)
{
    const auto& values = variant == Base64::Standard ? kStandardValues : kUrlValues;
    size_t padding = 0;
    if (variant == Base64::Standard) {
        if (text.size() % 4 != 0)
            return std::nullopt;
        while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=')
            ++padding;
    } else if (text.size() % 4 == 1) {
        return std::nullopt; // one character holds 6 bits: not a byte
    }
    const size_t chars = text.size() - padding; // the characters that carry bits
    size_t written = 0;
    uint32_t bits = 0;
    int held = 0;
    for (size_t i = 0; i < chars; ++i) {
        const int8_t value = values[uint8_t(text[i])];
        if (value < 0)
            return std::nullopt;
        bits = bits << 6 | uint32_t(value);
        held += 6;
        if (held >= 8) {
            held -= 8;
            if (written == capacity)
                return std::nullopt;
            out[written++] = char((bits >> held) & 0xff);
        }
    }
    return written;
}

std::optional<std::string> base64Decode(std::string_view text, Base64 variant)
{
    std::string out(text.size() / 4 * 3 + 3, '\0');
    const auto written = base64DecodeInto(text, variant, out.data(), out.size());
    if (!written)
        return std::nullopt;
    out.resize(*written);
    return out;
}

} // namespace lifeline
