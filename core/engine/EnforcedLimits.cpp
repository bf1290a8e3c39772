#include "engine/EnforcedLimits.h"

#include <QJsonArray>
#include <QLocale>
#include <algorithm>

namespace sandbox {

namespace {

std::optional<qint64> optionalInteger(const QJsonValue &value)
{
    if (!value.isDouble()) {
        return std::nullopt;
    }
    return qint64(value.toDouble());
}

QJsonValue optionalJson(const std::optional<qint64> &value)
{
    return value ? QJsonValue(double(*value)) : QJsonValue(QJsonValue::Null);
}

QString bytesText(qint64 bytes)
{
    return QLocale::c().formattedDataSize(bytes, 0, QLocale::DataSizeIecFormat);
}

QString foundText(const std::optional<qint64> &value, bool reported, const std::function<QString(qint64)> &format)
{
    if (!reported) {
        return QStringLiteral("not reported");
    }
    return value ? format(*value) : QStringLiteral("no limit");
}

} // namespace

EnforcedLimits EnforcedLimits::fromJson(const QJsonObject &json)
{
    EnforcedLimits limits;
    if (json.isEmpty()) {
        return limits;
    }
    limits.reported = true;
    limits.cgroupVersion = json.value(QStringLiteral("cgroup_version")).toInt();
    limits.memoryBytes = optionalInteger(json.value(QStringLiteral("memory_bytes")));
    limits.pids = optionalInteger(json.value(QStringLiteral("pids")));
    if (const QJsonValue cpus = json.value(QStringLiteral("cpus")); cpus.isDouble()) {
        limits.cpus = cpus.toDouble();
    }
    const QJsonObject rlimits = json.value(QStringLiteral("rlimits")).toObject();
    for (auto it = rlimits.begin(); it != rlimits.end(); ++it) {
        limits.rlimits.insert(it.key(), optionalInteger(it.value()));
    }
    for (const QJsonValue &name : json.value(QStringLiteral("network_interfaces")).toArray()) {
        limits.networkInterfaces.append(name.toString());
    }
    limits.uid = json.value(QStringLiteral("uid")).toInt(-1);
    limits.gid = json.value(QStringLiteral("gid")).toInt(-1);
    limits.readOnlyRoot = json.value(QStringLiteral("read_only_root")).toBool();
    if (const QJsonValue seccomp = json.value(QStringLiteral("seccomp")); seccomp.isDouble()) {
        limits.seccompMode = seccomp.toInt();
    }
    if (const QJsonValue noNewPrivs = json.value(QStringLiteral("no_new_privs")); noNewPrivs.isBool()) {
        limits.noNewPrivs = noNewPrivs.toBool();
    }
    const QJsonObject capabilities = json.value(QStringLiteral("capabilities")).toObject();
    for (auto it = capabilities.begin(); it != capabilities.end(); ++it) {
        bool ok = false;
        const quint64 mask = it.value().toString().toULongLong(&ok, 16);
        if (ok) {
            limits.capabilities.insert(it.key(), mask);
        }
    }
    return limits;
}

QJsonObject EnforcedLimits::toJson() const
{
    if (!reported) {
        return {};
    }
    QJsonObject rlimitsJson;
    for (auto it = rlimits.begin(); it != rlimits.end(); ++it) {
        rlimitsJson.insert(it.key(), optionalJson(it.value()));
    }
    QJsonObject capabilitiesJson;
    for (auto it = capabilities.begin(); it != capabilities.end(); ++it) {
        capabilitiesJson.insert(it.key(), QStringLiteral("%1").arg(it.value(), 16, 16, QLatin1Char('0')));
    }
    return QJsonObject{
        {QStringLiteral("cgroup_version"), cgroupVersion},
        {QStringLiteral("memory_bytes"), optionalJson(memoryBytes)},
        {QStringLiteral("pids"), optionalJson(pids)},
        {QStringLiteral("cpus"), cpus ? QJsonValue(*cpus) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("rlimits"), rlimitsJson},
        {QStringLiteral("network_interfaces"), QJsonArray::fromStringList(networkInterfaces)},
        {QStringLiteral("uid"), uid},
        {QStringLiteral("gid"), gid},
        {QStringLiteral("read_only_root"), readOnlyRoot},
        {QStringLiteral("seccomp"), seccompMode ? QJsonValue(*seccompMode) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("no_new_privs"), noNewPrivs ? QJsonValue(*noNewPrivs) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("capabilities"), capabilitiesJson},
    };
}

QStringList EnforcedLimits::limitNames()
{
    return {QStringLiteral("memory"),      QStringLiteral("pids"),    QStringLiteral("cpus"),
            QStringLiteral("network"),     QStringLiteral("user"),    QStringLiteral("read_only_root"),
            QStringLiteral("ulimits"),     QStringLiteral("seccomp"), QStringLiteral("no_new_privs"),
            QStringLiteral("capabilities")};
}

void EnforcedLimits::compareHardening(const ContainerSpec &spec, QList<UnenforcedLimit> &missing) const
{
    if (!spec.privileged && !spec.securityOpt.contains(QStringLiteral("seccomp=unconfined")) && seccompMode != 2) {
        missing.append(
            {QStringLiteral("seccomp"), QStringLiteral("a seccomp filter"),
             seccompMode ? QStringLiteral("seccomp mode %1").arg(*seccompMode) : QStringLiteral("not reported")});
    }
    if (spec.noNewPrivileges && noNewPrivs != true) {
        missing.append({QStringLiteral("no_new_privs"), QStringLiteral("no new privileges"),
                        noNewPrivs ? QStringLiteral("new privileges allowed") : QStringLiteral("not reported")});
    }
    if (spec.capDrop.contains(QStringLiteral("ALL"), Qt::CaseInsensitive)) {
        QStringList held;
        for (const char *set : {"effective", "permitted", "bounding", "ambient"}) {
            const QString name = QLatin1String(set);
            if (!capabilities.contains(name)) {
                held.append(QStringLiteral("%1 not reported").arg(name));
            } else if (capabilities.value(name) != 0) {
                held.append(QStringLiteral("%1 %2").arg(name).arg(capabilities.value(name), 0, 16));
            }
        }
        if (!held.isEmpty()) {
            missing.append({QStringLiteral("capabilities"), QStringLiteral("none (all dropped)"),
                            held.join(QStringLiteral(", "))});
        }
    }
}

QList<UnenforcedLimit> EnforcedLimits::compare(const ContainerSpec &spec) const
{
    QList<UnenforcedLimit> missing;
    const auto number = [](qint64 value) {
        return QString::number(value);
    };
    if (spec.memoryBytes > 0 && !(reported && memoryBytes && *memoryBytes <= spec.memoryBytes)) {
        missing.append(
            {QStringLiteral("memory"), bytesText(spec.memoryBytes), foundText(memoryBytes, reported, bytesText)});
    }
    if (spec.pidsLimit > 0 && !(reported && pids && *pids <= spec.pidsLimit)) {
        missing.append({QStringLiteral("pids"), number(spec.pidsLimit), foundText(pids, reported, number)});
    }
    // The engines turn CPUs into a CFS quota in microseconds; allow for the rounding.
    if (spec.cpus > 0 && !(reported && cpus && *cpus <= spec.cpus + 0.001)) {
        missing.append({QStringLiteral("cpus"), QString::number(spec.cpus),
                        !reported ? QStringLiteral("not reported")
                        : cpus    ? QString::number(*cpus)
                                  : QStringLiteral("no limit")});
    }
    if (spec.network.isNone()) {
        QStringList others = networkInterfaces;
        others.removeAll(QStringLiteral("lo"));
        if (!reported || !others.isEmpty()) {
            missing.append({QStringLiteral("network"), QStringLiteral("loopback only"),
                            reported ? QStringLiteral("interfaces %1").arg(networkInterfaces.join(QStringLiteral(", ")))
                                     : QStringLiteral("not reported")});
        }
    }
    const QString requestedUid = spec.user.section(QLatin1Char(':'), 0, 0);
    if (!requestedUid.isEmpty() && requestedUid != QLatin1String("0") && requestedUid != QLatin1String("root") &&
        !(reported && uid > 0)) {
        missing.append({QStringLiteral("user"), QStringLiteral("non-root (%1)").arg(spec.user),
                        reported ? QStringLiteral("uid %1").arg(uid) : QStringLiteral("not reported")});
    }
    if (spec.readOnlyRootfs && !(reported && readOnlyRoot)) {
        missing.append({QStringLiteral("read_only_root"), QStringLiteral("read-only root filesystem"),
                        reported ? QStringLiteral("writable") : QStringLiteral("not reported")});
    }
    compareHardening(spec, missing);
    for (const Ulimit &ulimit : spec.ulimits) {
        const std::optional<qint64> value = rlimits.value(ulimit.name);
        const bool inForce = reported && value && *value <= ulimit.soft;
        if (!inForce && (ulimit.soft > 0 || ulimit.name == QLatin1String("core"))) {
            missing.append({QStringLiteral("ulimits"), QStringLiteral("%1 %2").arg(ulimit.name).arg(ulimit.soft),
                            QStringLiteral("%1 %2").arg(ulimit.name, foundText(value, reported, number))});
        }
    }
    return missing;
}

} // namespace sandbox
