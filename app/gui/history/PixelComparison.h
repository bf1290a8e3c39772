#pragma once

#include "journal/JournalRun.h"

#include <QImage>
#include <QList>
#include <optional>

namespace sandbox::gui {

/// RunDiff's pixel comparator: decodes both stored images (SafeImage) and compares their pixels in one format;
/// nullopt when either is no image that can be decoded (HTML, CSV, a missing file).
std::optional<bool> comparePixels(const JournalArtifact &original, const JournalArtifact &replay);

/// Two pictures of the same name in two runs, decoded, and where their pixels differ: what DiffView shows side by
/// side, one over the other and as the difference. Made on the journal feed's thread (decoding is slow).
struct PixelComparison
{
    QString name;
    QImage original, other; ///< as decoded, ARGB32
    QImage difference;      ///< differenceImage(original, other)
    qint64 differingPixels = 0;
    qint64 totalPixels = 0; ///< of the difference image

    /// The comparison of two stored artifacts; nullopt when either is no decodable image.
    static std::optional<PixelComparison> of(const JournalArtifact &original, const JournalArtifact &other);
    /// The comparisons of every artifact the two runs both have as an image (RunDiff's pairs by name), at most
    /// `limit` of them.
    static QList<PixelComparison> ofRuns(const QList<JournalArtifact> &original, const QList<JournalArtifact> &other,
                                         int limit = 12);
};

/// Where `a` and `b` differ: the size of both together, each pixel that is the same in both faded to a light grey
/// (the picture stays recognisable), each that differs (or lies outside one of them) in strong red. `*differing`
/// receives how many differ.
QImage differenceImage(const QImage &a, const QImage &b, qint64 *differing = nullptr);

/// The colour differenceImage() marks differing pixels with.
inline constexpr QRgb kDifferingPixel = 0xffe0103c;

} // namespace sandbox::gui
