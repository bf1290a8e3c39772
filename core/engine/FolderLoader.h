#pragma once

#include "backend/ContainerBackend.h"
#include "util/Result.h"

#include <functional>

namespace sandbox {

/// Copies the host folders of a container that its backend cannot mount (ContainerBackend::mountsHostFolders() is
/// false: a pod runs on a node) into the volumes that stand for them, over the runner protocol: the backend's folder
/// loader (an init container that mounts them writable) gets each regular file with put_file; when its stream closes
/// the loader ends and the sandbox starts with the volumes read-only.
class FolderLoader final
{
public:
    /// What one sandbox may take: a folder larger is refused with its size, not copied in part.
    static constexpr qint64 kMaxBytes = 2LL * 1024 * 1024 * 1024;
    /// A file larger than this does not fit one request line of the runner (256 MiB of base64 at most).
    static constexpr qint64 kMaxFileBytes = 128LL * 1024 * 1024;

    /// Copies the sources of `binds` (the shared folders' copies, FolderSnapshot: regular files and folders only)
    /// into the created container `containerId`, saying how far it is through `progress` about once a second.
    static Result<void> load(ContainerBackend &backend, const QString &containerId, const QList<BindMount> &binds,
                             const std::function<void(const QString &)> &progress);

    FolderLoader() = delete;
};

} // namespace sandbox
