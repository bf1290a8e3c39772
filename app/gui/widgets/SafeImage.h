#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

namespace sandbox::gui {

/// Decoding a file a sandbox wrote. The sandbox chose its name, its MIME type and every byte, so none of them is
/// trusted: the format is read from the bytes (a PNG named `chart.jar` is a PNG), only PNG, JPEG, GIF, WebP and SVG are
/// decoded, a raster image is measured before it is decoded (one of more than kMaxPixels is refused, not allocated),
/// and an SVG is refused before it is rendered when it could reach anything but itself (`<image>`, `<feImage>`, an
/// `href` or `url()` that is not a `#fragment`: a host file, a data: URI for another decoder) or keep the renderer busy
/// for long (deep nesting, `<use>` references whose expansion is too large, counted per referenced element).
///
/// decode() never parses or decodes in this process: ImageDecoderProcess does it in a helper process (`llm-sandbox
/// --decode-image`) with a memory and CPU limit, a wall-clock kill, and no way to open a file, so that a decoder's
/// flaw (CVE-2023-37369 in Debian 12's Qt XML parser) or a bomb costs a helper, never the app. Slow either way: call
/// it off the GUI thread (ThumbnailProvider does).
class SafeImage final
{
public:
    enum class Kind
    {
        Raster, ///< PNG, JPEG, GIF or WebP, by its first bytes
        Svg,
        Text,  ///< UTF-8 text without NUL bytes (CSV, JSON, HTML, source): shown as text, never rendered
        Other, ///< saved only
    };

    /// 32 megapixels (8000 × 4000): a chart at any sensible resolution, at most 128 MiB decoded (Qt's own limit).
    static constexpr qint64 kMaxPixels = 32LL * 1000 * 1000;

    /// What `data` is, from its bytes; `mimeType` only tells an SVG's or a text's kind apart from other text.
    static Kind kindOf(const QByteArray &data, const QString &mimeType);

    /// The image in `data` fitted into `box` (keeping its aspect ratio; an empty box: its own size, SVG at most
    /// 1600 × 1200), or a null image and `*why` says why it is not shown. Decoded in a helper process.
    static QImage decode(const QByteArray &data, const QString &mimeType, QSize box, QString *why = nullptr);

    /// decode() in this process, with every check: for the helper process alone (ImageDecoderProcess).
    static QImage decodeHere(const QByteArray &data, const QString &mimeType, QSize box, QString *why);
};

} // namespace sandbox::gui
