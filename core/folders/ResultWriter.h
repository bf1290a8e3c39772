#pragma once

#include "folders/SavedResult.h"
#include "folders/SharedFolder.h"
#include "util/Result.h"

#include <QByteArray>
#include <QString>

class QIODevice;

namespace sandbox {

/// How much llm-sandbox saves into the user's folders for one run.
struct ResultLimits
{
    qint64 maxFileBytes = 100LL * 1024 * 1024;  ///< per saved file
    int maxFiles = 100;                         ///< files per run
    qint64 maxTotalBytes = 500LL * 1024 * 1024; ///< all files of a run together
};

/// Saves one run's results into the user's writable shared folders: llm-sandbox writes them itself, never the sandbox.
/// Each file is a new regular file with mode 0644 owned by the user running llm-sandbox, under a safe plain name
/// (checkName()) directly in the folder; it is written under a temporary name in the same folder and then given its
/// name without replacing anything, so nobody sees half a file and an existing file stays as it was: the result gets
/// the next free name instead ("summary (2).csv"), unless `overwrite` is asked. The folder is opened without following
/// symbolic links at any step, and the file created in it by name relative to that (*at calls), so neither a link
/// where the folder was nor one at the file's name leads the write elsewhere. One instance counts one run's files and
/// bytes against ResultLimits; it is used by one thread at a time.
class ResultWriter final
{
public:
    explicit ResultWriter(ResultLimits limits = {});

    /// Counts `files` of `bytes` saved for the run before (by another call: save_to_folder reads them from the
    /// journal).
    void countEarlier(int files, qint64 bytes);

    /// Saves `bytes` as `name` in `folder`. An error (BadRequest: the folder is read-only, the name or what is at it is
    /// refused; LimitReached: a limit named; Internal: the file system failed) says in one sentence what was refused
    /// and why, naming the folder as the sandbox sees it (/data/NAME), never its host path.
    Result<SavedResult> save(const SharedFolder &folder, const QString &name, const QByteArray &bytes,
                             bool overwrite = false);
    /// The same for `size` bytes read from `content` (open for reading), in pieces: a large file is never held whole.
    /// A device that gives more than `size` bytes is refused.
    Result<SavedResult> save(const SharedFolder &folder, const QString &name, QIODevice &content, qint64 size,
                             bool overwrite = false);

    /// Files and bytes this run has saved (with those countEarlier() was told of).
    int files() const { return m_files; }
    qint64 bytes() const { return m_bytes; }
    const ResultLimits &limits() const { return m_limits; }

    /// Whether `name` may name a saved result: not empty, at most 255 bytes of UTF-8, no '/' or '\\' (no subfolders),
    /// not starting with '.' (no dot files, no ".."), no control characters, line breaks or direction overrides, not
    /// starting or ending with a space, not ending with a dot. The error says which rule `name` breaks.
    static Result<void> checkName(const QString &name);
    /// The name a result asked to be saved as `name` gets when that is taken, for `attempt` 2, 3, ...:
    /// "summary (2).csv", "archive (2).tar.gz", ".." kept within 255 bytes.
    static QString numberedName(const QString &name, int attempt);

private:
    ResultLimits m_limits;
    int m_files = 0;
    qint64 m_bytes = 0;
};

} // namespace sandbox
