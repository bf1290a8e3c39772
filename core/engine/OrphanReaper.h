#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandbox {

class ContainerBackend;

/// Finds and removes the containers of llm-sandbox processes that ended without cleaning up (crashed or
/// killed). Every container carries its owner's identity, host:pid:start time: with the start time a reused
/// pid does not pass for the owner.
class OrphanReaper final
{
public:
    /// The owner of a container, from its label.
    struct Owner
    {
        QString host;
        QString pid;
        QByteArray startTime;

        /// The owner `identity` names ("host:pid:start time"), or nullopt when it is not one.
        static std::optional<Owner> parse(const QString &identity);
    };

    /// `label`: the label holding each container's owner identity.
    OrphanReaper(ContainerBackend &backend, QString label);

    /// The identity of this process: host:pid:start time.
    static QString ownIdentity();
    /// Field 22 of /proc/PID/stat (start time since boot): with the pid it names a process uniquely. Empty
    /// when there is no such process. `pid` may be "self".
    static QByteArray processStartTime(const QString &pid);
    /// Whether the process `owner` names still runs on `host` (false for another host's owner: not ours to judge).
    static bool ownerEnded(const Owner &owner, const QString &host);

    /// Removes the containers whose owner on this host has ended; returns how many were removed.
    int removeOrphans();

private:
    ContainerBackend &m_backend;
    QString m_label;
};

} // namespace sandbox
