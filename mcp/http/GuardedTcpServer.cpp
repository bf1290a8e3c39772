#include "mcp/http/GuardedTcpServer.h"

#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"

#include <QTcpSocket>

namespace sandbox::mcp {

GuardedTcpServer::GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, int maxConnections, QObject *httpServer)
    : m_limits(limits), m_timeouts(timeouts), m_maxConnections(maxConnections), m_httpServer(httpServer)
{}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        qCWarning(lcMcpHttp) << "cannot take a new connection:" << socket->errorString();
        delete socket;
        return;
    }
    if (m_connections >= m_maxConnections) {
        qCWarning(lcMcpHttp) << "refusing a connection from" << socket->peerAddress().toString() << "with"
                             << m_connections << "open";
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->write(HttpErrorResponse::closingResponse(503, QStringLiteral("Too many open connections.")));
        socket->disconnectFromHost();
        return;
    }
    ++m_connections;
    connect(socket, &QObject::destroyed, this, [this] { --m_connections; });
    new HttpConnectionGuard(socket, m_limits, m_timeouts, m_httpServer);
    addPendingConnection(socket);
}

} // namespace sandbox::mcp
