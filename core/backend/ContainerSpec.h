#pragma once

#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace sandbox {

/// The network a container joins, as every backend reads it: no network, an engine's network by name, or the one
/// network a library installer's builder gets where it reaches its egress proxy by address (Kubernetes).
struct ContainerNetwork
{
    enum class Kind
    {
        None,             ///< loopback only
        Named,            ///< an engine's network: "bridge", a user-defined one (SANDBOX_NETWORK_MODE)
        EgressProxyClient ///< reaches the egress proxy's container and nothing else
                          ///< (EgressProxyReach::ContainerAddress)
    };
    Kind kind = Kind::None;
    QString name; ///< Named only

    static ContainerNetwork none() { return {}; }
    /// The network the setting names; "none" (or nothing) is no network.
    static ContainerNetwork named(const QString &name);
    static ContainerNetwork egressProxyClient() { return {Kind::EgressProxyClient, {}}; }

    bool isNone() const { return kind == Kind::None; }
    /// How the engines, the journal and errors name it: "none", the network's name, "egress-proxy-client".
    QString text() const;
    bool operator==(const ContainerNetwork &) const = default;
};

/// A memory-backed mount. Each backend writes it its own way: Docker's and Podman's option strings, a
/// Kubernetes emptyDir with medium Memory.
struct Tmpfs
{
    QString path;
    qint64 sizeBytes = 0;            ///< 0: the engine's default size
    std::optional<int> mode = 01777; ///< of the mount's root; none: the engine's default
    bool executable = true;          ///< false: noexec
    bool readOnly = false;           ///< an empty, read-only mount that hides what the image has at `path`
    bool ownedBySandboxUser = false; ///< owned by the container's user (ContainerSpec::user), not by root

    /// The mount options every engine takes: ro/rw, exec/noexec, nosuid, nodev, size, mode.
    QStringList mountOptions() const;
    bool operator==(const Tmpfs &) const = default;
};

/// A host folder mounted into the container: always without propagation (rprivate, so no mount made on the host later
/// appears inside) and, unless writable, read-only (every write, chmod, utime, rename or delete fails with EROFS).
struct BindMount
{
    QString source; ///< the host folder
    QString target; ///< where the container sees it
    bool readOnly = true;

    friend bool operator==(const BindMount &, const BindMount &) = default;
};

struct Ulimit
{
    QString name;
    qint64 soft = 0;
    qint64 hard = 0;
};

/// Everything needed to create one sandbox container; the engine fills it with hardened values.
struct ContainerSpec
{
    QString image;
    QStringList command;
    QString user; ///< "uid:gid" or "uid"; empty: the image's
    QString workingDir;
    QHash<QString, QString> labels;
    ContainerNetwork network;
    qint64 memoryBytes = 0;
    double cpus = 0;
    int pidsLimit = 0;
    QList<Ulimit> ulimits;
    QStringList capDrop = {QStringLiteral("ALL")};
    /// No process of the container gains privileges through setuid files or file capabilities.
    bool noNewPrivileges = true;
    /// The engine's further security options ("apparmor=...", "label=...", "seccomp=..." naming a profile or
    /// unconfined): Docker and Podman pass them on, Kubernetes has no such field.
    QStringList securityOpt;
    /// A seccomp profile (the engines' JSON format) applied unless `securityOpt` names one
    /// ("seccomp=..."); empty: the engine's default profile.
    QByteArray seccompProfile;
    bool readOnlyRootfs = false;
    QList<Tmpfs> tmpfs;
    bool privileged = false;
    /// Of the main process. A sandbox's runner gets its steps' environment with each request, so only the
    /// engine's own containers (the egress proxy's configuration) need this.
    QHash<QString, QString> environment;
    /// Containers whose volumes this one mounts too, "ID:ro" (a builder sandbox mounts its egress proxy's socket).
    QStringList volumesFrom;
    /// Names the container resolves to addresses of the user's choosing, as /etc/hosts entries: NAME -> ADDRESS (a
    /// run's egress proxy, SandboxSettings::proxyHosts).
    QMap<QString, QString> extraHosts;
    /// Host folders mounted into the container (a shared folder's copy at /data/NAME); Docker and Podman only.
    QList<BindMount> binds;
    /// The OCI runtime (an OciRuntime's name, as ContainerBackend::findRuntime gives it); empty: the engine's default.
    QString runtime;

    /// The tmpfs mounted at `path`; nullptr when none is.
    const Tmpfs *tmpfsAt(const QString &path) const;
};

} // namespace sandbox
