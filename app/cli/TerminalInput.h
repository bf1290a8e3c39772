#pragma once

#include <QByteArray>
#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>
#include <QString>

namespace sandbox::cli {

/// One line typed on the terminal after `prompt` (on stderr), without echo when `secret`; echo comes back however the
/// command ends.
QString promptLine(const QString &prompt, bool secret);
/// A secret for a command: typed without echo after `prompt` on a terminal, else all of stdin without its final line
/// break (as `docker login --password-stdin` reads it). Never an argument: those show in `ps` and shell histories.
QByteArray readSecret(const QString &prompt);

/// The keychain's answer. QtKeychain answers through the event loop; a command has nothing else to do meanwhile, and
/// no loop runs yet that this one could nest in.
template <typename T>
T waitForKeychain(QFuture<T> future)
{
    QEventLoop loop;
    QFutureWatcher<T> watcher;
    QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(future);
    if (!future.isFinished()) {
        loop.exec();
    }
    return future.result();
}

} // namespace sandbox::cli
