#pragma once

#include "backend/ContainerBackend.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbox {

/// A limit the container spec asked for that the runner did not find in force.
struct UnenforcedLimit
{
    QString name;      ///< one of EnforcedLimits::limitNames()
    QString requested; ///< what the spec asked for, readable ("512 MiB")
    QString found;     ///< what the runner found ("no limit")
};

/// The limits actually in force in a sandbox container, as its runner read them from inside at start-up (the
/// `limits` object of the runner's ready message, runner/PROTOCOL.md). An engine can drop a limit silently (rootless
/// Podman on cgroup v1 ignores memory and pids limits); comparing these with the spec is how the engine notices.
struct EnforcedLimits
{
    bool reported = false;             ///< false: the runner sent no `limits` (an image built with an older runner)
    int cgroupVersion = 0;             ///< 1, 2, or 0 when the container sees no cgroup filesystem
    std::optional<qint64> memoryBytes; ///< absent: no limit
    std::optional<qint64> pids;
    std::optional<double> cpus;
    QMap<QString, std::optional<qint64>> rlimits; ///< soft limits by name (nofile, nproc, fsize, core, cpu)
    QStringList networkInterfaces;
    int uid = -1;
    int gid = -1;
    bool readOnlyRoot = false;
    /// The runner's hardening from /proc/self/status: seccomp mode (2: a filter), no_new_privs, and the capability
    /// sets ("effective", "permitted", "bounding", "ambient") as masks. Absent: the runner did not report them.
    std::optional<int> seccompMode;
    std::optional<bool> noNewPrivs;
    QMap<QString, quint64> capabilities;

    /// From the ready message's `limits`; an empty object gives `reported` false.
    static EnforcedLimits fromJson(const QJsonObject &json);
    /// The same object as the runner sends (also `enforced_limits` of a result and in the journal).
    QJsonObject toJson() const;

    /// The limits `spec` asks for that are not in force: memory, pids, cpus, network (only `lo` when the network
    /// mode is none), user (non-root), read_only_root, ulimits (nofile, nproc, fsize, core), and the hardening:
    /// seccomp (a filter unless the spec says unconfined or privileged), no_new_privs (when its security options
    /// ask for it), capabilities (every set empty when it drops ALL).
    QList<UnenforcedLimit> compare(const ContainerSpec &spec) const;

    /// The names compare() uses, which SANDBOX_ALLOW_UNENFORCED_LIMITS accepts.
    static QStringList limitNames();

private:
    void compareHardening(const ContainerSpec &spec, QList<UnenforcedLimit> &missing) const;
};

} // namespace sandbox
