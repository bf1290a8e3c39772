#pragma once

#include "backend/ContainerBackend.h"
#include "util/Result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <chrono>

namespace sandbox {

/// Asks an image something by running one short command in a throw-away container (no network, removed
/// afterwards): the version of its language when it is built, what it really contains in tests.
class ImageProbe final
{
public:
    /// The standard output of `command` run in `image`; an error when the container cannot be created or the
    /// command does not finish within `timeout`.
    static Result<QByteArray> run(ContainerBackend &backend, const QString &image, const QStringList &command,
                                  std::chrono::milliseconds timeout = std::chrono::seconds(60));

    /// The first version number ("3.13.5", "1.24.4", "21.0.8") in a version command's output; empty if none.
    static QString versionIn(const QByteArray &output);

    ImageProbe() = delete;
};

} // namespace sandbox
