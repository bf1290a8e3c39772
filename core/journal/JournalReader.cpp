#include "journal/JournalReader.h"

#include "journal/JournalConnection.h"
#include "journal/RunJournal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTimeZone>
#include <QVariant>

namespace sandbox {

namespace {

const QString kSummaryColumns = QStringLiteral(
    "id, seq, status, source, client_name, client_version, backend, endpoint, image, language, libraries, "
    "timeout_ms, session_id, replay_of, started_at, finished_at, duration_ms, exit_code, stop_reason, error, "
    "wall_ms, cpu_ms, peak_memory_kb, output_cap, output_truncated, settings, substr(code, 1, 200), error_code, "
    "cold_start, stop_requested_at IS NOT NULL, network_hosts, libraries_cached");
constexpr int kSummaryColumnCount = 32;

QDateTime fromMs(const QVariant &value)
{
    return value.isNull() ? QDateTime() : QDateTime::fromMSecsSinceEpoch(value.toLongLong(), QTimeZone::utc());
}

/// The runs table's shared_folders: a JSON array of SharedFolderUse, or empty.
QList<SharedFolderUse> sharedFoldersFrom(const QVariant &column)
{
    return SharedFolderUse::listFromJson(QJsonDocument::fromJson(column.toByteArray()).array());
}

JournalRun summaryFrom(const QSqlQuery &query)
{
    JournalRun run;
    run.id = query.value(0).toString();
    run.seq = query.value(1).toLongLong();
    run.status = runStatusFromString(query.value(2).toString()).value_or(RunStatus::Running);
    run.source = runSourceFromString(query.value(3).toString());
    run.clientName = query.value(4).toString();
    run.clientVersion = query.value(5).toString();
    run.backend = query.value(6).toString();
    run.endpoint = query.value(7).toString();
    run.image = query.value(8).toString();
    run.language = query.value(9).toString();
    for (const QJsonValue &library : QJsonDocument::fromJson(query.value(10).toString().toUtf8()).array()) {
        run.libraries << library.toString();
    }
    run.timeoutMs = query.value(11).toLongLong();
    run.sessionId = query.value(12).toString();
    run.replayOf = query.value(13).toString();
    run.startedAt = fromMs(query.value(14));
    run.finishedAt = fromMs(query.value(15));
    run.durationMs = query.value(16).toLongLong();
    if (!query.value(17).isNull()) {
        run.exitCode = query.value(17).toInt();
    }
    run.stopReason = stopReasonFromString(query.value(18).toString());
    run.error = query.value(19).toString();
    run.wallMs = query.value(20).toLongLong();
    run.cpuMs = query.value(21).toLongLong();
    run.peakMemoryKb = query.value(22).toLongLong();
    run.outputCap = query.value(23).toLongLong();
    run.outputTruncated = query.value(24).toInt() != 0;
    run.settings = QJsonDocument::fromJson(query.value(25).toString().toUtf8()).object();
    // A list shows the start of the code; the whole of it comes with run().
    run.code = query.value(26).toString();
    run.errorCode = errorCodeFromName(query.value(27).toString());
    run.coldStart = query.value(28).toInt() != 0;
    run.stopRequested = query.value(29).toInt() != 0;
    run.networkHosts = query.value(30).toString().split(u',', Qt::SkipEmptyParts);
    run.librariesCached = query.value(31).toInt() != 0;
    return run;
}

/// A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally.
QString containsPattern(QString text)
{
    text.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('%'), QLatin1String("\\%"))
        .replace(QLatin1Char('_'), QLatin1String("\\_"));
    return QLatin1Char('%') + text + QLatin1Char('%');
}

/// The WHERE clause of `filter` (empty when it matches everything) and its values in order.
QString whereClause(const RunFilter &filter, QVariantList &values)
{
    QStringList conditions;
    if (!filter.language.isEmpty()) {
        conditions << QStringLiteral("language = ?");
        values << filter.language;
    }
    if (filter.status) {
        conditions << QStringLiteral("status = ?");
        values << toString(*filter.status);
    }
    if (filter.outcome) {
        // JournalRun::outcome() in SQL.
        const QString ended = QStringLiteral("status = 'finished' AND ");
        switch (*filter.outcome) {
        case RunOutcome::Succeeded:
            conditions << ended + QStringLiteral("stop_reason = 'exit' AND exit_code = 0");
            break;
        case RunOutcome::ExitedWithError:
            conditions << ended + QStringLiteral("((stop_reason = 'exit' AND (exit_code IS NULL OR exit_code <> 0)) OR "
                                                 "stop_reason = 'compile_failed')");
            break;
        case RunOutcome::TimedOut:
            conditions << ended + QStringLiteral("stop_reason = 'timeout'");
            break;
        case RunOutcome::Stopped:
            conditions << ended + QStringLiteral("stop_reason NOT IN ('exit', 'timeout', 'compile_failed')");
            break;
        case RunOutcome::Failed:
            conditions << QStringLiteral("status NOT IN ('running', 'finished', 'interrupted')");
            break;
        case RunOutcome::Interrupted:
            conditions << QStringLiteral("status = 'interrupted'");
            break;
        case RunOutcome::Running:
            conditions << QStringLiteral("status = 'running'");
            break;
        }
    }
    if (!filter.sources.isEmpty()) {
        QStringList marks;
        for (const RunSource source : filter.sources) {
            marks << QStringLiteral("?");
            values << toString(source);
        }
        conditions << QStringLiteral("source IN (%1)").arg(marks.join(QLatin1Char(',')));
    }
    if (filter.from.isValid()) {
        conditions << QStringLiteral("started_at >= ?");
        values << filter.from.toMSecsSinceEpoch();
    }
    if (filter.to.isValid()) {
        conditions << QStringLiteral("started_at <= ?");
        values << filter.to.toMSecsSinceEpoch();
    }
    if (!filter.text.isEmpty()) {
        // Also the titles and axis labels of the run's charts (issue 50): their JSON is scanned as text first, and
        // only a chart that holds the text anywhere is parsed to see whether a title or label does.
        conditions << QStringLiteral(
            "(code LIKE ? ESCAPE '\\' OR CAST(stdout AS TEXT) LIKE ? ESCAPE '\\' OR CAST(stderr AS TEXT) LIKE ? ESCAPE "
            "'\\' OR id IN (SELECT a.run_id FROM artifacts a WHERE a.chart LIKE ? ESCAPE '\\' AND json_valid(a.chart) "
            "AND EXISTS (SELECT 1 "
            "FROM json_tree(a.chart) t WHERE t.key IN ('title', 'label') AND t.type = 'text' AND t.value LIKE ? "
            "ESCAPE '\\')))");
        const QString pattern = containsPattern(filter.text);
        values << pattern << pattern << pattern << pattern << pattern;
    }
    if (filter.sampled) {
        conditions << QStringLiteral("(status = 'running' OR id IN (SELECT run_id FROM run_samples))");
    }
    return conditions.isEmpty() ? QString() : QStringLiteral(" WHERE ") + conditions.join(QStringLiteral(" AND "));
}

Result<QList<JournalRun>> summaries(JournalConnection &connection, const QString &sql, const QVariantList &values)
{
    auto query = connection.exec(sql, values);
    if (!query) {
        return query.error();
    }
    QList<JournalRun> runs;
    while (query->next()) {
        runs.append(summaryFrom(*query));
    }
    return runs;
}

} // namespace

