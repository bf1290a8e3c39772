#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace sandbox {

class ContainerBackend;

/// Finds and removes the containers of llm-sandbox processes that ended without cleaning up (crashed or
/// killed). Every container carries its owner's identity: host, pid and start time (a reused pid does not pass for
/// the owner), and the machine id, boot id, PID namespace and uid it ran under. Only an owner of this machine, boot,
/// PID namespace and user is judged: a pid means nothing elsewhere (another machine of the same name sharing a
/// Kubernetes namespace, a Flatpak app's own PID namespace, /proc mounted hidepid for other users' processes).
class OrphanReaper final
{
public:
    /// The owner of a container, from its label.
    struct Owner
    {
        QString host;
        QString pid;
        QByteArray startTime;
        /// Empty in the identities of versions before 2026-12 (host:pid:start time only).
        QString machineId;
        QString bootId;
        QString pidNamespace;
        QString uid;

        /// The owner `identity` names ("host:pid:start:machine:boot:pid namespace:uid", or the three fields of
        /// earlier versions), or nullopt when it is not one.
        static std::optional<Owner> parse(const QString &identity);
        /// An identity of an earlier version: where it ran cannot be told apart from a namesake.
        bool isLegacy() const { return machineId.isEmpty(); }
        /// It ran on this machine, in this boot and PID namespace, so its pid names a process here.
        bool isLocal() const;
    };

    /// `label`: the label holding each container's owner identity.
    OrphanReaper(ContainerBackend &backend, QString label);

    /// The identity of this process: host:pid:start time:machine id:boot id:PID namespace:uid.
    static QString ownIdentity();
    /// Field 22 of /proc/PID/stat (start time since boot): with the pid it names a process uniquely. Empty
    /// when there is no such process. `pid` may be "self".
    static QByteArray processStartTime(const QString &pid);
    /// Whether the process `owner` names has ended: false for an owner that is not local, or of another user (not
    /// ours to judge). An identity of an earlier version is judged by its host name.
    static bool ownerEnded(const Owner &owner);

    /// Removes the containers whose owner (local, this user, this version's identity) has ended; returns how many
    /// were removed.
    int removeOrphans();

private:
    ContainerBackend &m_backend;
    QString m_label;
};

} // namespace sandbox
