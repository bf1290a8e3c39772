#pragma once

#include "journal/JournalSchema.h"
#include "util/Result.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariant>
#include <functional>
#include <initializer_list>
#include <memory>

namespace sandbox {

/// One SQLite connection to the journal, under a name of its own, used by the thread that made it only.
/// Sets up WAL, a busy timeout and foreign keys; writes go through write(), which retries while another process
/// holds the database.
class JournalConnection final
{
public:
    explicit JournalConnection(QString path);
    ~JournalConnection();

    JournalConnection(const JournalConnection &) = delete;
    JournalConnection &operator=(const JournalConnection &) = delete;

    /// A reader's connection to `path`, made and opened in `connection` on first use; nullptr while the journal file
    /// does not exist yet (it reads as empty).
    static Result<JournalConnection *> openIfExists(const QString &path,
                                                    std::unique_ptr<JournalConnection> &connection);

    /// Opens the file (creating its folder), sets the pragmas and brings the schema up to `schemaVersion` (tests
    /// make old journals with a lower one).
    Result<void> open(int schemaVersion = JournalSchema::latestVersion());
    bool isOpen() const;
    QSqlDatabase &database() { return m_database; }
    const QString &path() const { return m_path; }

    /// Runs `work` inside BEGIN IMMEDIATE ... COMMIT; when the database stays busy beyond the busy timeout the
    /// whole transaction is rolled back and tried again a few times. `work` must be safe to repeat.
    Result<void> write(const std::function<Result<void>()> &work);

    /// A read transaction for as long as it lives: every query on the connection meanwhile sees the journal as it was
    /// at the first one (WAL keeps that snapshot while other processes commit), so a run's row and its children
    /// (artifacts, saved results, the MCP exchange) read together always agree. Without it each query sees the latest
    /// commit, and a run read while its end is being written can come out half old, half new.
    class Snapshot final
    {
    public:
        explicit Snapshot(JournalConnection &connection);
        ~Snapshot();
        Snapshot(const Snapshot &) = delete;
        Snapshot &operator=(const Snapshot &) = delete;

    private:
        JournalConnection &m_connection;
        bool m_begun = false;
    };

    /// A prepared query with `values` bound in order, executed. Errors carry `what`.
    Result<QSqlQuery> exec(const QString &sql, std::initializer_list<QVariant> values = {});
    Result<QSqlQuery> exec(const QString &sql, const QVariantList &values);

    /// Inside write(): bumps the journal-wide sequence number and returns the new value.
    Result<qint64> nextSeq();

    /// Whether `error` means another connection holds the database (SQLITE_BUSY / SQLITE_LOCKED).
    static bool isBusy(const QSqlError &error);

private:
    QString m_path;
    QString m_name;
    QSqlDatabase m_database;
    bool m_lastFailureBusy = false; ///< the last exec() failed because another connection held the database
};

} // namespace sandbox