JournalReader::JournalReader(const QString &databasePath) : m_path(databasePath) {}

JournalReader::~JournalReader() = default;

Result<JournalConnection *> JournalReader::connection() const
{
    return JournalConnection::openIfExists(m_path, m_connection);
}

Result<QList<JournalArtifactEntry>> JournalReader::artifacts(const ArtifactFilter &filter, int limit) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<JournalArtifactEntry>();
    }
    // The runs' columns and the artifacts' have no name in common: the runs' clause applies to the join as it is.
    QVariantList values;
    QString where = whereClause(filter.runs, values);
    QStringList conditions;
    if (!filter.runId.isEmpty()) {
        conditions << QStringLiteral("run_id = ?");
        values << filter.runId;
    }
    if (!filter.connection.isEmpty()) {
        conditions << QStringLiteral("mcp_connection = ?");
        values << filter.connection;
    }
    if (filter.mimeType.endsWith(QLatin1Char('/'))) {
        conditions << QStringLiteral("substr(mime_type, 1, ?) = ?");
        values << filter.mimeType.size() << filter.mimeType;
    } else if (!filter.mimeType.isEmpty()) {
        conditions << QStringLiteral("mime_type = ?");
        values << filter.mimeType;
    }
    if (!conditions.isEmpty()) {
        where += (where.isEmpty() ? QStringLiteral(" WHERE ") : QStringLiteral(" AND ")) +
                 conditions.join(QStringLiteral(" AND "));
    }
    values << limit;
    auto query =
        (*connection)
            ->exec(QStringLiteral("SELECT run_id, position, started_at, language, source, client_name, name, "
                                  "file, mime_type, size, width, height, chart_title FROM artifacts JOIN runs ON "
                                  "runs.id = artifacts.run_id") +
                       where + QStringLiteral(" ORDER BY started_at DESC, run_id, position LIMIT ?"),
                   values);
    if (!query) {
        return query.error();
    }
    const QString folder = RunJournal::artifactsDirFor(m_path);
    QList<JournalArtifactEntry> entries;
    while (query->next()) {
        entries.append(JournalArtifactEntry{
            .runId = query->value(0).toString(),
            .position = query->value(1).toInt(),
            .startedAt = fromMs(query->value(2)),
            .language = query->value(3).toString(),
            .source = runSourceFromString(query->value(4).toString()),
            .clientName = query->value(5).toString(),
            .artifact = JournalArtifact{.name = query->value(6).toString(),
                                        .mimeType = query->value(8).toString(),
                                        .size = query->value(9).toLongLong(),
                                        .width = query->value(10).toInt(),
                                        .height = query->value(11).toInt(),
                                        .path = folder + QLatin1Char('/') + query->value(7).toString(),
                                        .chartTitle = query->value(12).toString()},
        });
    }
    return entries;
}

