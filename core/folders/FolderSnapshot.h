#pragma once

#include "folders/SharedFolder.h"
#include "util/Result.h"

#include <QList>
#include <QString>

namespace sandbox {

/// What a sandbox reads at /data/NAME: llm-sandbox's own copy of a shared folder, made as the user and brought up to
/// date before each run, mounted read-only. A copy, not the folder itself, because a sandbox runs as a uid of its own
/// (rootful engines) or a sub-uid (rootless Podman) that could not read the user's 0600 files, and llm-sandbox never
/// changes the owner, mode or ACLs of the user's files. The copy holds regular files (0644) and folders (0755) only:
/// a symbolic link (wherever it points), a file with more than one hard link (its other names may be outside the
/// folder), a FIFO, socket or device, and whatever another file system mounted inside the folder holds, are left out
/// and listed as skipped. Nothing is followed: every name is opened with O_NOFOLLOW relative to its parent's
/// descriptor, so a link swapped in while the copy is made is not followed either.
class FolderSnapshot final
{
public:
    struct Limits
    {
        qint64 maxFiles = 100'000;
        qint64 maxBytes = 8LL * 1024 * 1024 * 1024;
    };
    struct Skipped
    {
        QString path;   ///< relative to the folder
        QString reason; ///< "a symbolic link", "a hard link", …
    };
    struct Report
    {
        QString view; ///< the copy's folder on the host: what the sandbox mounts
        qint64 files = 0;
        qint64 bytes = 0;
        qint64 copied = 0; ///< files copied by this update (new or changed)
        /// How many updates, by any process, changed the copy: a sandbox that holds a copy of it (Kubernetes) holds
        /// the folder as it is while this stays the same.
        qint64 version = 0;
        QList<Skipped> skipped;
    };

    struct File
    {
        QString path; ///< relative to the folder
        qint64 size = 0;
    };
    /// What a sandbox would find in `folder` (the files update() copies), without copying anything: for the model to
    /// learn what is there (list_shared_folders).
    static Result<QList<File>> list(const SharedFolder &folder, const Limits &limits,
                                    QList<Skipped> *skipped = nullptr);

    /// Where the copies are kept: /var/tmp/llm-sandbox-UID/shared (0700, the user's own; on disk, and no user name in
    /// the path a sandbox can see in its mount table).
    static QString root();
    /// The copy of `folder` (a folder of root() named after its name and path).
    static QString viewOf(const SharedFolder &folder, const QString &root = FolderSnapshot::root());

    /// Makes the copy's folder if it is not there (empty until update()), so that a sandbox can mount it; empty when
    /// it cannot be made.
    static QString makeView(const SharedFolder &folder, const QString &root = FolderSnapshot::root());
    /// Brings the copy of `folder` up to date: new and changed files (by size and modification time) copied, what
    /// the folder no longer has removed. A folder over `limits` is an error that says which limit, nothing changed.
    /// Updates of one copy, by any process, take turns (a lock file beside it).
    static Result<Report> update(const SharedFolder &folder, const Limits &limits,
                                 const QString &root = FolderSnapshot::root());

    FolderSnapshot() = delete;
};

} // namespace sandbox
