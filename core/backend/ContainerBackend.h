#pragma once

#include "backend/ContainerSpec.h"
#include "backend/ContainerStream.h"
#include "backend/ImageStore.h"
#include "util/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QIODevice;

namespace sandbox {

/// What a backend says about itself (doctor, the Backends page).
struct BackendInfo
{
    QString name;       ///< docker, podman, kubernetes
    QString endpoint;   ///< where it was reached
    QString version;    ///< engine version
    QString apiVersion; ///< API version in use
    QString os;
    bool rootless = false;
    QString cgroupVersion; ///< "1", "2"; empty: the engine does not say
};

/// An OCI runtime the engine has registered (Docker's and Podman's `runtimes`), or a Kubernetes RuntimeClass.
struct OciRuntime
{
    QString name;    ///< what a container asks for: HostConfig.Runtime, a pod's runtimeClassName
    QString handler; ///< the program behind it: Docker's path ("/usr/bin/runsc"), a RuntimeClass's handler ("runsc")
    QStringList arguments;  ///< given to the program before the engine's (Docker's runtimeArgs: "--platform=kvm")
    bool isDefault = false; ///< what a container that names none gets
};

struct FileEntry
{
    QString path; ///< relative to the destination directory
    QByteArray data;
    int mode = 0644;
};

/// One sample of a running container's resource use (`llm-sandbox ps`, the GUI's statistics).
struct ContainerStats
{
    qint64 memoryBytes = 0;      ///< in use, without reclaimable page cache (the working set, as `docker stats`)
    qint64 memoryLimitBytes = 0; ///< the container's limit; 0: unknown
    double cpuCores = 0;         ///< current CPU use in cores (1.5: one and a half cores busy)
    qint64 pids = -1;            ///< processes and threads; -1: unknown
    QDateTime sampledAt;         ///< when the engine took the sample (UTC)
};

/// How a container that stopped under a run ended, as its engine recorded it (ContainerBackend::howEnded).
struct ContainerEnd
{
    bool oomKilled = false;      ///< the engine records that the OOM killer ended it (State.OOMKilled)
    std::optional<int> exitCode; ///< its status as the engine reports it (137: ended by SIGKILL)
    /// Someone asked the engine to kill or stop it (its kill and stop events since the container started): a
    /// `docker kill`, the app's Stop, another program.
    bool killedThroughEngine = false;

    /// Whether it ended for want of memory: the engine says so, or it was ended by SIGKILL that nobody asked the
    /// engine for. The host's kernel sends that only from its OOM killer, and the engine does not always record it:
    /// Podman never does for a gVisor sandbox, whose memory the host's cgroup counts as the Sentry's, and Docker saw
    /// the same once on a slow machine.
    bool outOfMemory() const { return oomKilled || (exitCode == 137 && !killedThroughEngine); }
};

/// A container as the engine lists it: what `llm-sandbox ps` shows besides the numbers.
struct ContainerSummary
{
    QString id;
    QString image; ///< the reference it was created from
    QDateTime created;
    QString state; ///< the engine's word: "running", "created", "exited"; a pod's phase on Kubernetes
    QHash<QString, QString> labels;
};

/// A container engine: the sandboxes' containers (create, attach, remove, list, measure), and through imageStore() the
/// images they start from. Implementations are thread-safe: runs call them from many threads. Files and execution go
/// through the attached stream (see ContainerStream).
class ContainerBackend
{
public:
    virtual ~ContainerBackend() = default;

    virtual QString name() const = 0;
    /// Where the engine is reached ("unix:///var/run/docker.sock"), for the journal and the GUI; no request made.
    virtual QString endpoint() const { return {}; }
    /// Reaches the engine and reports its version; the error says how to fix reachability.
    virtual Result<BackendInfo> probe() = 0;
    /// The OCI runtimes the engine offers containers (Kubernetes: the cluster's RuntimeClasses).
    virtual Result<QList<OciRuntime>> runtimes()
    {
        return Error{QStringLiteral("The %1 backend cannot choose an OCI runtime.").arg(name()),
                     ErrorCode::Unavailable};
    }
    /// The runtime `wanted` names, by its name or by its program ("runsc" finds Docker's "runsc" as well as a
    /// RuntimeClass "gvisor" whose handler is runsc); an empty `wanted` gives the default. The error, before any
    /// container exists, names the runtimes there are and how to register the one asked for.
    Result<OciRuntime> findRuntime(const QString &wanted);
    /// The same among the runtimes `offered` (what runtimes() gave), for a caller that lists them too.
    Result<OciRuntime> findRuntime(const QString &wanted, const QList<OciRuntime> &offered) const;

