#include "journal/JournalStatistics.h"

#include "journal/JournalConnection.h"

#include <QSqlQuery>
#include <QVariant>
#include <algorithm>
#include <map>

namespace sandbox {

namespace {

/// The value at `fraction` (0..1) of sorted `values`, by the nearest rank.
qint64 quantile(const QList<qint64> &sorted, double fraction)
{
    const qsizetype index = qsizetype(fraction * double(sorted.size() - 1) + 0.5);
    return sorted.at(std::clamp<qsizetype>(index, 0, sorted.size() - 1));
}

} // namespace

int DailyOutcomes::total() const
{
    int sum = 0;
    for (const int count : counts) {
        sum += count;
    }
    return sum;
}

JournalStatistics::JournalStatistics(QString databasePath) : m_path(std::move(databasePath)) {}

JournalStatistics::~JournalStatistics() = default;

Result<JournalConnection *> JournalStatistics::connection() const
{
    return JournalConnection::openIfExists(m_path, m_connection);
}

RunOutcome JournalStatistics::outcomeOf(const QString &status, const QString &stopReason, const QVariant &exitCode)
{
    return runOutcomeOf(runStatusFromString(status).value_or(RunStatus::Failed), stopReasonFromString(stopReason),
                        exitCode.isNull() ? std::nullopt : std::optional<int>(exitCode.toInt()));
}

Result<QList<DailyOutcomes>> JournalStatistics::outcomesPerDay(const QDateTime &from, const QDateTime &to) const
{
    QList<DailyOutcomes> days;
    for (QDate day = from.toLocalTime().date(); day < to.toLocalTime().date().addDays(1); day = day.addDays(1)) {
        days.append(DailyOutcomes{.day = day});
    }
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection || days.isEmpty()) {
        return days;
    }
    auto query = (*connection)
                     ->exec(QStringLiteral("SELECT started_at, status, stop_reason, exit_code FROM runs "
                                           "WHERE started_at >= ? AND started_at < ?"),
                            {from.toMSecsSinceEpoch(), to.toMSecsSinceEpoch()});
    if (!query) {
        return query.error();
    }
    const QDate first = days.first().day;
    while (query->next()) {
        const QDate day = QDateTime::fromMSecsSinceEpoch(query->value(0).toLongLong()).toLocalTime().date();
        const qint64 index = first.daysTo(day);
        if (index >= 0 && index < days.size()) {
            const RunOutcome outcome =
                outcomeOf(query->value(1).toString(), query->value(2).toString(), query->value(3));
            ++days[index].counts[int(outcome)];
        }
    }
    return days;
}

Result<QList<DurationSummary>> JournalStatistics::durationsByLanguage(const QDateTime &from, const QDateTime &to) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<DurationSummary>();
    }
    auto query = (*connection)
                     ->exec(QStringLiteral("SELECT language, cold_start, duration_ms FROM runs WHERE status = "
                                           "'finished' AND started_at >= ? AND started_at < ? ORDER BY language, "
                                           "cold_start, duration_ms"),
                            {from.toMSecsSinceEpoch(), to.toMSecsSinceEpoch()});
    if (!query) {
        return query.error();
    }
    std::map<std::pair<QString, bool>, QList<qint64>> byLanguage;
    while (query->next()) {
        byLanguage[{query->value(0).toString(), query->value(1).toInt() != 0}].append(query->value(2).toLongLong());
    }
    QList<DurationSummary> summaries;
    for (const auto &[key, durations] : byLanguage) {
        summaries.append(DurationSummary{.language = key.first,
                                         .coldStart = key.second,
                                         .count = int(durations.size()),
                                         .minimum = durations.first(),
                                         .lowerQuartile = quantile(durations, 0.25),
                                         .median = quantile(durations, 0.5),
                                         .upperQuartile = quantile(durations, 0.75),
                                         .maximum = durations.last()});
    }
    return summaries;
}

Result<QList<RunCount>> JournalStatistics::countsBy(const QString &column, bool bySource, const QString &condition,
                                                    const QDateTime &from, const QDateTime &to) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<RunCount>();
    }
    const QString groups = bySource ? column + QStringLiteral(", source") : column;
    auto query = (*connection)
                     ->exec(QStringLiteral("SELECT %1, count(*) AS n FROM runs WHERE started_at >= ? AND "
                                           "started_at < ?%2 GROUP BY %1 ORDER BY n DESC, %1")
                                .arg(groups, condition),
                            {from.toMSecsSinceEpoch(), to.toMSecsSinceEpoch()});
    if (!query) {
        return query.error();
    }
    QList<RunCount> counts;
    while (query->next()) {
        counts.append(RunCount{.key = query->value(0).toString(),
                               .count = query->value(bySource ? 2 : 1).toInt(),
                               .source = bySource ? query->value(1).toString() : QString()});
    }
    return counts;
}

Result<QList<RunCount>> JournalStatistics::runsBySource(const QDateTime &from, const QDateTime &to) const
{
    return countsBy(QStringLiteral("source"), false, QString(), from, to);
}

Result<QList<RunCount>> JournalStatistics::runsByClient(const QDateTime &from, const QDateTime &to) const
{
    // An assistant is an MCP client whether it started `llm-sandbox --mcp` (stdio) or reached the app's server.
    return countsBy(QStringLiteral("client_name"), true, QStringLiteral(" AND source IN ('mcp', 'http')"), from, to);
}

Result<QList<RunCount>> JournalStatistics::runsByHost(const QDateTime &from, const QDateTime &to, int limit) const
{
    auto connection = this->connection();
    if (!connection) {
        return connection.error();
    }
    if (!*connection) {
        return QList<RunCount>();
    }
    // Each run's hosts are distinct in its row ("api.test,pypi.org"): a host counts once per run.
    auto query = (*connection)
                     ->exec(QStringLiteral("SELECT network_hosts FROM runs WHERE started_at >= ? AND started_at < ? "
                                           "AND network_hosts != ''"),
                            {from.toMSecsSinceEpoch(), to.toMSecsSinceEpoch()});
    if (!query) {
        return query.error();
    }
    std::map<QString, int> runsPerHost;
    while (query->next()) {
        for (const QString &host : query->value(0).toString().split(u',', Qt::SkipEmptyParts)) {
            ++runsPerHost[host];
        }
    }
    QList<RunCount> counts;
    for (const auto &[host, runs] : runsPerHost) {
        counts.append(RunCount{.key = host, .count = runs});
    }
    // Stable: hosts with as many runs stay in the order of their names.
    std::stable_sort(counts.begin(), counts.end(),
                     [](const RunCount &a, const RunCount &b) { return a.count > b.count; });
    if (limit >= 0 && counts.size() > limit) {
        counts.resize(limit);
    }
    return counts;
}

} // namespace sandbox
