#include "mcp/http/GuardedTcpServer.h"

#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"

#include <QTcpSocket>

namespace sandbox::mcp {

GuardedTcpServer::GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, int maxConnections, int maxPerAddress,
                                   QObject *httpServer, HttpRequestFramer::HeadCheck check)
    : m_limits(limits), m_timeouts(timeouts), m_maxConnections(maxConnections), m_maxPerAddress(maxPerAddress),
      m_httpServer(httpServer), m_check(std::move(check))
{}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new QTcpSocket(this);
    if (!socket->setSocketDescriptor(descriptor)) {
        qCWarning(lcMcpHttp) << "cannot take a new connection:" << socket->errorString();
        delete socket;
        return;
    }
    const QString address = socket->peerAddress().toString();
    if (m_connections >= m_maxConnections || m_perAddress.value(address) >= m_maxPerAddress) {
        qCWarning(lcMcpHttp) << "refusing a connection from" << address << "with" << m_connections << "open,"
                             << m_perAddress.value(address) << "from there";
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->write(HttpErrorResponse::closingResponse(503, QStringLiteral("Too many open connections.")));
        socket->disconnectFromHost();
        return;
    }
    ++m_connections;
    ++m_perAddress[address];
    connect(socket, &QObject::destroyed, this, [this, address] {
        --m_connections;
        if (--m_perAddress[address] <= 0) {
            m_perAddress.remove(address);
        }
    });
    new HttpConnectionGuard(socket, m_limits, m_timeouts, m_httpServer, m_check);
    addPendingConnection(socket);
}

} // namespace sandbox::mcp
