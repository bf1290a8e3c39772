#pragma once

#include "journal/JournalRun.h"

#include <optional>

namespace sandbox::gui {

/// RunDiff's pixel comparator: decodes both stored images with QImage and compares their pixels in one
/// format; nullopt when either is no image QImage can read (HTML, SVG without the plugin, a missing file).
std::optional<bool> comparePixels(const JournalArtifact &original, const JournalArtifact &replay);

} // namespace sandbox::gui
