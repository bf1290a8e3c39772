#pragma once

#include <QIcon>
#include <QPalette>
#include <QString>

namespace sandbox::gui {

/// An icon drawn from a one-colour SVG of resources/icons (strokes and fills "currentColor") in the colours of
/// `palette`: its window text, the highlighted text where the icon is selected, the disabled text where it is
/// disabled. Made again when the palette changes (the theme), it reads in light and dark alike.
QIcon themedIcon(const QString &resource, const QPalette &palette);

} // namespace sandbox::gui
