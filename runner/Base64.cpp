#include "Base64.h"

#include <array>
#include <cstdint>

namespace runner {

namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> makeDecodeTable()
{
    std::array<std::int8_t, 256> table{};
    for (auto &entry : table) {
        entry = -1;
    }
    for (std::size_t i = 0; i < alphabet.size(); ++i) {
        table[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
    }
    return table;
}

constexpr std::array<std::int8_t, 256> decodeTable = makeDecodeTable();

std::uint32_t byteAt(std::string_view data, std::size_t index)
{
    return static_cast<unsigned char>(data[index]);
}

} // namespace

std::string base64Encode(std::string_view data)
{
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < data.size(); i += 3) {
        const std::uint32_t v = byteAt(data, i) << 16 | byteAt(data, i + 1) << 8 | byteAt(data, i + 2);
        out += alphabet[v >> 18 & 63];
        out += alphabet[v >> 12 & 63];
        out += alphabet[v >> 6 & 63];
        out += alphabet[v & 63];
    }
    const std::size_t rest = data.size() - i;
    if (rest == 1) {
        const std::uint32_t v = byteAt(data, i) << 16;
        out += alphabet[v >> 18 & 63];
        out += alphabet[v >> 12 & 63];
        out += "==";
    } else if (rest == 2) {
        const std::uint32_t v = byteAt(data, i) << 16 | byteAt(data, i + 1) << 8;
        out += alphabet[v >> 18 & 63];
        out += alphabet[v >> 12 & 63];
        out += alphabet[v >> 6 & 63];
        out += '=';
    }
    return out;
}

std::optional<std::string> base64Decode(std::string_view text)
{
    std::size_t length = text.size();
    if (length % 4 == 0 && length > 0) {
        if (text[length - 1] == '=') {
            --length;
        }
        if (text[length - 1] == '=') {
            --length;
        }
    }
    if (length % 4 == 1) {
        return std::nullopt;
    }

    std::string out;
    out.reserve(length / 4 * 3 + 2);
    std::uint32_t accumulator = 0;
    int bits = 0;
    for (std::size_t i = 0; i < length; ++i) {
        const std::int8_t value = decodeTable[static_cast<unsigned char>(text[i])];
        if (value < 0) {
            return std::nullopt;
        }
        accumulator = (accumulator << 6 | static_cast<std::uint32_t>(value)) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>(accumulator >> bits & 0xff);
        }
    }
    return out;
}

} // namespace runner
