#pragma once

#include "journal/JournalRun.h"
#include "util/Result.h"

#include <QDate>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <memory>

namespace sandbox {

class JournalConnection;

/// Runs that started on one day (local time), by outcome.
struct DailyOutcomes
{
    QDate day;
    int counts[kRunOutcomeCount] = {}; ///< by RunOutcome
    int total() const;
};

/// The durations of one language's finished runs that started a container (cold) or found one warm, in
/// milliseconds: a box plot's five numbers and the count.
struct DurationSummary
{
    QString language;
    bool coldStart = false;
    int count = 0;
    qint64 minimum = 0, lowerQuartile = 0, median = 0, upperQuartile = 0, maximum = 0;
};

/// How many runs one source (or MCP client) started.
struct RunCount
{
    QString key;
    int count = 0;
    QString source; ///< runsByClient(): how the client connected, "mcp" (stdio) or "http"
};

/// The numbers of the statistics page, from the journal, each in one query (no SQL outside core/journal). One
/// instance per thread, like JournalReader; a journal that does not exist yet has no runs.
class JournalStatistics final
{
public:
    explicit JournalStatistics(QString databasePath);
    ~JournalStatistics();

    /// Runs that started in [from, to), per day (every day in between, also the empty ones).
    Result<QList<DailyOutcomes>> outcomesPerDay(const QDateTime &from, const QDateTime &to) const;
    /// Per language, of the runs that started in [from, to) and ran (exited, timed out or stopped), by language name,
    /// warm runs before cold starts.
    Result<QList<DurationSummary>> durationsByLanguage(const QDateTime &from, const QDateTime &to) const;
    /// Runs that started in [from, to) per source ("mcp", "cli", ...), most first.
    Result<QList<RunCount>> runsBySource(const QDateTime &from, const QDateTime &to) const;
    /// The MCP runs of [from, to), over stdio ("mcp") and over HTTP ("http"), per client name ("" for none given) and
    /// transport, most first.
    Result<QList<RunCount>> runsByClient(const QDateTime &from, const QDateTime &to) const;
    /// The hosts the runs that started in [from, to) asked their egress proxy for (runs.network_hosts): how many runs
    /// asked for each, most first (then by name), at most `limit` of them.
    Result<QList<RunCount>> runsByHost(const QDateTime &from, const QDateTime &to, int limit = 10) const;

    /// The outcome of a run as the journal keeps it.
    static RunOutcome outcomeOf(const QString &status, const QString &stopReason, const QVariant &exitCode);

private:
    Result<JournalConnection *> connection() const;
    /// Runs of [from, to) that match `condition` per value of `column` (and of `source` when `bySource`).
    Result<QList<RunCount>> countsBy(const QString &column, bool bySource, const QString &condition,
                                     const QDateTime &from, const QDateTime &to) const;

    const QString m_path;
    mutable std::unique_ptr<JournalConnection> m_connection;
};

} // namespace sandbox
