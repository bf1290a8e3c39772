#include "journal/JournalSchema.h"

#include "journal/JournalConnection.h"

namespace sandbox {

namespace {

/// Each entry is one migration; never edit a published one, append a new one instead.
const QList<QStringList> &migrations()
{
    static const QList<QStringList> all = {
        // 1: runs, their artifacts and the sequence counter. The big columns come last: a summary reads the
        // leading columns of a row without touching the overflow pages that hold code and output.
        {
            QStringLiteral("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)"),
            QStringLiteral("INSERT INTO counters (name, value) VALUES ('seq', 0)"),
            QStringLiteral(R"(CREATE TABLE runs (
                id TEXT PRIMARY KEY,
                seq INTEGER NOT NULL,
                status TEXT NOT NULL,
                source TEXT NOT NULL DEFAULT '',
                client_name TEXT NOT NULL DEFAULT '',
                client_version TEXT NOT NULL DEFAULT '',
                backend TEXT NOT NULL DEFAULT '',
                endpoint TEXT NOT NULL DEFAULT '',
                image TEXT NOT NULL DEFAULT '',
                language TEXT NOT NULL DEFAULT '',
                libraries TEXT NOT NULL DEFAULT '[]',
                timeout_ms INTEGER NOT NULL DEFAULT 0,
                session_id TEXT NOT NULL DEFAULT '',
                replay_of TEXT NOT NULL DEFAULT '',
                owner TEXT NOT NULL DEFAULT '',
                started_at INTEGER NOT NULL,
                finished_at INTEGER,
                duration_ms INTEGER NOT NULL DEFAULT 0,
                exit_code INTEGER,
                stop_reason TEXT NOT NULL DEFAULT '',
                error TEXT NOT NULL DEFAULT '',
                wall_ms INTEGER NOT NULL DEFAULT 0,
                cpu_ms INTEGER NOT NULL DEFAULT 0,
                peak_memory_kb INTEGER NOT NULL DEFAULT 0,
                output_cap INTEGER NOT NULL DEFAULT 0,
                output_truncated INTEGER NOT NULL DEFAULT 0,
                stored_bytes INTEGER NOT NULL DEFAULT 0,
                settings TEXT NOT NULL DEFAULT '{}',
                code TEXT NOT NULL DEFAULT '',
                stdout BLOB NOT NULL DEFAULT x'',
                stderr BLOB NOT NULL DEFAULT x''
            ))"),
            QStringLiteral("CREATE INDEX runs_by_start ON runs (started_at, id)"),
            QStringLiteral("CREATE INDEX runs_by_seq ON runs (seq)"),
            QStringLiteral(R"(CREATE TABLE artifacts (
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                name TEXT NOT NULL,
                file TEXT NOT NULL,
                mime_type TEXT NOT NULL DEFAULT '',
                size INTEGER NOT NULL DEFAULT 0,
                width INTEGER NOT NULL DEFAULT 0,
                height INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (run_id, position)
            ))"),
        },
        // 2: the MCP tool call and reply of a run, and indexes for the history's filters (each ends in the
        // ordering column, so a filtered page is read in order without sorting).
        {
            QStringLiteral(R"(CREATE TABLE mcp_exchanges (
                run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
                protocol_version TEXT NOT NULL DEFAULT '',
                request TEXT NOT NULL DEFAULT '{}',
                response TEXT NOT NULL DEFAULT '{}'
            ))"),
            QStringLiteral("CREATE INDEX runs_by_language ON runs (language, started_at, id)"),
            QStringLiteral("CREATE INDEX runs_by_status ON runs (status, started_at, id)"),
            QStringLiteral("CREATE INDEX runs_by_source ON runs (source, started_at, id)"),
        },
        // 3: the error's code (not only its English text), whether the run waited for a container to start, and
        // the CPU and memory of a run's container over time (RunObserver::runSample), one row per sample.
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN error_code TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE runs ADD COLUMN cold_start INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral(R"(CREATE TABLE run_samples (
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                at_ms INTEGER NOT NULL,
                cpu_millicores INTEGER NOT NULL,
                memory_bytes INTEGER NOT NULL,
                memory_limit_bytes INTEGER NOT NULL DEFAULT 0,
                pids INTEGER NOT NULL DEFAULT -1,
                PRIMARY KEY (run_id, at_ms)
            ) WITHOUT ROWID)"),
        },
        // 4: the container a run's program executes in (RunObserver::runContainer): the Backends page tells the
        // sandboxes running a run from the warm ones by it.
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN container_id TEXT NOT NULL DEFAULT ''"),
        },
        // 5: the MCP connection that asked for a run (RunRequest::connection): only it reads the run's files back as
        // resources, and the server needs no list of its runs in memory.
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN mcp_connection TEXT NOT NULL DEFAULT ''"),
        },
        // 6: when a person asked to stop a run from the desktop app (RunJournal::requestStop), whichever process runs
        // it: that process's recorder finds the request and stops the run (UserStops).
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN stop_requested_at INTEGER"),
        },
        // 7: the files llm-sandbox saved into the user's shared folders for a run (ResultWriter; issue 47), in the
        // order they were saved. The files are the user's: retention removes these rows with their run, never the
        // files.
        {
            QStringLiteral(R"(CREATE TABLE saved_results (
                run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                folder_name TEXT NOT NULL,
                folder_path TEXT NOT NULL DEFAULT '',
                file_name TEXT NOT NULL,
                bytes INTEGER NOT NULL DEFAULT 0,
                sha256 TEXT NOT NULL DEFAULT '',
                saved_at INTEGER NOT NULL
            ))"),
            QStringLiteral("CREATE INDEX saved_results_by_run ON saved_results (run_id)"),
        },
        // 8: the shared folders a run could read (RunResult::sharedFolders: name, writable, files, bytes, skipped), as
        // a JSON array; empty for a run that had none.
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN shared_folders TEXT NOT NULL DEFAULT ''"),
        },
        // 9: what a chart shows (ChartData, issue 50), as its JSON, and its title for the lists that show it.
        {
            QStringLiteral("ALTER TABLE artifacts ADD COLUMN chart TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE artifacts ADD COLUMN chart_title TEXT NOT NULL DEFAULT ''"),
        },
        // 10: a run's network (issue 48): what it was allowed and every request its egress proxy logged, as
        // networkToJson()'s JSON, and the hosts it asked for, distinct, comma-separated, for the lists that mark it;
        // both empty for a run without network.
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN network TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE runs ADD COLUMN network_hosts TEXT NOT NULL DEFAULT ''"),
        },
        // 11: whether a run's libraries came from the library cache instead of an install (issue 49).
        {
            QStringLiteral("ALTER TABLE runs ADD COLUMN libraries_cached INTEGER NOT NULL DEFAULT 0"),
        },
    };
    return all;
}

} // namespace

