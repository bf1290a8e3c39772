#include "engine/OrphanReaper.h"

#include "backend/ContainerBackend.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <QSysInfo>

Q_LOGGING_CATEGORY(lcOrphans, "sandbox.engine.orphans")

namespace sandbox {

std::optional<OrphanReaper::Owner> OrphanReaper::Owner::parse(const QString &identity)
{
    const QStringList parts = identity.split(QLatin1Char(':'));
    if (parts.size() != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
        return std::nullopt;
    }
    return Owner{parts[0], parts[1], parts[2].toLatin1()};
}

OrphanReaper::OrphanReaper(ContainerBackend &backend, QString label) : m_backend(backend), m_label(std::move(label)) {}

QString OrphanReaper::ownIdentity()
{
    // host:pid:start time — a pid alone could be reused by an unrelated process later.
    return QStringLiteral("%1:%2:%3")
        .arg(QSysInfo::machineHostName())
        .arg(QCoreApplication::applicationPid())
        .arg(QString::fromLatin1(processStartTime(QStringLiteral("self"))));
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

bool OrphanReaper::ownerEnded(const Owner &owner, const QString &host)
{
    if (owner.host != host) {
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
    const QString host = QSysInfo::machineHostName();
    int removed = 0;
    for (auto it = containers->begin(); it != containers->end(); ++it) {
        const std::optional<Owner> owner = Owner::parse(it.value());
        if (owner && ownerEnded(*owner, host) && m_backend.removeContainer(it.key())) {
            ++removed;
        }
    }
    if (removed > 0) {
        qCInfo(lcOrphans) << "removed" << removed << "container(s) left by llm-sandbox processes that ended";
    }
    return removed;
}

} // namespace sandbox