Result<QList<JournalRun>> JournalReader::list(const RunFilter &filter, int offset, int limit) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<JournalRun>();
    }
    QVariantList values;
    const QString where = whereClause(filter, values);
    values << limit << offset;
    return summaries(**connection,
                     QStringLiteral("SELECT %1 FROM runs%2 ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?")
                         .arg(kSummaryColumns, where),
                     values);
}

Result<int> JournalReader::count(const RunFilter &filter) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return 0;
    }
    QVariantList values;
    const QString where = whereClause(filter, values);
    auto query = (*connection)->exec(QStringLiteral("SELECT COUNT(*) FROM runs%1").arg(where), values);
    if (!query) {
        return query.error();
    }
    return query->next() ? query->value(0).toInt() : 0;
}

Result<JournalRun> JournalReader::run(const QString &id) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    const Error notFound{QStringLiteral("No run %1 in the journal.").arg(id), ErrorCode::NotFound};
    if (!*connection) {
        return notFound;
    }
    JournalConnection &db = **connection;
    const JournalConnection::Snapshot snapshot(db);
    JournalRun run;
    {
        auto query =
            db.exec(QStringLiteral("SELECT %1, code, stdout, stderr, shared_folders, network FROM runs WHERE id = ?")
                        .arg(kSummaryColumns),
                    {id});
        if (!query) {
            return query.error();
        }
        if (!query->next()) {
            return notFound;
        }
        run = summaryFrom(*query);
        run.code = query->value(kSummaryColumnCount).toString();
        run.stdoutData = query->value(kSummaryColumnCount + 1).toByteArray();
        run.stderrData = query->value(kSummaryColumnCount + 2).toByteArray();
        run.sharedFolders = sharedFoldersFrom(query->value(kSummaryColumnCount + 3));
        run.network = QJsonDocument::fromJson(query->value(kSummaryColumnCount + 4).toByteArray()).object();
    }
    auto artifacts = artifactsOf(db, id, 0);
    if (!artifacts) {
        return artifacts.error();
    }
    run.artifacts = *artifacts;
    auto saved = savedResultsOf(db, id);
    if (!saved) {
        return saved.error();
    }
    run.savedResults = *saved;
    if (auto exchange = readExchange(db, id, run); !exchange) {
        return exchange.error();
    }
    return run;
}

