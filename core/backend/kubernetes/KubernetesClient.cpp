#include "backend/kubernetes/KubernetesClient.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QUrl>

Q_LOGGING_CATEGORY(lcKubeClient, "sandbox.backend.kubernetes.client")

namespace sandbox {

KubernetesClient::KubernetesClient(KubeConfig config) : m_config(std::move(config))
{
    if (m_config.exec) {
        m_plugin = std::make_unique<ExecCredentialPlugin>(*m_config.exec, m_config.server);
    }
}

Result<KubernetesClient::Connection> KubernetesClient::connection() const
{
    Connection connection;
    HttpEndpoint &endpoint = connection.endpoint;
    const QUrl url(m_config.server);
    endpoint.displayName = m_config.server;
    endpoint.baseUrl = m_config.server;
    endpoint.tls = url.scheme() == QLatin1String("https");
    endpoint.verifyPeer = !m_config.insecureSkipTlsVerify;
    endpoint.caPem = m_config.caPem;
    endpoint.certPem = m_config.clientCertPem;
    endpoint.keyPem = m_config.clientKeyPem;
    endpoint.engineName = QStringLiteral("the Kubernetes API server");
    endpoint.hostVariable = QStringLiteral("KUBECONFIG");
    endpoint.startAdvice = QStringLiteral("check the cluster's server address in %1").arg(m_config.source);
    endpoint.tlsAdvice = QStringLiteral("Check the cluster's certificate-authority and the user's client "
                                        "certificate in %1.")
                             .arg(m_config.source);

    QString token = m_config.token;
    if (!m_config.tokenFile.isEmpty()) {
        QFile file(m_config.tokenFile);
        if (!file.open(QIODevice::ReadOnly)) {
            return Error{QStringLiteral("Cannot read the token file %1 (%2): %3.")
                             .arg(m_config.tokenFile, m_config.source, file.errorString()),
                         ErrorCode::BadRequest};
        }
        token = QString::fromUtf8(file.readAll()).trimmed();
    }
    if (m_plugin) {
        auto credentials = m_plugin->credentials();
        if (!credentials) {
            return credentials.error();
        }
        if (!credentials->token.isEmpty()) {
            token = credentials->token;
        }
        if (!credentials->clientCertPem.isEmpty()) {
            endpoint.certPem = credentials->clientCertPem;
            endpoint.keyPem = credentials->clientKeyPem;
        }
    }
    if (!token.isEmpty()) {
        connection.authorization = "Bearer " + token.toUtf8();
    }
    return connection;
}

Result<HttpResponse> KubernetesClient::send(HttpRequest request) const
{
    for (int attempt = 0;; ++attempt) {
        auto connection = this->connection();
        if (!connection) {
            return connection.error();
        }
        HttpRequest sent = request;
        if (!connection->authorization.isEmpty()) {
            sent.headers.append("Authorization: " + connection->authorization);
        }
        sent.headers.append("Accept: application/json");
        auto reply = HttpClient(connection->endpoint).send(sent);
        if (reply && reply->status == 401 && m_plugin && attempt == 0) {
            qCDebug(lcKubeClient) << "401: running the exec plugin again";
            m_plugin->invalidate();
            continue;
        }
        return reply;
    }
}

Error KubernetesClient::apiError(const HttpResponse &response, const QString &what, const QString &verb,
                                 const QString &resource) const
{
    // Failures come as a Status object: {"kind":"Status","message":...,"reason":...,"code":...}.
    const QJsonObject status = QJsonDocument::fromJson(response.body).object();
    QString message = status.value(QStringLiteral("message")).toString();
    if (message.isEmpty()) {
        message = QString::fromUtf8(response.body.left(500)).trimmed();
    }
    if (message.isEmpty()) {
        message = QStringLiteral("(no message)");
    }
    const QString server = m_config.server;
    if (response.status == 401) {
        return Error{QStringLiteral("%1 failed: the Kubernetes API server at %2 did not accept the credentials of %3 "
                                    "(401 Unauthorized: an expired token, or a client certificate the cluster does "
                                    "not trust). Log in again or fix the user in the kubeconfig.")
                         .arg(what, server, m_config.source),
                     ErrorCode::EngineUnreachable};
    }
    if (response.status == 403 && message.contains(QLatin1String("exceeded quota"))) {
        return Error{QStringLiteral("%1 failed: the namespace's ResourceQuota refused it: %2. Free resources (fewer "
                                    "warm pods: LLM_SANDBOX_POOL_SIZE) or raise the quota.")
                         .arg(what, message),
                     ErrorCode::LimitReached};
    }
    if (response.status == 403) {
        return Error{QStringLiteral("%1 failed: RBAC denies \"%2\" on \"%3\" (403 Forbidden: %4). Bind the user to the "
                                    "Role in installer/kubernetes/ (see `llm-sandbox doctor --backend kubernetes`).")
                         .arg(what, verb, resource, message),
                     ErrorCode::EngineFailed};
    }
    return Error{QStringLiteral("%1 failed: the Kubernetes API server answered %2: %3")
                     .arg(what)
                     .arg(response.status)
                     .arg(message),
                 ErrorCode::EngineFailed};
}

} // namespace sandbox
