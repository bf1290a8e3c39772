#pragma once

#include <QEventLoop>
#include <QFuture>
#include <QFutureWatcher>

namespace sandbox {

/// The result of `future`, waited for in an event loop of the calling thread's own: for a command, whose thread runs
/// no loop yet, and for a thread whose answer comes through its own loop (QtKeychain answers on the thread that asked).
template <typename T>
T waitInEventLoop(QFuture<T> future)
{
    if (!future.isFinished()) {
        QEventLoop loop;
        QFutureWatcher<T> watcher;
        QObject::connect(&watcher, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit);
        watcher.setFuture(future);
        if (!future.isFinished()) {
            loop.exec();
        }
    }
    return future.result();
}

} // namespace sandbox
