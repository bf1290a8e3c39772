#include "gui/widgets/SafeImage.h"

#include "gui/widgets/ImageDecoderProcess.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QImageReader>
#include <QPainter>
#include <QRegularExpression>
#include <QStringDecoder>
#include <QSvgRenderer>
#include <QXmlStreamReader>
#include <algorithm>

namespace sandbox::gui {

namespace {

/// Larger SVG files are not rendered: a chart's SVG is a few hundred KiB.
constexpr qsizetype kMaxSvgBytes = 16 * 1024 * 1024;
/// An SVG nested deeper, or with more elements than a chart has, counting each `<use>` as the elements it draws, is not
/// rendered (matplotlib's densest charts: some ten thousand).
constexpr int kMaxSvgDepth = 64;
constexpr qint64 kMaxSvgElements = 200000;
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

/// One element of an SVG as the gate sees it: what it contains and what it refers to.
struct SvgNode
{
    QList<int> children;
    QString use; ///< the id a `<use>` draws ("#id" without '#'), else empty
};

/// Whether an attribute's value refers to something outside the document: an `href` that is not a `#fragment`, or a
/// `url(...)` (in any attribute, `style` included) that is not one.
bool refersOutside(const QXmlStreamAttribute &attribute)
{
    const QStringView value = attribute.value().trimmed();
    if (attribute.name() == QLatin1String("href")) {
        return !value.startsWith(u'#');
    }
    static const QRegularExpression url(QStringLiteral("url\\(\\s*['\"]?\\s*([^#\\s'\")])"),
                                        QRegularExpression::CaseInsensitiveOption);
    return url.match(value).hasMatch();
}

/// How many elements drawing `node` means, each `<use>` counted as the elements it draws (memoised in `expanded`,
/// -1 while being counted: a reference back to it is a cycle, counted as too many). Stops at kMaxSvgElements + 1.
qint64 expandedSize(int node, const QList<SvgNode> &nodes, const QHash<QString, int> &ids, QList<qint64> &expanded)
{
    if (expanded[node] == -1) {
        return kMaxSvgElements + 1;
    }
    if (expanded[node] > 0) {
        return expanded[node];
    }
    expanded[node] = -1;
    qint64 size = 1;
    for (const int child : nodes[node].children) {
        size = std::min(size + expandedSize(child, nodes, ids, expanded), kMaxSvgElements + 1);
    }
    if (!nodes[node].use.isEmpty() && ids.contains(nodes[node].use)) {
        size = std::min(size + expandedSize(ids.value(nodes[node].use), nodes, ids, expanded), kMaxSvgElements + 1);
    }
    expanded[node] = size;
    return size;
}

/// Whether the SVG draws only itself and is one a renderer gets through quickly; `*why` otherwise.
bool svgLooksSafe(const QByteArray &data, QString *why)
{
    if (data.size() > kMaxSvgBytes) {
        *why = QCoreApplication::translate("SafeImage", "The SVG file is too large to show.");
        return false;
    }
    const QString tooComplex = QCoreApplication::translate(
        "SafeImage", "The SVG is nested too deeply or refers to itself too often to be shown safely.");
    QXmlStreamReader xml(data);
    QList<SvgNode> nodes{SvgNode{}}; // 0: the document
    QList<int> open{0};
    QHash<QString, int> ids;
    while (!xml.atEnd()) {
        switch (xml.readNext()) {
        case QXmlStreamReader::StartElement: {
            const QStringView name = xml.name();
            if (name == QLatin1String("image") || name == QLatin1String("feImage")) {
                *why = QCoreApplication::translate("SafeImage",
                                                   "The SVG embeds or links another image (<%1>), which is not shown.")
                           .arg(name.toString());
                return false;
            }
            SvgNode node;
            for (const QXmlStreamAttribute &attribute : xml.attributes()) {
                if (refersOutside(attribute)) {
                    *why = QCoreApplication::translate("SafeImage",
                                                       "The SVG refers to something outside itself (%1), which is not "
                                                       "shown.")
                               .arg(attribute.qualifiedName().toString());
                    return false;
                }
                if (attribute.name() == QLatin1String("href") && name == QLatin1String("use")) {
                    node.use = attribute.value().mid(1).toString();
                }
            }
            const QString id = xml.attributes().value(QLatin1String("id")).toString();
            nodes[open.last()].children.append(int(nodes.size()));
            if (!id.isEmpty()) {
                ids.insert(id, int(nodes.size()));
            }
            open.append(int(nodes.size()));
            nodes.append(std::move(node));
            if (open.size() - 1 > kMaxSvgDepth || nodes.size() > kMaxSvgElements) {
                *why = tooComplex;
                return false;
            }
            break;
        }
        case QXmlStreamReader::EndElement:
            open.removeLast();
            break;
        case QXmlStreamReader::Characters:
            // A style sheet's @import would fetch another sheet.
            if (xml.text().contains(QLatin1String("@import"), Qt::CaseInsensitive)) {
                *why = QCoreApplication::translate("SafeImage",
                                                   "The SVG refers to something outside itself (@import), which is not "
                                                   "shown.");
                return false;
            }
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
    QList<qint64> expanded(nodes.size(), 0);
    if (expandedSize(0, nodes, ids, expanded) > kMaxSvgElements) {
        *why = tooComplex;
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
    const Kind kind = kindOf(data, mimeType);
    if (kind == Kind::Raster || kind == Kind::Svg) {
        return ImageDecoderProcess::decode(data, mimeType, box, &reason);
    }
    reason = QCoreApplication::translate("SafeImage", "Not an image.");
    return {};
}

QImage SafeImage::decodeHere(const QByteArray &data, const QString &mimeType, QSize box, QString *why)
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
