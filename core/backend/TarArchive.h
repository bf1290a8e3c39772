#pragma once

#include "backend/ContainerBackend.h"
#include "util/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sandbox {

/// Tar bodies for the engine's archive, build and import endpoints, made with libarchive.
namespace TarArchive {

/// An in-memory tar of `files` (owned by root, parent directories included).
Result<QByteArray> fromFiles(const QList<FileEntry> &files);

/// Writes a tar of the whole tree under `directory` (ownership, modes, links and device
/// nodes preserved: it is a root filesystem) to the file `tarPath`.
Result<void> writeDirectory(const QString &directory, const QString &tarPath);

} // namespace TarArchive

} // namespace sandbox
