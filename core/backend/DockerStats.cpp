#include "backend/DockerStats.h"

#include <QJsonArray>

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
    return cpuCores(earlier.value(QStringLiteral("cpu_stats")).toObject(),
                    later.value(QStringLiteral("cpu_stats")).toObject());
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
