#pragma once

#include <QString>

namespace sandbox::gui {

/// The window's colours: the desktop's own, or Fusion with a light or dark palette.
class AppTheme final
{
public:
    enum class Mode
    {
        System,
        Light,
        Dark
    };

    /// Applies `mode` to the whole application. The desktop's style and palette are remembered on first use,
    /// so System restores them.
    static void apply(Mode mode);
    static Mode fromString(const QString &name);
    static QString toString(Mode mode);
};

} // namespace sandbox::gui
