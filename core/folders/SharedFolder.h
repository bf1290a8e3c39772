#pragma once

#include "util/Result.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace sandbox {

/// A folder of the user's that sandboxes may read at /data/NAME: shared by the user (Settings → Folders, `run --share`,
/// LLM_SANDBOX_SHARE), never by a model. What a sandbox sees is a snapshot llm-sandbox takes of it (FolderSnapshot):
/// never the host folder itself, its absolute path or its owner. A writable folder also takes the run's results,
/// written by llm-sandbox after the run (ResultWriter), never by the sandbox.
struct SharedFolder
{
    QString path;          ///< the host folder, absolute and canonical
    QString name;          ///< its name in the sandbox: /data/NAME (nameIsValid)
    bool writable = false; ///< results may be saved here

    /// "/data/NAME".
    [[nodiscard]] QString mountPath() const;
    /// The form parse() reads: "PATH:NAME" or "PATH:NAME:rw" ("PATH:NAME:ro" for a read-only folder named "rw" or
    /// "ro").
    [[nodiscard]] QString text() const;

    /// Whether `name` can name a folder in the sandbox: 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'
    /// or '-'.
    static bool nameIsValid(const QString &name);
    /// A valid name for the folder at `path`: its last component with other characters made '-' ("folder" when nothing
    /// is left).
    static QString defaultName(const QString &path);

    /// Reads "PATH[:NAME][:rw|:ro]" (as `run --share` takes it): the folder must exist and be readable, and may not be
    /// the file system's root, the user's home folder itself or a system folder (/proc, /sys, /dev, /etc, /run,
    /// /boot). A PATH that contains ':' needs a NAME.
    static Result<SharedFolder> parse(const QString &text);
    /// Reads a list of parse()'s entries separated by ';' or new lines (LLM_SANDBOX_SHARE); names must differ.
    static Result<QList<SharedFolder>> parseList(const QString &text);
    /// The text parseList() reads back.
    static QString listText(const QList<SharedFolder> &folders);

    friend bool operator==(const SharedFolder &, const SharedFolder &) = default;
};

/// What a run was given of a shared folder, for its result and the journal (never the host path).
struct SharedFolderUse
{
    QString name;
    bool writable = false;
    qint64 files = 0;
    qint64 bytes = 0;
    qint64 skipped = 0; ///< links, special files and the like left out of the sandbox's copy

    /// As run results and the journal carry it: {"name", "path": "/data/NAME", "writable", "files", "bytes",
    /// "skipped"}.
    [[nodiscard]] QJsonObject toJson() const;
    static SharedFolderUse fromJson(const QJsonObject &json);
    /// A list of them as an array of toJson()'s objects, and back (anything but such an array reads as none).
    static QJsonArray listToJson(const QList<SharedFolderUse> &folders);
    static QList<SharedFolderUse> listFromJson(const QJsonArray &json);

    friend bool operator==(const SharedFolderUse &, const SharedFolderUse &) = default;
};

} // namespace sandbox
