#pragma once

#include <string>

namespace runner::test {

/// A TLS record holding a ClientHello, naming `name` (none when empty), with another extension before it.
inline std::string clientHello(const std::string &name)
{
    const auto u16 = [](std::size_t value) {
        return std::string{char(value >> 8), char(value & 0xff)};
    };
    std::string extensions = u16(0x000a) + u16(4) + u16(2) + u16(0x001d); // supported_groups: x25519
    if (!name.empty()) {
        const std::string entry = std::string(1, '\0') + u16(name.size()) + name;
        extensions += u16(0) + u16(entry.size() + 2) + u16(entry.size()) + entry;
    }
    std::string body = u16(0x0303) + std::string(32, 'r') + std::string(1, '\0') + u16(2) + u16(0x1301) +
                       std::string{1, '\0'} + u16(extensions.size()) + extensions;
    // "\1\0" above: one compression method, null.
    const std::string handshake = std::string{'\x01', '\0'} + u16(body.size()) + body;
    return std::string{'\x16', '\x03', '\x01'} + u16(handshake.size()) + handshake;
}

} // namespace runner::test
