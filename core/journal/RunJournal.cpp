#include "journal/RunJournal.h"

#include "engine/OrphanReaper.h"
#include "journal/JournalConnection.h"
#include "journal/JournalSchema.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSet>
#include <QStandardPaths>
#include <QStringList>

Q_DECLARE_LOGGING_CATEGORY(lcJournal)

namespace sandbox {

RunJournal::RunJournal(std::unique_ptr<JournalConnection> connection) : m_connection(std::move(connection)) {}

RunJournal::~RunJournal() = default;

std::optional<QString> RunJournal::configuredPath()
{
    const QString configured = qEnvironmentVariable("LLM_SANDBOX_JOURNAL").trimmed();
    if (configured.compare(QLatin1String("off"), Qt::CaseInsensitive) == 0) {
        return std::nullopt;
    }
    if (!configured.isEmpty()) {
        return QFileInfo(configured).absoluteFilePath();
    }
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/journal.sqlite");
}

Result<std::unique_ptr<RunJournal>> RunJournal::open(const QString &path)
{
    auto connection = std::make_unique<JournalConnection>(path);
    if (auto opened = connection->open(); !opened) {
        return opened.error();
    }
    std::unique_ptr<RunJournal> journal(new RunJournal(std::move(connection)));
    if (auto marked = journal->markInterruptedRuns(); !marked) {
        return marked.error();
    }
    return journal;
}

QString RunJournal::path() const
{
    return m_connection->path();
}

QString RunJournal::artifactsDir() const
{
    return artifactsDirFor(path());
}

QString RunJournal::artifactsDirFor(const QString &databasePath)
{
    return QFileInfo(databasePath).absolutePath() + QStringLiteral("/artifacts");
}

QString RunJournal::safeFileName(const QString &name)
{
    QString safe = name;
    safe.replace(QLatin1Char('/'), QLatin1Char('_')).replace(QLatin1Char('\\'), QLatin1Char('_'));
    safe.remove(QChar(0));
    if (safe.isEmpty() || safe.startsWith(QLatin1Char('.'))) {
        safe.prepend(QStringLiteral("artifact"));
    }
    return safe.left(200);
}

int RunJournal::schemaVersion() const
{
    auto version = JournalSchema::version(*m_connection);
    return version ? *version : 0;
}

bool RunJournal::ownerAlive(const QString &owner)
{
    const std::optional<OrphanReaper::Owner> process = OrphanReaper::Owner::parse(owner);
    // No owner recorded: nobody is going to finish the run. Another machine's (or namespace's) is not ours to judge.
    return process && !OrphanReaper::ownerEnded(*process);
}

Result<int> RunJournal::requestStop(const QStringList &runIds, const QDateTime &now)
{
    int asked = 0;
    auto written = m_connection->write([&]() -> Result<void> {
        asked = 0;
        auto seq = m_connection->nextSeq();
        if (!seq) {
            return seq.error();
        }
        for (const QString &id : runIds) {
            // The sequence number changes too, so every window's feed sees the request.
            auto updated =
                m_connection->exec(QStringLiteral("UPDATE runs SET stop_requested_at = ?, seq = ? WHERE id = ? "
                                                  "AND status = 'running' AND stop_requested_at IS NULL"),
                                   {now.toMSecsSinceEpoch(), *seq, id});
            if (!updated) {
                return updated.error();
            }
            asked += updated->numRowsAffected();
        }
        return {};
    });
    if (!written) {
        return written.error();
    }
    return asked;
}

Result<int> RunJournal::markInterruptedRuns()
{
    auto running = m_connection->exec(QStringLiteral("SELECT id, owner FROM runs WHERE status = 'running'"));
    if (!running) {
        return running.error();
    }
    QStringList orphans;
    while (running->next()) {
        if (!ownerAlive(running->value(1).toString())) {
            orphans << running->value(0).toString();
        }
    }
    running->finish();
    if (orphans.isEmpty()) {
        return 0;
    }
    int marked = 0;
    auto written = m_connection->write([&]() -> Result<void> {
        marked = 0;
        auto seq = m_connection->nextSeq();
        if (!seq) {
            return seq.error();
        }
        for (const QString &id : orphans) {
            // Checked again under the lock: the owner may have finished the run since.
            auto updated =
                m_connection->exec(QStringLiteral("UPDATE runs SET status = 'interrupted', seq = ?, "
                                                  "error = 'The process recording this run ended before the run did.' "
                                                  "WHERE id = ? AND status = 'running'"),
                                   {*seq, id});
            if (!updated) {
                return updated.error();
            }
            marked += updated->numRowsAffected();
        }
        return {};
    });
    if (!written) {
        return written.error();
    }
    if (marked > 0) {
        qCInfo(lcJournal) << "marked" << marked << "run(s) of ended processes as interrupted";
    }
    return marked;
}

Result<int> RunJournal::applyRetention(const Retention &retention, const QDateTime &now)
{
    const qint64 cutoff = now.toMSecsSinceEpoch() - std::chrono::milliseconds(retention.maxAge).count();
    auto runs = m_connection->exec(QStringLiteral("SELECT id, started_at, stored_bytes, status FROM runs "
                                                  "ORDER BY started_at DESC, id DESC"));
    if (!runs) {
        return runs.error();
    }
    QStringList doomed;
    qint64 total = 0;
    while (runs->next()) {
        total += runs->value(2).toLongLong();
        if (runs->value(3).toString() == QLatin1String("running")) {
            continue;
        }
        if (runs->value(1).toLongLong() < cutoff || total > retention.maxTotalBytes) {
            doomed << runs->value(0).toString();
        }
    }
    runs->finish();
    if (doomed.isEmpty()) {
        return 0;
    }
    auto written = m_connection->write([&]() -> Result<void> {
        for (const QString &id : doomed) {
            // Artifacts and the MCP exchange go with the row (ON DELETE CASCADE).
            if (auto deleted = m_connection->exec(QStringLiteral("DELETE FROM runs WHERE id = ?"), {id}); !deleted) {
                return deleted.error();
            }
        }
        return {};
    });
    if (!written) {
        return written.error();
    }
    const QString artifacts = artifactsDir();
    for (const QString &id : doomed) {
        QDir(artifacts + QLatin1Char('/') + safeFileName(id)).removeRecursively();
    }
    qCInfo(lcJournal) << "retention removed" << doomed.size() << "run(s)";
    return int(doomed.size());
}

} // namespace sandbox
