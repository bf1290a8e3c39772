#pragma once

#include <QString>

namespace sandbox {

/// Where the backends are reached, as a person sets it on the Backends page (UserSettings). The environment still
/// wins: each field is used only when its variable is unset, so an assistant's `env` block keeps working.
struct BackendConnection
{
    QString dockerHost;    ///< DOCKER_HOST; empty: unix:///var/run/docker.sock
    QString dockerTlsPath; ///< DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem); set: TLS is verified
    QString containerHost; ///< CONTAINER_HOST (Podman's API service); empty: Podman's default socket
    QString kubeconfig;    ///< KUBECONFIG; empty: ~/.kube/config
    QString kubeContext;   ///< LLM_SANDBOX_KUBE_CONTEXT; empty: the kubeconfig's current-context
    QString kubeNamespace; ///< NAMESPACE; empty: the context's namespace, then "default"
    /// LLM_SANDBOX_REGISTRY: the registry sandbox pods pull the images from, and the Backends page pushes them to;
    /// empty: none (the nodes must have the images already)
    QString registry;

    friend bool operator==(const BackendConnection &, const BackendConnection &) = default;
};

} // namespace sandbox