    /// The engine's own image store (Docker, Podman); null for a backend without one, whose nodes pull the images
    /// named from a registry (Kubernetes).
    virtual ImageStore *imageStore() { return nullptr; }
    /// The error of `what` ("Building image x") on a backend without an image store, with what to do instead.
    virtual Error noImageStore(const QString &what) const
    {
        return Error{QStringLiteral("%1 is not possible on the %2 backend: it has no image store.").arg(what, name()),
                     ErrorCode::Unavailable};
    }

    virtual Result<QString> createContainer(const ContainerSpec &spec) = 0;
    /// Attaches to the container's stdin/stdout and starts it.
    virtual Result<std::unique_ptr<ContainerStream>> startAttached(const QString &containerId) = 0;
    /// Kills and removes the container (and its anonymous volumes); absent containers are fine.
    virtual Result<void> removeContainer(const QString &containerId) = 0;
    /// Whether a container's bind mounts (ContainerSpec::binds) are the host's folders themselves. Where they cannot
    /// be (a pod runs on a node, not on this host), each is an empty volume instead, mounted read-only as the bind
    /// would be, that the engine fills through attachFolderLoader() before the container starts.
    virtual bool mountsHostFolders() const { return true; }
    /// The attached stream of the runner that fills the folder volumes of the created container `containerId` (an
    /// init container of the pod, which mounts them writable); closing it lets the container start. Only where
    /// mountsHostFolders() is false.
    virtual Result<std::unique_ptr<ContainerStream>> attachFolderLoader(const QString &containerId)
    {
        Q_UNUSED(containerId)
        return Error{QStringLiteral("The %1 backend mounts folders itself.").arg(name()), ErrorCode::Unavailable};
    }
    /// How a library install's builder reaches its egress proxy (engine/EgressProxy.h).
    enum class EgressProxyReach
    {
        /// The builder has no network and mounts the proxy container's socket volume (ContainerSpec::volumesFrom).
        SocketVolume,
        /// The proxy listens on its container's address (containerAddress()), and the builder's network
        /// (ContainerNetwork::egressProxyClient()) reaches that and nothing else: a pod mounts no other pod's volume,
        /// and Kubernetes NetworkPolicies decide what a pod reaches.
        ContainerAddress
    };
    virtual EgressProxyReach egressProxyReach() const { return EgressProxyReach::SocketVolume; }
    /// The IP address other containers reach the started container `containerId` at (EgressProxyReach
    /// ContainerAddress only).
    virtual Result<QString> containerAddress(const QString &containerId)
    {
        Q_UNUSED(containerId)
        return Error{QStringLiteral("The %1 backend gives containers no address of their own.").arg(name()),
                     ErrorCode::Unavailable};
    }
    /// How the container `containerId`, whose stream ended without the run's end, ended as the engine recorded it,
    /// once it has seen it stop (waiting a moment for that). Unavailable where the engine does not say.
    virtual Result<ContainerEnd> howEnded(const QString &containerId)
    {
        Q_UNUSED(containerId)
        return Error{QStringLiteral("The %1 backend does not say how a container ended.").arg(name()),
                     ErrorCode::Unavailable};
    }
    /// Containers carrying the label `labelKey`, with their image, creation time, state and labels.
    virtual Result<QList<ContainerSummary>> listContainerSummaries(const QString &labelKey) = 0;
    /// IDs of containers carrying label `key=value` (any value when `labelValue` is empty), sorted.
    Result<QStringList> listContainers(const QString &labelKey, const QString &labelValue);
    /// Containers carrying the label `labelKey`, with its value (id -> value).
    Result<QHash<QString, QString>> listContainersWithLabels(const QString &labelKey);
    /// The current resource use of a running container. May take a second (an engine measures CPU use between
    /// two samples). ErrorCode::Unavailable when the engine cannot measure it (Kubernetes without metrics-server),
    /// NotFound when the container is gone or has no sample yet.
    virtual Result<ContainerStats> containerStats(const QString &containerId) = 0;

protected:
    /// How to give the engine the runtime `wanted` (for findRuntime's error).
    virtual QString runtimeRegistration(const QString &wanted) const
    {
        Q_UNUSED(wanted)
        return {};
    }
};

inline Result<QStringList> ContainerBackend::listContainers(const QString &labelKey, const QString &labelValue)
{
    auto labelled = listContainersWithLabels(labelKey);
    if (!labelled) {
        return labelled.error();
    }
    QStringList ids;
    for (auto it = labelled->begin(); it != labelled->end(); ++it) {
        if (labelValue.isEmpty() || it.value() == labelValue) {
            ids << it.key();
        }
    }
    ids.sort();
    return ids;
}

inline Result<QHash<QString, QString>> ContainerBackend::listContainersWithLabels(const QString &labelKey)
{
    auto summaries = listContainerSummaries(labelKey);
    if (!summaries) {
        return summaries.error();
    }
    QHash<QString, QString> labelled;
    for (const ContainerSummary &container : *summaries) {
        labelled.insert(container.id, container.labels.value(labelKey));
    }
    return labelled;
}

} // namespace sandbox
