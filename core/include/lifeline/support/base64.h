// Base64 (RFC 4648), the one codec in Lifeline: the standard alphabet with padding for binary message attributes
// and ListQueues tokens, the URL-safe alphabet without padding for receipt handles.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lifeline {

enum class Base64 {
    Standard, // A-Z a-z 0-9 + /, padded with '=' to a multiple of 4
    UrlUnpadded, // A-Z a-z 0-9 - _, no padding (RFC 4648 section 5)
};

std::string base64Encode(std::string_view bytes, Base64 variant = Base64::Standard);
// Appends the encoding to `out` (no temporary string: receipt handles are made on every receive).
void base64Append(std::string& out, std::string_view bytes, Base64 variant = Base64::Standard);
// nullopt when malformed: a character outside the alphabet, a wrong length, padding where it cannot be.
std::optional<std::string> base64Decode(std::string_view text, Base64 variant = Base64::Standard);
// The same into a buffer of `capacity` bytes (no allocation: receipt handles are read on every delete); the bytes
// written, or nullopt when malformed or longer than the buffer.
std::optional<size_t> base64DecodeInto(std::string_view text, Base64 variant, char* out, size_t capacity);

} // namespace lifeline