Result<QList<JournalArtifact>> JournalReader::artifactsOf(JournalConnection &db, const QString &id, int from) const
{
    auto query =
        db.exec(QStringLiteral("SELECT name, file, mime_type, size, width, height, chart_title, chart FROM artifacts "
                               "WHERE run_id = ? AND position >= ? ORDER BY position"),
                {id, from});
    if (!query) {
        return query.error();
    }
    const QString folder = RunJournal::artifactsDirFor(m_path);
    QList<JournalArtifact> artifacts;
    while (query->next()) {
        artifacts.append(JournalArtifact{.name = query->value(0).toString(),
                                         .mimeType = query->value(2).toString(),
                                         .size = query->value(3).toLongLong(),
                                         .width = query->value(4).toInt(),
                                         .height = query->value(5).toInt(),
                                         .path = folder + QLatin1Char('/') + query->value(1).toString(),
                                         .chartTitle = query->value(6).toString(),
                                         .chart = QJsonDocument::fromJson(query->value(7).toByteArray()).object()});
    }
    return artifacts;
}

Result<QList<SavedResult>> JournalReader::savedResults(const QString &id) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<SavedResult>();
    }
    return savedResultsOf(**connection, id);
}

Result<QList<SavedResult>> JournalReader::savedResultsOf(JournalConnection &db, const QString &id)
{
    auto query = db.exec(QStringLiteral("SELECT folder_name, folder_path, file_name, bytes, sha256, saved_at FROM "
                                        "saved_results WHERE run_id = ? ORDER BY rowid"),
                         {id});
    if (!query) {
        return query.error();
    }
    QList<SavedResult> saved;
    while (query->next()) {
        saved.append(SavedResult{.folderName = query->value(0).toString(),
                                 .folderPath = query->value(1).toString(),
                                 .fileName = query->value(2).toString(),
                                 .bytes = query->value(3).toLongLong(),
                                 .sha256 = query->value(4).toString(),
                                 .savedAt = fromMs(query->value(5))});
    }
    return saved;
}

Result<void> JournalReader::readExchange(JournalConnection &db, const QString &id, JournalRun &run)
{
    auto query =
        db.exec(QStringLiteral("SELECT protocol_version, request, response FROM mcp_exchanges WHERE run_id = ?"), {id});
    if (!query) {
        return query.error();
    }
    if (query->next()) {
        run.protocolVersion = query->value(0).toString();
        run.mcpRequest = QJsonDocument::fromJson(query->value(1).toString().toUtf8()).object();
        run.mcpResponse = QJsonDocument::fromJson(query->value(2).toString().toUtf8()).object();
    }
    return {};
}

Result<JournalRunUpdate> JournalReader::runSince(const QString &id, qint64 stdoutFrom, qint64 stderrFrom,
                                                 int artifactsFrom, bool withExchange) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    const Error notFound{QStringLiteral("No run %1 in the journal.").arg(id), ErrorCode::NotFound};
    if (!*connection) {
        return notFound;
    }
    JournalConnection &db = **connection;
    const JournalConnection::Snapshot snapshot(db);
    JournalRunUpdate update;
    {
        // The output columns are blobs (the recorder appends as blobs): length and substr count bytes.
        auto query = db.exec(QStringLiteral("SELECT %1, length(CAST(stdout AS BLOB)), length(CAST(stderr AS BLOB)), "
                                            "substr(CAST(stdout AS BLOB), ?), substr(CAST(stderr AS BLOB), ?), "
                                            "shared_folders, network FROM runs WHERE id = ?")
                                 .arg(kSummaryColumns),
                             {stdoutFrom + 1, stderrFrom + 1, id});
        if (!query) {
            return query.error();
        }
        if (!query->next()) {
            return notFound;
        }
        update.run = summaryFrom(*query);
        update.stdoutBytes = query->value(kSummaryColumnCount).toLongLong();
        update.stderrBytes = query->value(kSummaryColumnCount + 1).toLongLong();
        update.stdoutAdded = query->value(kSummaryColumnCount + 2).toByteArray();
        update.stderrAdded = query->value(kSummaryColumnCount + 3).toByteArray();
        update.run.sharedFolders = sharedFoldersFrom(query->value(kSummaryColumnCount + 4));
        // Written once, as the run ends: a live view shows the connections then.
        update.run.network = QJsonDocument::fromJson(query->value(kSummaryColumnCount + 5).toByteArray()).object();
    }
    // Whole each time: a few rows, and save_to_folder adds to them after the run.
    auto saved = savedResultsOf(db, id);
    if (!saved) {
        return saved.error();
    }
    update.run.savedResults = *saved;
    auto artifacts = artifactsOf(db, id, artifactsFrom);
    if (!artifacts) {
        return artifacts.error();
    }
    update.artifactsAdded = *artifacts;
    update.artifactCount = artifactsFrom + int(artifacts->size());
    if (withExchange) {
        if (auto exchange = readExchange(db, id, update.run); !exchange) {
            return exchange.error();
        }
        update.hasExchange = true;
    }
    return update;
}

