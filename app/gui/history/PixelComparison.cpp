#include "gui/history/PixelComparison.h"

#include "gui/widgets/SafeImage.h"

#include <QFile>
#include <QHash>

namespace sandbox::gui {

namespace {

QImage decodeStored(const JournalArtifact &artifact)
{
    if (artifact.path.isEmpty()) {
        return {};
    }
    QFile file(artifact.path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    // Written by a sandbox: decoded as any untrusted picture is, at its own size.
    const QImage image = SafeImage::decode(file.readAll(), artifact.mimeType, QSize());
    return image.isNull() ? image : image.convertToFormat(QImage::Format_ARGB32);
}

} // namespace

std::optional<bool> comparePixels(const JournalArtifact &original, const JournalArtifact &replay)
{
    const QImage a = decodeStored(original);
    const QImage b = decodeStored(replay);
    if (a.isNull() || b.isNull()) {
        return std::nullopt;
    }
    // The same picture may be stored as RGB in one file and with an alpha channel in the other: both are ARGB32 now.
    return a == b;
}

QImage differenceImage(const QImage &a, const QImage &b, qint64 *differing)
{
    const QImage first = a.convertToFormat(QImage::Format_ARGB32);
    const QImage second = b.convertToFormat(QImage::Format_ARGB32);
    const int width = std::max(first.width(), second.width());
    const int height = std::max(first.height(), second.height());
    QImage result(width, height, QImage::Format_ARGB32);
    qint64 count = 0;
    for (int y = 0; y < height; ++y) {
        auto *out = reinterpret_cast<QRgb *>(result.scanLine(y));
        const auto *left = y < first.height() ? reinterpret_cast<const QRgb *>(first.constScanLine(y)) : nullptr;
        const auto *right = y < second.height() ? reinterpret_cast<const QRgb *>(second.constScanLine(y)) : nullptr;
        for (int x = 0; x < width; ++x) {
            const bool inLeft = left && x < first.width();
            const bool inRight = right && x < second.width();
            if (inLeft && inRight && left[x] == right[x]) {
                // Faded towards white: 200..255, whatever the theme, so the red stands out.
                const int grey = 200 + qGray(left[x]) * 55 / 255;
                out[x] = qRgb(grey, grey, grey);
            } else {
                out[x] = kDifferingPixel;
                ++count;
            }
        }
    }
    if (differing) {
        *differing = count;
    }
    return result;
}

std::optional<PixelComparison> PixelComparison::of(const JournalArtifact &original, const JournalArtifact &other)
{
    PixelComparison comparison;
    comparison.name = original.name == other.name ? original.name : original.name + QStringLiteral(" · ") + other.name;
    comparison.original = decodeStored(original);
    comparison.other = decodeStored(other);
    if (comparison.original.isNull() || comparison.other.isNull()) {
        return std::nullopt;
    }
    comparison.difference = differenceImage(comparison.original, comparison.other, &comparison.differingPixels);
    comparison.totalPixels = qint64(comparison.difference.width()) * comparison.difference.height();
    return comparison;
}

QList<PixelComparison> PixelComparison::ofRuns(const QList<JournalArtifact> &original,
                                               const QList<JournalArtifact> &other, int limit)
{
    QHash<QString, const JournalArtifact *> byName;
    for (const JournalArtifact &artifact : other) {
        byName.insert(artifact.name, &artifact);
    }
    QList<PixelComparison> comparisons;
    for (const JournalArtifact &artifact : original) {
        if (comparisons.size() >= limit) {
            break;
        }
        const JournalArtifact *match = byName.value(artifact.name);
        if (!match || !artifact.mimeType.startsWith(QLatin1String("image/")) ||
            !match->mimeType.startsWith(QLatin1String("image/"))) {
            continue;
        }
        if (auto comparison = of(artifact, *match)) {
            comparisons.append(std::move(*comparison));
        }
    }
    return comparisons;
}

} // namespace sandbox::gui
