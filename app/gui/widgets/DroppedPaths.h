#pragma once

#include <QMimeData>
#include <QStringList>
#include <QUrl>

namespace sandbox::gui {

/// The local files and folders a drag carries (its file: URLs); empty when it carries none.
inline QStringList droppedPaths(const QMimeData *data)
{
    QStringList paths;
    if (data && data->hasUrls()) {
        for (const QUrl &url : data->urls()) {
            if (url.isLocalFile()) {
                paths << url.toLocalFile();
            }
        }
    }
    return paths;
}

} // namespace sandbox::gui
