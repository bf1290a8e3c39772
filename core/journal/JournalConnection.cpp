#include "journal/JournalConnection.h"

#include "journal/JournalSchema.h"
#include "util/PrivateFiles.h"

#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QSqlError>
#include <QThread>
#include <atomic>

Q_LOGGING_CATEGORY(lcJournal, "sandbox.journal")

namespace sandbox {

namespace {

constexpr int kBusyTimeoutMs = 5000;
constexpr int kWriteAttempts = 6;

QString nextConnectionName()
{
    static std::atomic<quint64> counter = 0;
    return QStringLiteral("sandbox-journal-%1").arg(++counter);
}

Error sqlError(const QString &what, const QSqlError &error)
{
    return Error{QStringLiteral("Run journal: %1 failed: %2").arg(what, error.text()), ErrorCode::Internal};
}

} // namespace

JournalConnection::JournalConnection(QString path) : m_path(std::move(path)), m_name(nextConnectionName()) {}

JournalConnection::~JournalConnection()
{
    if (m_database.isValid()) {
        m_database.close();
    }
    // removeDatabase() wants no QSqlDatabase copy left, this member included.
    m_database = QSqlDatabase();
    if (QSqlDatabase::contains(m_name)) {
        QSqlDatabase::removeDatabase(m_name);
    }
}

Result<void> JournalConnection::open(int schemaVersion)
{
    if (isOpen()) {
        return {};
    }
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE"))) {
        return Error{QStringLiteral("Run journal: Qt's SQLite driver is not installed (libqt6sql6-sqlite)."),
                     ErrorCode::Unavailable};
    }
    const QFileInfo file(m_path);
    if (!PrivateFiles::makeDirectory(file.absolutePath())) {
        return Error{QStringLiteral("Run journal: cannot create the folder %1.").arg(file.absolutePath()),
                     ErrorCode::BadRequest};
    }
    // The journal holds code, output and MCP exchanges: 0600, made so before SQLite creates it (SQLite gives its
    // -wal and -shm files the database's permissions). A journal of another user's is read as it is.
    if (!file.exists() || file.isWritable()) {
        PrivateFiles::restrict(file.absoluteFilePath());
        for (const char *suffix : {"-wal", "-shm"}) {
            if (QFile companion(file.absoluteFilePath() + QLatin1String(suffix)); companion.exists()) {
                companion.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            }
        }
    }
    m_database = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_name);
    m_database.setDatabaseName(file.absoluteFilePath());
    m_database.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(kBusyTimeoutMs));
    if (!m_database.open()) {
        return sqlError(QStringLiteral("opening %1").arg(m_path), m_database.lastError());
    }
    // WAL lets readers (the GUI, `history`) read while any process writes; NORMAL is durable across a process
    // crash, which is the failure that matters here.
    for (const QString &pragma :
         {QStringLiteral("PRAGMA journal_mode=WAL"), QStringLiteral("PRAGMA synchronous=NORMAL"),
          QStringLiteral("PRAGMA foreign_keys=ON")}) {
        if (auto done = exec(pragma); !done) {
            return done.error();
        }
    }
    return JournalSchema::migrate(*this, schemaVersion);
}

bool JournalConnection::isOpen() const
{
    return m_database.isValid() && m_database.isOpen();
}

bool JournalConnection::isBusy(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    // Extended codes keep the primary one in their low byte (517 = SQLITE_BUSY_SNAPSHOT).
    bool numeric = false;
    const int value = code.toInt(&numeric);
    if (numeric) {
        const int primary = value & 0xff;
        return primary == 5 || primary == 6;
    }
    return error.text().contains(QLatin1String("locked")) || error.text().contains(QLatin1String("busy"));
}

Result<QSqlQuery> JournalConnection::exec(const QString &sql, std::initializer_list<QVariant> values)
{
    return exec(sql, QVariantList(values));
}

Result<QSqlQuery> JournalConnection::exec(const QString &sql, const QVariantList &values)
{
    QSqlQuery query(m_database);
    query.setForwardOnly(true);
    m_lastFailureBusy = false;
    if (!query.prepare(sql)) {
        m_lastFailureBusy = isBusy(query.lastError());
        return sqlError(sql.simplified().left(60), query.lastError());
    }
    for (const QVariant &value : values) {
        // A null QString or QByteArray would bind as SQL NULL; the journal's text and blob columns hold ''.
        if (value.typeId() == QMetaType::QString && value.toString().isNull()) {
            query.addBindValue(QString(QLatin1String("")));
        } else if (value.typeId() == QMetaType::QByteArray && value.toByteArray().isNull()) {
            query.addBindValue(QByteArray(""));
        } else {
            query.addBindValue(value);
        }
    }
    if (!query.exec()) {
        m_lastFailureBusy = isBusy(query.lastError());
        return sqlError(sql.simplified().left(60), query.lastError());
    }
    return query;
}

Result<void> JournalConnection::write(const std::function<Result<void>()> &work)
{
    Error last;
    for (int attempt = 0; attempt < kWriteAttempts; ++attempt) {
        if (attempt > 0) {
            // The busy timeout has already waited; a short pause lets a long writer in another process finish.
            QThread::msleep(50 * attempt);
        }
        // IMMEDIATE takes the write lock first: a deferred transaction that upgrades later can fail at once in WAL
        // mode when another connection committed in between, and then waiting would not help.
        auto begun = exec(QStringLiteral("BEGIN IMMEDIATE"));
        if (!begun) {
            last = begun.error();
            if (m_lastFailureBusy) {
                continue;
            }
            return last;
        }
        Result<void> done = work();
        if (done) {
            auto committed = exec(QStringLiteral("COMMIT"));
            if (committed) {
                return {};
            }
            done = committed.error();
        }
        last = done.error();
        const bool busy = m_lastFailureBusy;
        (void)exec(QStringLiteral("ROLLBACK"));
        if (!busy) {
            return last;
        }
        qCDebug(lcJournal) << "journal busy, retrying:" << last.message;
    }
    return last;
}

JournalConnection::Snapshot::Snapshot(JournalConnection &connection)
    : m_connection(connection), m_begun(connection.exec(QStringLiteral("BEGIN")).ok())
{}

JournalConnection::Snapshot::~Snapshot()
{
    if (m_begun) {
        (void)m_connection.exec(QStringLiteral("COMMIT")); // nothing was written: this only ends the snapshot
    }
}

Result<qint64> JournalConnection::nextSeq()
{
    // Bumped inside the writer's IMMEDIATE transaction: sequence numbers grow in commit order across processes, so
    // a reader that asks for rows after the last one it saw never misses one.
    auto bumped = exec(QStringLiteral("UPDATE counters SET value = value + 1 WHERE name = 'seq'"));
    if (!bumped) {
        return bumped.error();
    }
    auto read = exec(QStringLiteral("SELECT value FROM counters WHERE name = 'seq'"));
    if (!read) {
        return read.error();
    }
    if (!read->next()) {
        return Error{QStringLiteral("Run journal: the sequence counter is missing."), ErrorCode::Internal};
    }
    return read->value(0).toLongLong();
}

Result<JournalConnection *> JournalConnection::openIfExists(const QString &path,
                                                            std::unique_ptr<JournalConnection> &connection)
{
    if (connection) {
        return connection.get();
    }
    if (!QFileInfo::exists(path)) {
        return static_cast<JournalConnection *>(nullptr);
    }
    auto made = std::make_unique<JournalConnection>(path);
    if (auto opened = made->open(); !opened) {
        return opened.error();
    }
    connection = std::move(made);
    return connection.get();
}

} // namespace sandbox
