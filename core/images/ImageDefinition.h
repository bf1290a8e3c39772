#pragma once

#include "backend/ContainerBackend.h"

#include <QHash>
#include <QList>
#include <QString>

namespace sandbox {

/// One image of a build chain (rootfs -> base -> language runtime -> runner layer), tagged by
/// a hash of its definition and its parent, so an unchanged definition is never rebuilt.
struct ImageDefinition
{
    enum class Kind
    {
        Rootfs,     ///< debootstrap on the host, imported into the engine
        Dockerfile, ///< built by the engine from a context with a Dockerfile
        External    ///< a user-chosen image, used as it is (never built)
    };

    QString name; ///< rootfs, base, python-runtime, python, ...
    Kind kind = Kind::Dockerfile;
    QString reference; ///< llm-sandbox/NAME:HASH (or the user's image for External)
    QString hash;
    QList<FileEntry> context;          ///< Dockerfile build context, or rootfs.conf for Rootfs
    QHash<QString, QString> buildArgs; ///< BASE=<parent reference>
};

} // namespace sandbox
