#pragma once

#include <QByteArray>
#include <QSize>
#include <optional>

namespace sandbox {

// Pixel dimensions of raster images, read from their headers. Core links no QtGui (so no
// QImageReader), and the header is all it takes: nothing is decoded. Each function returns
// nothing for data that is not that format or whose header is cut short or implausible.

/// PNG, GIF, JPEG or WebP, whichever the data is.
std::optional<QSize> rasterImageSize(const QByteArray &data);

/// PNG: the IHDR chunk that must follow the signature.
std::optional<QSize> pngImageSize(const QByteArray &data);
/// GIF87a/89a: the logical screen descriptor.
std::optional<QSize> gifImageSize(const QByteArray &data);
/// JPEG: the first start-of-frame segment (baseline, progressive, lossless or arithmetic).
std::optional<QSize> jpegImageSize(const QByteArray &data);
/// WebP: the VP8 (lossy), VP8L (lossless) or VP8X (extended) header.
std::optional<QSize> webpImageSize(const QByteArray &data);

} // namespace sandbox
