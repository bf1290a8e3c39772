#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox::cli {

/// One line typed on the terminal after `prompt` (on stderr), without echo when `secret`; echo comes back however the
/// command ends.
QString promptLine(const QString &prompt, bool secret);
/// A secret for a command: typed without echo after `prompt` on a terminal, else all of stdin without its final line
/// break (as `docker login --password-stdin` reads it). Never an argument: those show in `ps` and shell histories.
QByteArray readSecret(const QString &prompt);

} // namespace sandbox::cli
