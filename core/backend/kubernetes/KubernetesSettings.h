#pragma once

#include "util/Result.h"

#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QStringList>
#include <chrono>

namespace sandbox {

/// Where and how sandbox pods run; fromEnvironment() reads the LLM_SANDBOX_KUBE_* variables, NAMESPACE and
/// LLM_SANDBOX_REGISTRY. The hardening itself comes from the ContainerSpec, as on the other backends.
struct KubernetesSettings
{
    QString context;                      ///< kubeconfig context (LLM_SANDBOX_KUBE_CONTEXT); empty: current-context
    QString namespaceName;                ///< NAMESPACE, else the context's namespace, else "default"
    QString runtimeClassName;             ///< LLM_SANDBOX_KUBE_RUNTIME_CLASS (gvisor, kata, ...)
    QHash<QString, QString> nodeSelector; ///< LLM_SANDBOX_KUBE_NODE_SELECTOR: "key=value,key=value"
    QJsonArray tolerations;               ///< LLM_SANDBOX_KUBE_TOLERATIONS: a JSON array of tolerations
    QStringList imagePullSecrets;         ///< LLM_SANDBOX_KUBE_IMAGE_PULL_SECRETS: comma-separated secret names
    /// LLM_SANDBOX_REGISTRY ("registry.example:5000"): the product's images ("llm-sandbox/...") are pulled from
    /// there; other references (LLM_SANDBOX_IMAGE_<LANG>) are used as given.
    QString registry;
    /// LLM_SANDBOX_KUBE_SECCOMP_PROFILE: a Localhost seccomp profile (path under the kubelet's seccomp directory);
    /// empty: RuntimeDefault.
    QString seccompLocalhostProfile;
    /// LLM_SANDBOX_KUBE_USER_NAMESPACES: whether pods run in a user namespace of their own (`hostUsers: false`,
    /// root in the pod is nobody on the node). Auto: on API servers from 1.33, where the feature is on by default.
    enum class UserNamespaces
    {
        Auto,
        On,
        Off,
    };
    UserNamespaces userNamespaces = UserNamespaces::Auto;
    qint64 ephemeralStorageBytes = 1024LL * 1024 * 1024; ///< LLM_SANDBOX_KUBE_EPHEMERAL_STORAGE
    /// Pods are killed after this long whatever happens (a backstop: the pool and sessions remove them sooner);
    /// LLM_SANDBOX_KUBE_ACTIVE_DEADLINE_SECONDS.
    std::chrono::seconds activeDeadline{24 * 3600};
    /// How long a pod may take to be scheduled, pull its image and run (LLM_SANDBOX_KUBE_START_TIMEOUT_SECONDS).
    std::chrono::seconds startTimeout{300};
    /// The channel subprotocols offered for attach, preferred first (tests offer v4 alone to prove the fallback).
    QStringList channelProtocols = {QStringLiteral("v5.channel.k8s.io"), QStringLiteral("v4.channel.k8s.io")};

    /// The settings from the environment; the namespace falls back to `contextNamespace` (the kubeconfig context's
    /// or the pod's), then "default"; the registry to `savedRegistry` (the Backends page's). A bad value is an error
    /// naming its variable.
    static Result<KubernetesSettings> fromEnvironment(const QString &contextNamespace = {},
                                                      const QString &savedRegistry = {});
    /// Whether an API server of `gitVersion` ("v1.33.1") has user namespaces for pods on by default.
    static bool userNamespacesByDefault(const QString &gitVersion);
    /// The image reference pods use for `reference`.
    QString podImage(const QString &reference) const;
};

} // namespace sandbox
