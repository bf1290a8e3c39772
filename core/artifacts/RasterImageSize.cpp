#include "artifacts/RasterImageSize.h"

namespace sandbox {

namespace {

// PNG allows 2^31 - 1; anything larger than this is a corrupt header, not an image.
constexpr quint32 kMaxDimension = 1u << 24;

quint32 byteAt(const QByteArray &data, qsizetype at)
{
    return static_cast<unsigned char>(data.at(at));
}

quint32 bigEndian16(const QByteArray &data, qsizetype at)
{
    return (byteAt(data, at) << 8) | byteAt(data, at + 1);
}

quint32 bigEndian32(const QByteArray &data, qsizetype at)
{
    return (bigEndian16(data, at) << 16) | bigEndian16(data, at + 2);
}

quint32 littleEndian16(const QByteArray &data, qsizetype at)
{
    return byteAt(data, at) | (byteAt(data, at + 1) << 8);
}

quint32 littleEndian24(const QByteArray &data, qsizetype at)
{
    return littleEndian16(data, at) | (byteAt(data, at + 2) << 16);
}

std::optional<QSize> plausible(quint32 width, quint32 height)
{
    if (width == 0 || height == 0 || width > kMaxDimension || height > kMaxDimension) {
        return std::nullopt;
    }
    return QSize(int(width), int(height));
}

bool isStartOfFrame(quint32 marker)
{
    // C0-CF are frame markers except C4 (Huffman tables), C8 (reserved) and CC (arithmetic coding).
    return marker >= 0xc0 && marker <= 0xcf && marker != 0xc4 && marker != 0xc8 && marker != 0xcc;
}

} // namespace

std::optional<QSize> pngImageSize(const QByteArray &data)
{
    // Signature (8 bytes), then the IHDR chunk: length (4), type (4), width (4), height (4).
    if (data.size() < 24 || !data.startsWith("\x89PNG\r\n\x1a\n") || data.mid(12, 4) != "IHDR") {
        return std::nullopt;
    }
    return plausible(bigEndian32(data, 16), bigEndian32(data, 20));
}

std::optional<QSize> gifImageSize(const QByteArray &data)
{
    if (data.size() < 10 || !(data.startsWith("GIF87a") || data.startsWith("GIF89a"))) {
        return std::nullopt;
    }
    return plausible(littleEndian16(data, 6), littleEndian16(data, 8));
}

std::optional<QSize> jpegImageSize(const QByteArray &data)
{
    if (!data.startsWith("\xff\xd8")) {
        return std::nullopt;
    }
    qsizetype at = 2;
    while (at + 4 <= data.size()) {
        if (byteAt(data, at) != 0xff) {
            return std::nullopt; // not at a marker: corrupt
        }
        const quint32 marker = byteAt(data, at + 1);
        if (marker == 0xff) {
            ++at; // fill byte before a marker
            continue;
        }
        if (marker == 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
            at += 2; // markers without a length
            continue;
        }
        if (marker == 0xd9 || marker == 0xda) {
            return std::nullopt; // end of image or start of scan before any frame header
        }
        const quint32 length = bigEndian16(data, at + 2);
        if (length < 2) {
            return std::nullopt;
        }
        if (isStartOfFrame(marker)) {
            // Length (2), sample precision (1), height (2), width (2).
            if (at + 9 > data.size()) {
                return std::nullopt;
            }
            return plausible(bigEndian16(data, at + 7), bigEndian16(data, at + 5));
        }
        at += 2 + length;
    }
    return std::nullopt;
}

std::optional<QSize> webpImageSize(const QByteArray &data)
{
    if (data.size() < 30 || !data.startsWith("RIFF") || data.mid(8, 4) != "WEBP") {
        return std::nullopt;
    }
    const QByteArray chunk = data.mid(12, 4);
    if (chunk == "VP8X") {
        // Flags (4), then canvas width - 1 and height - 1, 24 bits each.
        return plausible(littleEndian24(data, 24) + 1, littleEndian24(data, 27) + 1);
    }
    if (chunk == "VP8L") {
        // Signature byte 0x2f, then 14 bits of width - 1 and 14 bits of height - 1.
        if (byteAt(data, 20) != 0x2f) {
            return std::nullopt;
        }
        const quint32 bits = littleEndian16(data, 21) | (littleEndian16(data, 23) << 16);
        return plausible((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
    }
    if (chunk == "VP8 ") {
        // Frame tag (3), start code 9d 01 2a, then 14-bit width and height (2 bits of scale each).
        if (data.mid(23, 3) != "\x9d\x01\x2a") {
            return std::nullopt;
        }
        return plausible(littleEndian16(data, 26) & 0x3fff, littleEndian16(data, 28) & 0x3fff);
    }
    return std::nullopt;
}

std::optional<QSize> rasterImageSize(const QByteArray &data)
{
    for (auto reader : {pngImageSize, gifImageSize, jpegImageSize, webpImageSize}) {
        if (auto size = reader(data)) {
            return size;
        }
    }
    return std::nullopt;
}

} // namespace sandbox
