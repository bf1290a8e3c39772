#pragma once

#include <QString>

namespace sandbox {

/// Files that hold what sandboxes ran and produced (the journal, artifacts) are the user's alone, whatever the
/// process's umask: folders 0700, files 0600.
class PrivateFiles final
{
public:
    /// Creates `path` and any missing parents; each folder this call creates is 0700. An existing folder is left as
    /// it is (it may be shared, /tmp say). False when the folder cannot be made.
    static bool makeDirectory(const QString &path);
    /// Writes `data` to `path` as a whole (QSaveFile) with 0600: the file is never readable by others, not even
    /// while it is being written. False, with the reason in `error` when given, when it cannot be written.
    static bool write(const QString &path, const QByteArray &data, QString *error = nullptr);
    /// Creates `path` empty with 0600 if it does not exist, and makes an existing one 0600.
    static bool restrict(const QString &path);

    PrivateFiles() = delete;
};

} // namespace sandbox
