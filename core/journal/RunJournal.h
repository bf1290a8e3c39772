#pragma once

#include "util/Result.h"

#include <QDateTime>
#include <QString>
#include <chrono>
#include <memory>
#include <optional>

namespace sandbox {

class JournalConnection;

/// The run journal's database: where it is, its schema and migrations, retention. Every face (GUI, CLI, --mcp,
/// serve --http) records into the same file; JournalRecorder writes, JournalReader reads (JournalFeed for a window, off
/// its thread). An instance is used by the thread that opened it.
class RunJournal final
{
public:
    /// LLM_SANDBOX_JOURNAL: a file path, or "off" (then nullopt: the journal is disabled);
    /// by default QStandardPaths::AppDataLocation + "/journal.sqlite".
    static std::optional<QString> configuredPath();

    /// Opens the journal at `path`, creating or migrating it, and marks the runs whose recording process has
    /// ended (killed, crashed) as Interrupted.
    static Result<std::unique_ptr<RunJournal>> open(const QString &path);
    ~RunJournal();

    RunJournal(const RunJournal &) = delete;
    RunJournal &operator=(const RunJournal &) = delete;

    QString path() const;
    /// Where artifact files are stored: `<folder of the database>/artifacts`, one folder per run.
    QString artifactsDir() const;
    int schemaVersion() const;

    struct Retention
    {
        std::chrono::days maxAge{30};
        qint64 maxTotalBytes = 1024LL * 1024 * 1024; ///< code, output and artifacts of all runs together
    };
    /// Removes finished runs older than `maxAge` and, oldest first, those beyond `maxTotalBytes`, with their
    /// artifact files. Running runs are kept. Returns how many runs were removed.
    Result<int> applyRetention(const Retention &retention, const QDateTime &now = QDateTime::currentDateTimeUtc());

    /// Marks the Running runs whose owner process (host:pid:start time) has ended as Interrupted; open() does it.
    /// Returns how many were marked.
    Result<int> markInterruptedRuns();

    /// A person asks to stop the runs `runIds` that are in progress, whichever process runs them: that process's
    /// JournalRecorder finds the request within a moment and stops the run, which then reads "stopped by you"
    /// (StopReason::StoppedByUser). Returns how many runs were asked (those still running and not asked before).
    Result<int> requestStop(const QStringList &runIds, const QDateTime &now = QDateTime::currentDateTimeUtc());

    /// The artifacts folder of the journal at `databasePath`.
    static QString artifactsDirFor(const QString &databasePath);
    /// `name` made into one plain file name (no folders, no leading dot), safe to join to a folder.
    static QString safeFileName(const QString &name);
    /// Whether the process named by an owner identity (ExecutionEngine::ownerIdentity()) still runs. An owner on
    /// another machine, boot or PID namespace, or of another user, counts as alive: it is not ours to judge.
    static bool ownerAlive(const QString &owner);

private:
    explicit RunJournal(std::unique_ptr<JournalConnection> connection);

    std::unique_ptr<JournalConnection> m_connection;
};

} // namespace sandbox
