#pragma once

#include "backend/HttpClient.h"
#include "backend/kubernetes/ExecCredentialPlugin.h"
#include "backend/kubernetes/KubeConfig.h"
#include "util/Result.h"

#include <memory>

namespace sandbox {

/// Requests to a Kubernetes API server as the kubeconfig's user: TLS with the cluster's CA (or none when
/// insecure-skip-tls-verify), a client certificate, a bearer token, a token file or an exec plugin's credential.
/// Thread-safe.
class KubernetesClient final
{
public:
    explicit KubernetesClient(KubeConfig config);

    const KubeConfig &config() const { return m_config; }

    /// Where and as whom to connect: the endpoint with TLS material, and the Authorization header (may be empty).
    struct Connection
    {
        HttpEndpoint endpoint;
        QByteArray authorization;
    };
    Result<Connection> connection() const;

    /// Sends `request` (its path is the API path, "/api/v1/..."); a 401 with an exec plugin runs the plugin again
    /// and retries once, as kubectl does.
    Result<HttpResponse> send(HttpRequest request) const;

    /// A clear error for a failed API call: `what` failed; `verb` and `resource` name the RBAC permission it
    /// needed ("create", "pods"). Quota refusals, RBAC denials and 401 are told apart.
    Error apiError(const HttpResponse &response, const QString &what, const QString &verb,
                   const QString &resource) const;

private:
    KubeConfig m_config;
    std::unique_ptr<ExecCredentialPlugin> m_plugin;
};

} // namespace sandbox
