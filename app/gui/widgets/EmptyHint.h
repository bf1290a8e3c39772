#pragma once

#include <QLabel>

namespace sandbox::gui {

/// The quiet text a page shows in place of an empty list or table: what would be there and how to get it (or that a
/// filter hides it). Centred, wrapped to the width it is given, in the palette's disabled text colour.
inline QLabel *emptyHint(const QString &objectName)
{
    auto *hint = new QLabel;
    hint->setObjectName(objectName);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    hint->setMargin(24);
    hint->setEnabled(false);                                         // the palette's disabled text: a hint, not content
    hint->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // its text wraps to the list's width
    return hint;
}

} // namespace sandbox::gui