Result<QList<JournalSample>> JournalReader::samples(const QString &id) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    QList<JournalSample> samples;
    if (!*connection) {
        return samples;
    }
    auto query = (*connection)
                     ->exec(QStringLiteral("SELECT at_ms, cpu_millicores, memory_bytes, memory_limit_bytes, pids FROM "
                                           "run_samples WHERE run_id = ? ORDER BY at_ms"),
                            {id});
    if (!query) {
        return query.error();
    }
    while (query->next()) {
        samples.append(JournalSample{.atMs = query->value(0).toLongLong(),
                                     .cpuCores = query->value(1).toDouble() / 1000,
                                     .memoryBytes = query->value(2).toLongLong(),
                                     .memoryLimitBytes = query->value(3).toLongLong(),
                                     .pids = query->value(4).toLongLong()});
    }
    return samples;
}

Result<QList<JournalRun>> JournalReader::changedSince(qint64 seq, int limit) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<JournalRun>();
    }
    auto runs = summaries(
        **connection, QStringLiteral("SELECT %1 FROM runs WHERE seq > ? ORDER BY seq, id LIMIT ?").arg(kSummaryColumns),
        {seq, limit});
    if (!runs || runs->size() < limit || runs->isEmpty()) {
        return runs;
    }
    // The rest of the last commit's group, so a caller that continues after its seq misses none of it.
    auto rest = summaries(
        **connection, QStringLiteral("SELECT %1 FROM runs WHERE seq = ? AND id > ? ORDER BY id").arg(kSummaryColumns),
        {runs->last().seq, runs->last().id});
    if (!rest) {
        return rest.error();
    }
    runs->append(*rest);
    return runs;
}

Result<qint64> JournalReader::latestSeq() const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return qint64(0);
    }
    auto query = (*connection)->exec(QStringLiteral("SELECT value FROM counters WHERE name = 'seq'"));
    if (!query) {
        return query.error();
    }
    return query->next() ? query->value(0).toLongLong() : 0;
}

Result<qint64> JournalReader::dataVersion() const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return qint64(0);
    }
    auto query = (*connection)->exec(QStringLiteral("PRAGMA data_version"));
    if (!query) {
        return query.error();
    }
    return query->next() ? query->value(0).toLongLong() : 0;
}

Result<QHash<QString, JournalRun>> JournalReader::runningByContainer() const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    QHash<QString, JournalRun> runs;
    if (!*connection) {
        return runs;
    }
    auto query =
        (*connection)
            ->exec(QStringLiteral("SELECT container_id, id, source, client_name, language, started_at FROM runs "
                                  "WHERE status = 'running' AND container_id != ''"));
    if (!query) {
        return query.error();
    }
    while (query->next()) {
        JournalRun run;
        run.id = query->value(1).toString();
        run.source = runSourceFromString(query->value(2).toString());
        run.clientName = query->value(3).toString();
        run.language = query->value(4).toString();
        run.startedAt = fromMs(query->value(5));
        runs.insert(query->value(0).toString(), run);
    }
    return runs;
}

} // namespace sandbox
