#pragma once

#include <QFontDatabase>
#include <QPlainTextEdit>

namespace sandbox::gui {

/// A read-only text box in the fixed-width font, without line wrapping: how every view shows output and messages.
inline QPlainTextEdit *readOnlyText(const QString &objectName)
{
    auto *edit = new QPlainTextEdit;
    edit->setObjectName(objectName);
    edit->setReadOnly(true);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    return edit;
}

} // namespace sandbox::gui
