#include "engine/GVisorRuntime.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <algorithm>
#include <cerrno>

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
    const bool appliesProfile = runtime.arguments.contains(QLatin1String("--oci-seccomp")) ||
                                runtime.arguments.contains(QLatin1String("-oci-seccomp"));
    return QStringLiteral("gVisor, platform %1: a kernel of its own per sandbox; %2 (gVisor's own filter confines "
                          "its Sentry)")
        .arg(platform(runtime), appliesProfile
                                    ? QStringLiteral("its Sentry applies the seccomp profile (--oci-seccomp)")
                                    : QStringLiteral("the seccomp profile is not loaded inside it"));
}

void GVisorRuntime::adapt(ContainerSpec &spec)
{
    if (spec.pidsLimit > 0) {
        for (Ulimit &limit : spec.ulimits) {
            if (limit.name == QLatin1String("nproc")) {
                limit.soft = std::min<qint64>(limit.soft, spec.pidsLimit);
                limit.hard = std::min<qint64>(limit.hard, spec.pidsLimit);
            }
        }
        spec.pidsLimit *= kHostTasksPerTask;
    }
    // gVisor answers every refusal with EPERM. A refusal with ENOSYS is what tells a program to fall back (the C
    // library from clone3 to clone, from fchmodat2 to fchmodat): under gVisor the call goes to its kernel instead,
    // which answers ENOSYS itself for what it does not implement.
    const auto refusesWithEnosys = [](const QJsonObject &object, const QString &action, const QString &errnoKey) {
        return object.value(action).toString() == QLatin1String("SCMP_ACT_ERRNO") &&
               object.value(errnoKey).toInt() == ENOSYS;
    };
    QJsonObject profile = QJsonDocument::fromJson(spec.seccompProfile).object();
    if (profile.isEmpty()) {
        return;
    }
    if (refusesWithEnosys(profile, QStringLiteral("defaultAction"), QStringLiteral("defaultErrnoRet"))) {
        profile.insert(QStringLiteral("defaultAction"), QStringLiteral("SCMP_ACT_ALLOW"));
        profile.remove(QStringLiteral("defaultErrnoRet"));
    }
    // System V IPC objects and POSIX message queues outlive their processes, and the runner could not find them to
    // remove between pooled runs (gVisor has no /proc/sysvipc and mounts no /dev/mqueue): refused from the start.
    const QStringList unremovable = {QStringLiteral("shmget"), QStringLiteral("semget"), QStringLiteral("msgget"),
                                     QStringLiteral("mq_open")};
    QJsonArray rules;
    for (const QJsonValue &value : profile.value(QStringLiteral("syscalls")).toArray()) {
        QJsonObject rule = value.toObject();
        if (refusesWithEnosys(rule, QStringLiteral("action"), QStringLiteral("errnoRet"))) {
            rule.insert(QStringLiteral("action"), QStringLiteral("SCMP_ACT_ALLOW"));
            rule.remove(QStringLiteral("errnoRet"));
        }
        QJsonArray names;
        for (const QJsonValue &name : rule.value(QStringLiteral("names")).toArray()) {
            if (!unremovable.contains(name.toString())) {
                names.append(name);
            }
        }
        if (!names.isEmpty()) {
            rule.insert(QStringLiteral("names"), names);
            rules.append(rule);
        }
    }
    rules.append(QJsonObject{{QStringLiteral("names"), QJsonArray::fromStringList(unremovable)},
                             {QStringLiteral("action"), QStringLiteral("SCMP_ACT_ERRNO")},
                             {QStringLiteral("errnoRet"), EPERM}});
    profile.insert(QStringLiteral("syscalls"), rules);
    spec.seccompProfile = QJsonDocument(profile).toJson(QJsonDocument::Compact);
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
            const auto nproc = std::find_if(spec.ulimits.cbegin(), spec.ulimits.cend(),
                                            [](const Ulimit &limit) { return limit.name == QLatin1String("nproc"); });
            notes << QStringLiteral("pids: RLIMIT_NPROC %1 in gVisor's kernel, the sandbox's alone, bounds its "
                                    "tasks; the host's pids cgroup (%2) bounds the Sentry's threads")
                         .arg(nproc == spec.ulimits.cend() ? QStringLiteral("(none)") : QString::number(nproc->soft))
                         .arg(spec.pidsLimit);
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