QStringList JournalSchema::migration(int version)
{
    return migrations().value(version - 1);
}

int JournalSchema::latestVersion()
{
    return int(migrations().size());
}

Result<int> JournalSchema::version(JournalConnection &connection)
{
    auto query = connection.exec(QStringLiteral("PRAGMA user_version"));
    if (!query) {
        return query.error();
    }
    return query->next() ? query->value(0).toInt() : 0;
}

Result<void> JournalSchema::migrate(JournalConnection &connection, int targetVersion)
{
    auto current = version(connection);
    if (!current) {
        return current.error();
    }
    if (*current > latestVersion()) {
        return Error{QStringLiteral("Run journal %1 was written by a newer llm-sandbox (schema %2; this one knows %3).")
                         .arg(connection.path())
                         .arg(*current)
                         .arg(latestVersion()),
                     ErrorCode::Unavailable};
    }
    for (int next = *current + 1; next <= targetVersion; ++next) {
        auto applied = connection.write([&]() -> Result<void> {
            // Another process may have applied it since we looked: the version is read again under the lock.
            auto now = version(connection);
            if (!now) {
                return now.error();
            }
            if (*now >= next) {
                return {};
            }
            for (const QString &statement : migration(next)) {
                if (auto done = connection.exec(statement); !done) {
                    return done.error();
                }
            }
            if (auto done = connection.exec(QStringLiteral("PRAGMA user_version = %1").arg(next)); !done) {
                return done.error();
            }
            return {};
        });
        if (!applied) {
            return applied.error();
        }
    }
    return {};
}

} // namespace sandbox
