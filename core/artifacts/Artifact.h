#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox {

/// A file the program produced in its output directory (a chart, an HTML page, ...).
struct Artifact
{
    QString name;     ///< file name relative to the output directory
    QString mimeType; ///< image/png, image/svg+xml, image/jpeg, image/gif, application/pdf, text/html, ...
    QByteArray data;
    QString path;     ///< where it was written on the host, when it was (run --artifacts-dir)

    qint64 size() const { return data.size(); }
};

} // namespace sandbox
