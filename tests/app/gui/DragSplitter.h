#pragma once

#include <QApplication>
#include <QMouseEvent>
#include <QSplitter>
#include <QSplitterHandle>

namespace sandbox::gui::guitest {

/// Drags the handle between a splitter's two panes with the mouse, as the user does (QSplitter::setSizes() is not a
/// user's move), so that its first pane ends `at` pixels along.
inline void dragSplitter(QSplitter &splitter, int at)
{
    QSplitterHandle *handle = splitter.handle(1);
    const QPoint grip = handle->rect().center();
    const auto send = [handle](QEvent::Type type, QPoint global, Qt::MouseButtons buttons) {
        QMouseEvent event(type, handle->mapFromGlobal(global), global,
                          type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(handle, &event);
    };
    const bool beside = splitter.orientation() == Qt::Horizontal;
    const QPoint from = handle->mapToGlobal(grip);
    const QPoint handleAt = splitter.mapToGlobal(beside ? QPoint(at, 0) : QPoint(0, at));
    const QPoint to = beside ? QPoint(handleAt.x() + grip.x(), from.y()) : QPoint(from.x(), handleAt.y() + grip.y());
    send(QEvent::MouseButtonPress, from, Qt::LeftButton);
    send(QEvent::MouseMove, to, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, to, Qt::NoButton);
}

} // namespace sandbox::gui::guitest
