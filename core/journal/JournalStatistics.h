#pragma once

#include "util/Result.h"

#include <QDate>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QVariant>
#include <memory>

namespace sandbox {

class JournalConnection;

/// How a run ended, as the statistics count it.
enum class RunOutcome
{
    Succeeded, ///< exited with 0
    ExitedWithError,
    TimedOut,
    Stopped, ///< cancelled, out of memory, a CPU or output limit
    Failed,  ///< could not run (infrastructure), or interrupted
    Running,
};

/// Runs that started on one day (local time), by outcome.
struct DailyOutcomes
{
    QDate day;
    int counts[6] = {}; ///< by RunOutcome
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
    /// The MCP runs of [from, to) per client name ("" for none given), most first.
    Result<QList<RunCount>> runsByClient(const QDateTime &from, const QDateTime &to) const;

    /// The outcome of a run as the journal keeps it.
    static RunOutcome outcomeOf(const QString &status, const QString &stopReason, const QVariant &exitCode);

private:
    Result<JournalConnection *> connection() const;
    Result<QList<RunCount>> countsBy(const QString &column, const QString &condition, const QDateTime &from,
                                     const QDateTime &to) const;

    const QString m_path;
    mutable std::unique_ptr<JournalConnection> m_connection;
};

} // namespace sandbox
