#pragma once

#include "backend/ContainerBackend.h"

#include <QJsonObject>

namespace sandbox {

/// The numbers of a container stats answer (GET /containers/{id}/stats, Docker's and Podman's compatible API),
/// computed as the docker CLI's `docker stats` computes them.
class DockerStats final
{
public:
    /// One sample: memory in use without the inactive file cache (cgroup v1 `total_inactive_file`, v2
    /// `inactive_file`), the memory limit, pids, the time it was read, and CPU use from `cpu_stats` against
    /// `precpu_stats` (0 when the answer has no previous reading: see hasPreviousCpu()).
    static ContainerStats fromSample(const QJsonObject &sample);
    /// Whether `sample` carries the engine's previous CPU reading: Docker takes two readings a second apart for
    /// stream=false; Podman sends one.
    static bool hasPreviousCpu(const QJsonObject &sample);
    /// CPU use in cores between two samples of the same container, `earlier` taken before `later`: the CPU time
    /// used over the time between their readings (`read`), as `podman stats` computes it. Not over the growth of
    /// `system_cpu_usage`: Podman on cgroup v1 reports the host's busy time there (the root cgroup's cpuacct.usage),
    /// not its elapsed time on all CPUs, which would make a busy loop on an idle host look like two cores.
    static double cpuCoresBetween(const QJsonObject &earlier, const QJsonObject &later);
    /// Nanoseconds since the epoch of an engine's RFC 3339 time with up to nine fractional digits
    /// ("2026-11-30T20:48:59.644563767Z"); 0 when it is not one.
    static qint64 nanosecondsSinceEpoch(const QString &timestamp);
};

} // namespace sandbox
