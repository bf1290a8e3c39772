#include "backend/HttpEndpoint.h"

#include <QDir>
#include <QUrl>

namespace sandbox {

Result<HttpEndpoint> HttpEndpoint::parse(const QString &host, bool tlsVerify, const QString &certPath)
{
    HttpEndpoint endpoint;
    endpoint.displayName = host;
    if (host.startsWith(QLatin1String("unix://"))) {
        endpoint.unixSocket = host.mid(int(qstrlen("unix://")));
        if (endpoint.unixSocket.isEmpty() || !endpoint.unixSocket.startsWith(QLatin1Char('/'))) {
            return Error{QStringLiteral("Invalid engine address \"%1\": a unix socket address needs an absolute "
                                        "path, like unix:///var/run/docker.sock.")
                             .arg(host),
                         ErrorCode::BadRequest};
        }
        endpoint.baseUrl = QStringLiteral("http://localhost");
        return endpoint;
    }
    if (host.startsWith(QLatin1String("tcp://")) || host.startsWith(QLatin1String("http://")) ||
        host.startsWith(QLatin1String("https://"))) {
        const QUrl url(host);
        if (!url.isValid() || url.host().isEmpty()) {
            return Error{QStringLiteral("Invalid engine address \"%1\": expected tcp://HOST:PORT.").arg(host),
                         ErrorCode::BadRequest};
        }
        // Like the docker CLI: TLS when DOCKER_TLS_VERIFY is set or certificates are given.
        endpoint.tls = tlsVerify || !certPath.isEmpty() || url.scheme() == QLatin1String("https");
        endpoint.verifyPeer = tlsVerify;
        const int defaultPort = endpoint.tls ? 2376 : 2375;
        endpoint.baseUrl = QStringLiteral("%1://%2:%3")
                               .arg(endpoint.tls ? QStringLiteral("https") : QStringLiteral("http"), url.host())
                               .arg(url.port(defaultPort));
        if (endpoint.tls) {
            const QDir certs(certPath.isEmpty() ? QDir::home().filePath(QStringLiteral(".docker")) : certPath);
            endpoint.caFile = certs.filePath(QStringLiteral("ca.pem"));
            endpoint.certFile = certs.filePath(QStringLiteral("cert.pem"));
            endpoint.keyFile = certs.filePath(QStringLiteral("key.pem"));
        }
        return endpoint;
    }
    return Error{QStringLiteral("Unsupported engine address \"%1\": use unix:///PATH or tcp://HOST:PORT.").arg(host),
                 ErrorCode::BadRequest};
}

} // namespace sandbox
