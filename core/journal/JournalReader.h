#pragma once

#include "journal/JournalRun.h"
#include "util/Result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <memory>

namespace sandbox {

class JournalConnection;

/// The read side of the run journal. One instance per thread: it holds its own SQLite connection (opened on
/// first use; a journal that does not exist yet reads as empty). Reads see what any process has committed.
class JournalReader final
{
public:
    explicit JournalReader(const QString &databasePath);
    ~JournalReader();

    JournalReader(const JournalReader &) = delete;
    JournalReader &operator=(const JournalReader &) = delete;

    /// Runs matching `filter`, newest first, as summaries: no stdout/stderr/artifacts/mcp fields, and only the
    /// first 200 characters of the code (enough for a list's code column).
    Result<QList<JournalRun>> list(const RunFilter &filter, int offset, int limit) const;
    Result<int> count(const RunFilter &filter) const;
    /// One run with everything (code, output, artifacts, saved results, MCP exchange); ErrorCode::NotFound for an
    /// unknown id.
    Result<JournalRun> run(const QString &id) const;
    /// What run `id` gained after `stdoutFrom` and `stderrFrom` bytes of output and `artifactsFrom` artifacts: only
    /// the added bytes and artifacts are read (a running run's 2 MiB of output is not read again per change); with
    /// `withExchange`, its MCP exchange too. ErrorCode::NotFound for an unknown id.
    Result<JournalRunUpdate> runSince(const QString &id, qint64 stdoutFrom, qint64 stderrFrom, int artifactsFrom,
                                      bool withExchange) const;
    /// The runs in progress whose program executes in a container now (RunObserver::runContainer), by the
    /// container's id, each with its id, source, client, language and start.
    Result<QHash<QString, JournalRun>> runningByContainer() const;
    /// The files llm-sandbox saved into shared folders for run `id` (ResultWriter), in the order they were saved; none
    /// for an unknown id.
    Result<QList<SavedResult>> savedResults(const QString &id) const;
    /// The CPU and memory samples of run `id`'s container, in time order (none for a short run).
    Result<QList<JournalSample>> samples(const QString &id) const;
    /// Artifacts matching `filter`, of the newest runs first (a run's in their order), at most `limit`.
    Result<QList<JournalArtifactEntry>> artifacts(const ArtifactFilter &filter, int limit) const;
    /// Summaries of runs changed after `seq` (seq ascending), and the newest seq in the journal. Runs changed in
    /// one commit share a seq; the list never ends inside such a group, so it may hold a few more than `limit`.
    Result<QList<JournalRun>> changedSince(qint64 seq, int limit = 500) const;
    Result<qint64> latestSeq() const;
    /// SQLite's PRAGMA data_version of this reader's connection: it changes when another connection commits.
    Result<qint64> dataVersion() const;

private:
    /// The connection, opened on first use; nullptr while the journal file does not exist.
    Result<JournalConnection *> connection() const;

    /// Run `id`'s artifacts from position `from` on.
    Result<QList<JournalArtifact>> artifactsOf(JournalConnection &db, const QString &id, int from) const;
    static Result<QList<SavedResult>> savedResultsOf(JournalConnection &db, const QString &id);
    /// Run `id`'s MCP exchange, if it has one, into `run`.
    static Result<void> readExchange(JournalConnection &db, const QString &id, JournalRun &run);

    const QString m_path;
    mutable std::unique_ptr<JournalConnection> m_connection;
};

} // namespace sandbox
