#pragma once

#include "backend/kubernetes/KubeConfig.h"
#include "util/Result.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <mutex>
#include <optional>

namespace sandbox {

/// What a request authenticates with: a bearer token, or a client certificate and key (PEM).
struct KubeCredentials
{
    QString token;
    QByteArray clientCertPem;
    QByteArray clientKeyPem;
};

/// Runs a kubeconfig user's `exec` plugin and keeps the ExecCredential it prints until its expirationTimestamp.
/// Never interactive: the plugin gets no terminal, and a plugin whose interactiveMode is Always is refused.
/// Thread-safe: concurrent callers share one plugin run.
class ExecCredentialPlugin final
{
public:
    /// `server`: the cluster's address, handed to the plugin when it asks for cluster information.
    ExecCredentialPlugin(KubeExecConfig config, QString server);

    /// The cached credentials, or those of a new plugin run when none are cached or they expired.
    Result<KubeCredentials> credentials();
    /// Forgets the cached credentials (the server refused them: 401).
    void invalidate();

private:
    Result<KubeCredentials> run();

    KubeExecConfig m_config;
    QString m_server;
    std::mutex m_mutex;
    std::optional<KubeCredentials> m_cached;
    QDateTime m_expires; ///< invalid: the plugin named no expiry, the credentials are kept until a 401
};

} // namespace sandbox
