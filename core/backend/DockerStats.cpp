#include "backend/DockerStats.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace sandbox {

namespace {

qint64 integer(const QJsonObject &object, const QString &key)
{
    return object.value(key).toInteger();
}

qint64 totalUsage(const QJsonObject &cpuStats)
{
    return integer(cpuStats.value(QStringLiteral("cpu_usage")).toObject(), QStringLiteral("total_usage"));
}

/// `docker stats`: the container's CPU time over the host's (all CPUs) in the same interval, times the CPUs.
double cpuCores(const QJsonObject &previous, const QJsonObject &current)
{
    const double cpuDelta = double(totalUsage(current) - totalUsage(previous));
    const double systemDelta = double(integer(current, QStringLiteral("system_cpu_usage")) -
                                      integer(previous, QStringLiteral("system_cpu_usage")));
    double onlineCpus = double(integer(current, QStringLiteral("online_cpus")));
    if (onlineCpus <= 0) {
        onlineCpus = double(current.value(QStringLiteral("cpu_usage"))
                                .toObject()
                                .value(QStringLiteral("percpu_usage"))
                                .toArray()
                                .size());
    }
    if (systemDelta <= 0 || cpuDelta <= 0) {
        return 0;
    }
    return cpuDelta / systemDelta * onlineCpus;
}

} // namespace

bool DockerStats::hasPreviousCpu(const QJsonObject &sample)
{
    return integer(sample.value(QStringLiteral("precpu_stats")).toObject(), QStringLiteral("system_cpu_usage")) > 0;
}

double DockerStats::cpuCoresBetween(const QJsonObject &earlier, const QJsonObject &later)
{
    const qint64 elapsed = nanosecondsSinceEpoch(later.value(QStringLiteral("read")).toString()) -
                           nanosecondsSinceEpoch(earlier.value(QStringLiteral("read")).toString());
    const qint64 used = totalUsage(later.value(QStringLiteral("cpu_stats")).toObject()) -
                        totalUsage(earlier.value(QStringLiteral("cpu_stats")).toObject());
    if (elapsed <= 0 || used <= 0) {
        return 0;
    }
    return double(used) / double(elapsed);
}

qint64 DockerStats::nanosecondsSinceEpoch(const QString &timestamp)
{
    static const QRegularExpression rfc3339(
        QStringLiteral(R"(^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$)"));
    const QRegularExpressionMatch match = rfc3339.match(timestamp);
    if (!match.hasMatch()) {
        return 0;
    }
    const QDateTime seconds = QDateTime::fromString(match.captured(1) + match.captured(3), Qt::ISODate);
    if (!seconds.isValid()) {
        return 0;
    }
    const qint64 fraction = match.captured(2).leftJustified(9, u'0').toLongLong();
    return seconds.toSecsSinceEpoch() * 1000000000LL + fraction;
}

ContainerStats DockerStats::fromSample(const QJsonObject &sample)
{
    ContainerStats stats;
    const QJsonObject memory = sample.value(QStringLiteral("memory_stats")).toObject();
    const QJsonObject breakdown = memory.value(QStringLiteral("stats")).toObject();
    const qint64 usage = integer(memory, QStringLiteral("usage"));
    // The docker CLI's calculateMemUsageUnixNoCache: inactive file pages are reclaimable, not the container's.
    const QJsonValue v1 = breakdown.value(QStringLiteral("total_inactive_file"));
    const qint64 v2 = integer(breakdown, QStringLiteral("inactive_file"));
    if (!v1.isUndefined() && v1.toInteger() < usage) {
        stats.memoryBytes = usage - v1.toInteger();
    } else if (v2 < usage) {
        stats.memoryBytes = usage - v2;
    } else {
        stats.memoryBytes = usage;
    }
    stats.memoryLimitBytes = integer(memory, QStringLiteral("limit"));
    const QJsonObject pids = sample.value(QStringLiteral("pids_stats")).toObject();
    stats.pids = pids.contains(QStringLiteral("current")) ? integer(pids, QStringLiteral("current")) : -1;
    if (hasPreviousCpu(sample)) {
        stats.cpuCores = cpuCores(sample.value(QStringLiteral("precpu_stats")).toObject(),
                                  sample.value(QStringLiteral("cpu_stats")).toObject());
    }
    stats.sampledAt = QDateTime::fromString(sample.value(QStringLiteral("read")).toString(), Qt::ISODateWithMs);
    if (!stats.sampledAt.isValid() || stats.sampledAt.date().year() < 2000) {
        stats.sampledAt = QDateTime::currentDateTimeUtc();
    }
    return stats;
}

} // namespace sandbox
