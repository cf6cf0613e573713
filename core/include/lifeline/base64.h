// Standard base64 (RFC 4648, with padding): binary message attributes on the wire and move-task handles.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lifeline {

std::string base64Encode(std::string_view bytes);
std::optional<std::string> base64Decode(std::string_view text); // nullopt when malformed

} // namespace lifeline
