#pragma once

#include <QByteArray>
#include <QString>

namespace sandbox {

/// The MIME type of an artifact, from its file name (charts have a small, fixed set of types).
QString mimeTypeForFileName(const QString &fileName);

/// The MIME type from the file name or, when the name says nothing (no or an unknown
/// extension), from the first bytes: a chart saved as "plot" is still a PNG.
QString mimeTypeForContent(const QString &fileName, const QByteArray &data);

} // namespace sandbox
