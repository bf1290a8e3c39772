#include "engine/OrphanReaper.h"

#include "backend/ContainerBackend.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <QSysInfo>
#include <sys/stat.h>
#include <unistd.h>

Q_LOGGING_CATEGORY(lcOrphans, "sandbox.engine.orphans")

namespace sandbox {

namespace {

/// The inode of this process's PID namespace (/proc/self/ns/pid): the same number in the same namespace.
QString pidNamespace()
{
    struct stat status;
    return ::stat("/proc/self/ns/pid", &status) == 0 ? QString::number(status.st_ino) : QString();
}

const OrphanReaper::Owner &self()
{
    static const OrphanReaper::Owner owner = *OrphanReaper::Owner::parse(OrphanReaper::ownIdentity());
    return owner;
}

} // namespace

std::optional<OrphanReaper::Owner> OrphanReaper::Owner::parse(const QString &identity)
{
    const QStringList parts = identity.split(QLatin1Char(':'));
    if ((parts.size() != 3 && parts.size() != 7) || parts[0].isEmpty() || parts[1].isEmpty()) {
        return std::nullopt;
    }
    Owner owner{parts[0], parts[1], parts[2].toLatin1(), {}, {}, {}, {}};
    if (parts.size() == 7) {
        if (parts[3].isEmpty() || parts[4].isEmpty() || parts[5].isEmpty() || parts[6].isEmpty()) {
            return std::nullopt;
        }
        owner.machineId = parts[3];
        owner.bootId = parts[4];
        owner.pidNamespace = parts[5];
        owner.uid = parts[6];
    }
    return owner;
}

bool OrphanReaper::Owner::isLocal() const
{
    if (isLegacy()) {
        return host == QSysInfo::machineHostName();
    }
    const Owner &me = self();
    return machineId == me.machineId && bootId == me.bootId && pidNamespace == me.pidNamespace;
}

OrphanReaper::OrphanReaper(ContainerBackend &backend, QString label) : m_backend(backend), m_label(std::move(label)) {}

QString OrphanReaper::ownIdentity()
{
    // A pid alone could be reused by an unrelated process later, and means nothing on another machine, boot or PID
    // namespace; another user's processes may be hidden from us (hidepid).
    const auto orUnknown = [](const QString &value) {
        return value.isEmpty() ? QStringLiteral("unknown") : value;
    };
    return QStringList{QSysInfo::machineHostName(),
                       QString::number(QCoreApplication::applicationPid()),
                       QString::fromLatin1(processStartTime(QStringLiteral("self"))),
                       orUnknown(QString::fromLatin1(QSysInfo::machineUniqueId())),
                       orUnknown(QString::fromLatin1(QSysInfo::bootUniqueId())),
                       orUnknown(pidNamespace()),
                       QString::number(::getuid())}
        .join(QLatin1Char(':'));
}

QByteArray OrphanReaper::processStartTime(const QString &pid)
{
    // Only a number (or "self") names a process: a label's value never reaches another path.
    bool numeric = false;
    pid.toLongLong(&numeric);
    if (!numeric && pid != QLatin1String("self")) {
        return {};
    }
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QByteArray line = stat.readAll();
    // The command name in parentheses may hold spaces: count fields after its closing one.
    return line.mid(line.lastIndexOf(')') + 2).split(' ').value(19);
}

bool OrphanReaper::ownerEnded(const Owner &owner)
{
    if (!owner.isLocal() || (!owner.isLegacy() && owner.uid != self().uid)) {
        return false;
    }
    const QByteArray startTime = processStartTime(owner.pid);
    return startTime.isEmpty() || startTime != owner.startTime;
}

int OrphanReaper::removeOrphans()
{
    auto containers = m_backend.listContainersWithLabels(m_label);
    if (!containers) {
        return 0;
    }
    int removed = 0;
    for (auto it = containers->begin(); it != containers->end(); ++it) {
        // An earlier version's identity might be a namesake machine's: such containers are the user's to remove.
        const std::optional<Owner> owner = Owner::parse(it.value());
        if (owner && !owner->isLegacy() && ownerEnded(*owner) && m_backend.removeContainer(it.key())) {
            ++removed;
        }
    }
    if (removed > 0) {
        qCInfo(lcOrphans) << "removed" << removed << "container(s) left by llm-sandbox processes that ended";
    }
    return removed;
}

} // namespace sandbox
