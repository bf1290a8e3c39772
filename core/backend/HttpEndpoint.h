#pragma once

#include "util/Result.h"

#include <QString>

namespace sandbox {

/// Where a container engine's HTTP API lives: a unix socket or a TCP address, with TLS settings.
/// Parsed from DOCKER_HOST / DOCKER_TLS_VERIFY / DOCKER_CERT_PATH exactly as the docker CLI reads them.
struct HttpEndpoint
{
    QString displayName; ///< what the user configured, for messages ("unix:///var/run/docker.sock")
    QString unixSocket;  ///< set for unix:// endpoints
    QString baseUrl;     ///< "http://localhost" for unix sockets, "http(s)://host:port" for tcp
    bool tls = false;
    bool verifyPeer = true;
    QString caFile;
    QString certFile;
    QString keyFile;
    /// PEM data used instead of the files above when set (Kubernetes configurations carry them inline).
    QByteArray caPem;
    QByteArray certPem;
    QByteArray keyPem;
    /// For messages when the engine cannot be reached: what it is, the variable that names its
    /// address, and how to start it.
    QString engineName = QStringLiteral("the container engine");
    QString hostVariable = QStringLiteral("DOCKER_HOST");
    QString startAdvice = QStringLiteral("start it (e.g. `dockerd` or `systemctl start docker`)");
    /// What to check when TLS fails.
    QString tlsAdvice = QStringLiteral("Check DOCKER_CERT_PATH and DOCKER_TLS_VERIFY.");

    /// Parses a DOCKER_HOST-style address (unix:///path, tcp://host:port, npipe is refused).
    static Result<HttpEndpoint> parse(const QString &host, bool tlsVerify, const QString &certPath);
};

} // namespace sandbox
