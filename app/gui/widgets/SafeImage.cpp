#include "gui/widgets/SafeImage.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImageReader>
#include <QPainter>
#include <QStringDecoder>
#include <QSvgRenderer>
#include <QXmlStreamReader>

namespace sandbox::gui {

namespace {

/// Larger SVG files are not rendered: a chart's SVG is a few hundred KiB.
constexpr qsizetype kMaxSvgBytes = 16 * 1024 * 1024;
/// An SVG nested deeper, with more elements, or with more `<use>` references than a chart has is not rendered.
constexpr int kMaxSvgDepth = 64;
constexpr int kMaxSvgElements = 200000;
constexpr int kMaxSvgUses = 2000;
constexpr QSize kSvgSize{1600, 1200};

/// The Qt image format of a raster image's first bytes, or empty.
QByteArray rasterFormat(const QByteArray &data)
{
    if (data.startsWith("\x89PNG\r\n\x1a\n")) {
        return "png";
    }
    if (data.startsWith("\xff\xd8\xff")) {
        return "jpeg";
    }
    if (data.startsWith("GIF87a") || data.startsWith("GIF89a")) {
        return "gif";
    }
    if (data.size() >= 12 && data.startsWith("RIFF") && data.mid(8, 4) == "WEBP") {
        return "webp";
    }
    return {};
}

bool isUtf8Text(const QByteArray &data)
{
    if (data.contains('\0')) {
        return false;
    }
    QStringDecoder decoder(QStringDecoder::Utf8);
    (void)decoder.decode(data);
    return !decoder.hasError();
}

/// Whether the SVG's structure is one a renderer gets through quickly; `*why` otherwise.
bool svgLooksSafe(const QByteArray &data, QString *why)
{
    if (data.size() > kMaxSvgBytes) {
        *why = QCoreApplication::translate("SafeImage", "The SVG file is too large to show.");
        return false;
    }
    QXmlStreamReader xml(data);
    int depth = 0;
    int elements = 0;
    int uses = 0;
    while (!xml.atEnd()) {
        switch (xml.readNext()) {
        case QXmlStreamReader::StartElement:
            ++elements;
            uses += xml.name() == QLatin1String("use") ? 1 : 0;
            if (++depth > kMaxSvgDepth || elements > kMaxSvgElements || uses > kMaxSvgUses) {
                *why = QCoreApplication::translate(
                    "SafeImage", "The SVG is nested too deeply or refers to itself too often to be shown safely.");
                return false;
            }
            break;
        case QXmlStreamReader::EndElement:
            --depth;
            break;
        case QXmlStreamReader::DTD:
            // Entities can expand without limit: a chart never declares any.
            *why = QCoreApplication::translate("SafeImage",
                                               "The SVG declares a document type (entities), which is not shown.");
            return false;
        default:
            break;
        }
    }
    if (xml.hasError()) {
        *why = QCoreApplication::translate("SafeImage", "The SVG is not well-formed: %1").arg(xml.errorString());
        return false;
    }
    return true;
}

QImage decodeRaster(const QByteArray &data, const QByteArray &format, QSize box, QString *why)
{
    QBuffer buffer;
    buffer.setData(data);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer, format);
    reader.setDecideFormatFromContent(false);
    reader.setAutoTransform(true);
    const QSize size = reader.size();
    if (!size.isValid() || size.isEmpty()) {
        *why = QCoreApplication::translate("SafeImage", "The image cannot be read (%1).").arg(reader.errorString());
        return {};
    }
    if (qint64(size.width()) * size.height() > SafeImage::kMaxPixels) {
        *why = QCoreApplication::translate("SafeImage", "The image is %1 × %2 pixels, too large to show.")
                   .arg(size.width())
                   .arg(size.height());
        return {};
    }
    if (!box.isEmpty() && (size.width() > box.width() || size.height() > box.height())) {
        reader.setScaledSize(size.scaled(box, Qt::KeepAspectRatio));
    }
    QImage image = reader.read();
    if (image.isNull()) {
        *why = QCoreApplication::translate("SafeImage", "The image cannot be read (%1).").arg(reader.errorString());
    }
    return image;
}

QImage renderSvg(const QByteArray &data, QSize box, QString *why)
{
    if (!svgLooksSafe(data, why)) {
        return {};
    }
    QSvgRenderer renderer(data);
    if (!renderer.isValid()) {
        *why = QCoreApplication::translate("SafeImage", "The SVG cannot be read.");
        return {};
    }
    QSize size = renderer.defaultSize();
    if (size.isEmpty()) {
        size = kSvgSize;
    }
    size = size.scaled(box.isEmpty() ? kSvgSize : box, Qt::KeepAspectRatio);
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter);
    return image;
}

} // namespace

SafeImage::Kind SafeImage::kindOf(const QByteArray &data, const QString &mimeType)
{
    if (!rasterFormat(data).isEmpty()) {
        return Kind::Raster;
    }
    if (!isUtf8Text(data)) {
        return Kind::Other;
    }
    const QByteArray head = data.left(4096);
    if (mimeType == QLatin1String("image/svg+xml") || head.contains("<svg")) {
        return Kind::Svg;
    }
    return Kind::Text;
}

QImage SafeImage::decode(const QByteArray &data, const QString &mimeType, QSize box, QString *why)
{
    QString ignored;
    QString &reason = why ? *why : ignored;
    switch (kindOf(data, mimeType)) {
    case Kind::Raster:
        return decodeRaster(data, rasterFormat(data), box, &reason);
    case Kind::Svg:
        return renderSvg(data, box, &reason);
    case Kind::Text:
    case Kind::Other:
        break;
    }
    reason = QCoreApplication::translate("SafeImage", "Not an image.");
    return {};
}

} // namespace sandbox::gui
