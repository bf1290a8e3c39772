#include "gui/history/PixelComparison.h"

#include <QImage>

namespace sandbox::gui {

std::optional<bool> comparePixels(const JournalArtifact &original, const JournalArtifact &replay)
{
    if (original.path.isEmpty() || replay.path.isEmpty()) {
        return std::nullopt;
    }
    const QImage a(original.path);
    const QImage b(replay.path);
    if (a.isNull() || b.isNull()) {
        return std::nullopt;
    }
    if (a.size() != b.size()) {
        return false;
    }
    // The same picture may be stored as RGB in one file and with an alpha channel in the other.
    return a.convertToFormat(QImage::Format_ARGB32) == b.convertToFormat(QImage::Format_ARGB32);
}

} // namespace sandbox::gui
