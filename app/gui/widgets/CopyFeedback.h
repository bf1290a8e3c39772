#pragma once

#include <chrono>

class QAbstractButton;
class QString;

namespace sandbox::gui {

/// Says on `button` that its copy worked: "Copied" for a moment, then its own text again (its width kept, so the
/// row does not jump).
void showCopied(QAbstractButton *button);

/// How long a secret stays on the clipboard: KeePassXC's 10 s are short for opening an assistant's settings.
inline constexpr std::chrono::seconds kSecretOnClipboard{30};
/// Puts `text`, which holds a secret (the server's token), on the clipboard and takes it off again after
/// `clearAfter`, unless something else was copied meanwhile: it does not wait there for whatever pastes next.
void copySecret(const QString &text, std::chrono::milliseconds clearAfter = kSecretOnClipboard);

} // namespace sandbox::gui
