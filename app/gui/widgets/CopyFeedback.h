#pragma once

class QAbstractButton;

namespace sandbox::gui {

/// Says on `button` that its copy worked: "Copied" for a moment, then its own text again (its width kept, so the
/// row does not jump).
void showCopied(QAbstractButton *button);

} // namespace sandbox::gui
