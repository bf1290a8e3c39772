#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace runner {

// Standard alphabet with padding (RFC 4648 section 4); every binary payload of the protocol uses it.
std::string base64Encode(std::string_view data);

// Accepts padded input and, leniently, input whose padding was left off. Returns nullopt for any character outside
// the alphabet or an impossible length, so a corrupted file never gets written half-decoded.
std::optional<std::string> base64Decode(std::string_view text);

} // namespace runner
