#pragma once

#include <QString>

namespace sandbox {

/// The MIME type of an artifact, from its file name (charts have a small, fixed set of types).
QString mimeTypeForFileName(const QString &fileName);

} // namespace sandbox
