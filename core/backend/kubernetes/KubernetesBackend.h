#pragma once

#include "backend/ContainerBackend.h"
#include "backend/kubernetes/KubernetesClient.h"
#include "backend/kubernetes/KubernetesSettings.h"
#include "settings/BackendConnection.h"

#include <QJsonObject>
#include <atomic>
#include <optional>

namespace sandbox {

/// Sandboxes as pods, through the Kubernetes REST API. A pod's main process waits for a line on stdin before it
/// execs the runner; startAttached() waits for the pod to run (a watch, not polling), attaches over WebSocket and
/// sends that line, so the engine is connected before the runner writes a byte and the runner is the container's
/// PID 1, as on the other backends (an exec'd runner could neither interrupt a session's interpreter nor kill
/// processes that left its process groups). Kubernetes has no image store of its own: images come from a registry
/// (LLM_SANDBOX_REGISTRY). Containers are named by their pod's name.
class KubernetesBackend final : public ContainerBackend
{
public:
    KubernetesBackend(KubeConfig config, KubernetesSettings settings);

    /// From KUBECONFIG / ~/.kube/config / the in-cluster service account and the LLM_SANDBOX_KUBE_* variables;
    /// `settings` stands in for the unset KUBECONFIG, LLM_SANDBOX_KUBE_CONTEXT and NAMESPACE.
    static Result<std::shared_ptr<KubernetesBackend>> fromEnvironment(const BackendConnection &settings = {});

    QString name() const override { return QStringLiteral("kubernetes"); }
    QString endpoint() const override;
    Result<BackendInfo> probe() override;
    /// The cluster's RuntimeClasses (GET /apis/node.k8s.io/v1/runtimeclasses), each with its handler; the default is
    /// the nameless one (a pod without runtimeClassName).
    Result<QList<OciRuntime>> runtimes() override;
    /// Kubernetes has no image store: the cluster pulls the images a pod names when it starts, and a failed pull is
    /// reported then. What to do instead: push the images to a registry the cluster pulls from.
    Error noImageStore(const QString &what) const override;
    Result<QString> createContainer(const ContainerSpec &spec) override;
    Result<std::unique_ptr<ContainerStream>> startAttached(const QString &containerId) override;
    Result<void> removeContainer(const QString &containerId) override;
    /// Shared folders travel into the pod: each is an emptyDir that an init container fills over the runner protocol
    /// and the sandbox mounts read-only (PodManifest).
    bool mountsHostFolders() const override { return false; }
    Result<std::unique_ptr<ContainerStream>> attachFolderLoader(const QString &containerId) override;
    /// ContainerAddress: a pod mounts no other pod's volume; the NetworkPolicies of installer/kubernetes/ let an
    /// installer pod (ContainerNetwork::egressProxyClient()) reach only the egress proxy's pod.
    EgressProxyReach egressProxyReach() const override { return EgressProxyReach::ContainerAddress; }
    /// The pod's IP address, once it runs.
    Result<QString> containerAddress(const QString &containerId) override;
    Result<QList<ContainerSummary>> listContainerSummaries(const QString &labelKey) override;
    /// From the metrics API (metrics.k8s.io, served by metrics-server): CPU and memory as metrics-server last
    /// measured them, the memory limit from the pod's spec; pids unknown. ErrorCode::Unavailable when the cluster
    /// does not serve the metrics API, NotFound when it has no sample of the pod (yet).
    Result<ContainerStats> containerStats(const QString &containerId) override;

    const KubernetesSettings &settings() const { return m_settings; }
    const KubernetesClient &client() const { return m_client; }

    /// What keeps `pod` (a Pod object) from running, as an error naming `podName`: an image that cannot be pulled,
    /// no node that can run it, a container that cannot be created, a pod that ended; nothing while it may start.
    static std::optional<Error> startFailure(const QJsonObject &pod, const QString &podName);
    /// A PodMetrics object (metrics.k8s.io/v1beta1) as stats: the usage of all its containers.
    static Result<ContainerStats> statsFromPodMetrics(const QJsonObject &podMetrics);

    /// One RBAC permission the backend needs, and whether the server grants it (SelfSubjectAccessReview).
    struct Permission
    {
        QString verb;
        QString resource;      ///< "pods", "pods/exec"
        QString group;         ///< the API group; empty for the core group
        bool optional = false; ///< only statistics need it (the metrics API): runs work without it
        bool allowed = false;
        QString reason;
    };
    /// The permissions the backend needs in its namespace, each checked with a SelfSubjectAccessReview.
    Result<QList<Permission>> checkPermissions();
    static QList<Permission> neededPermissions();

protected:
    QString runtimeRegistration(const QString &wanted) const override;

private:
    QString podsPath() const;
    /// Waits with a watch until the pod's container `container` (the sandbox's, or the folder loader, an init
    /// container) runs and returns the pod; a clear error for pull failures, unschedulable pods and pods that ended.
    Result<QJsonObject> waitRunning(const QString &podName, const QString &container);
    /// Attaches to `container` of the running pod and opens its gate (PodManifest): its runner's first words follow.
    Result<std::unique_ptr<ContainerStream>> attach(const QString &podName, const QString &container);

    KubernetesClient m_client;
    KubernetesSettings m_settings;
    /// probe() found an API server with user namespaces for pods on by default (KubernetesSettings::userNamespaces).
    std::atomic<bool> m_userNamespacesByDefault = false;
};

} // namespace sandbox
