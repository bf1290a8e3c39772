#include "engine/GVisorRuntime.h"

#include <QFileInfo>
#include <QLocale>

namespace sandbox {

bool GVisorRuntime::isGVisor(const OciRuntime &runtime)
{
    return QFileInfo(runtime.handler).fileName() == QLatin1String("runsc") || runtime.name == QLatin1String("runsc");
}

QString GVisorRuntime::platform(const OciRuntime &runtime)
{
    QString platform = QStringLiteral("ptrace");
    for (qsizetype i = 0; i < runtime.arguments.size(); ++i) {
        const QString &argument = runtime.arguments.at(i);
        for (const QString &prefix : {QStringLiteral("--platform="), QStringLiteral("-platform=")}) {
            if (argument.startsWith(prefix)) {
                platform = argument.mid(prefix.size());
            }
        }
        if ((argument == QLatin1String("--platform") || argument == QLatin1String("-platform")) &&
            i + 1 < runtime.arguments.size()) {
            platform = runtime.arguments.at(i + 1);
        }
    }
    return platform;
}

QString GVisorRuntime::description(const OciRuntime &runtime)
{
    return QStringLiteral("gVisor, platform %1: a kernel of its own per sandbox; the seccomp profile is not loaded "
                          "inside it (gVisor's own filter confines its Sentry)")
        .arg(platform(runtime));
}

GVisorRuntime::Assessment GVisorRuntime::assess(const ContainerSpec &spec, const EnforcedLimits &limits,
                                                const QList<UnenforcedLimit> &missing,
                                                std::optional<qint64> outsideMemoryLimit)
{
    Assessment assessment;
    QStringList notes;
    const bool noCapabilities = limits.capabilities.value(QStringLiteral("effective"), 1) == 0 &&
                                limits.capabilities.value(QStringLiteral("permitted"), 1) == 0 &&
                                limits.capabilities.value(QStringLiteral("bounding"), 1) == 0;
    for (const UnenforcedLimit &limit : missing) {
        if (limit.name == QLatin1String("seccomp") && limits.seccompMode == 0) {
            notes << QStringLiteral("seccomp: the profile is not applied inside gVisor; its Sentry serves the "
                                    "sandbox's system calls and runs under gVisor's own seccomp filter");
        } else if (limit.name == QLatin1String("capabilities") && noCapabilities &&
                   !limits.capabilities.contains(QStringLiteral("ambient"))) {
            // gVisor's status has no CapAmb line; the ambient set is a subset of the permitted one, which is empty.
            continue;
        } else if (limit.name == QLatin1String("no_new_privs") && !limits.noNewPrivs) {
            notes << QStringLiteral("no_new_privs: asked for in the container's OCI spec, not verifiable inside "
                                    "gVisor (its /proc has no NoNewPrivs)");
        } else if (limit.name == QLatin1String("read_only_root") && limits.reported) {
            notes << QStringLiteral("read-only root: asked for in the container's OCI spec, not verifiable by "
                                    "statfs inside gVisor");
        } else if (limit.name == QLatin1String("memory") && limits.cgroupVersion == 0 && outsideMemoryLimit &&
                   *outsideMemoryLimit <= spec.memoryBytes) {
            notes << QStringLiteral("memory: %1 on the whole sandbox's cgroup on the host (Sentry included)")
                         .arg(QLocale::c().formattedDataSize(*outsideMemoryLimit, 0, QLocale::DataSizeIecFormat));
        } else if (limit.name == QLatin1String("pids") && limits.cgroupVersion == 0) {
            notes << QStringLiteral("pids: on the whole sandbox's cgroup on the host, where it counts the Sentry's "
                                    "threads, not the sandbox's processes (RLIMIT_NPROC, which gVisor enforces, "
                                    "bounds those inside)");
        } else if (limit.name == QLatin1String("cpus") && limits.cgroupVersion == 0) {
            notes << QStringLiteral("cpus: on the whole sandbox's cgroup on the host, not visible inside gVisor");
        } else {
            assessment.missing.append(limit);
        }
    }
    if (!notes.isEmpty()) {
        assessment.note = QStringLiteral("gVisor (runsc): ") + notes.join(QStringLiteral("; ")) + QLatin1Char('.');
    }
    return assessment;
}

} // namespace sandbox
