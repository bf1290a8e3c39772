#include "mcp/http/GuardedTcpServer.h"

#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"

#include <QTcpSocket>

namespace sandbox::mcp {

GuardedTcpServer::GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, Capacity capacity, QObject *httpServer,
                                   HttpRequestFramer::HeadCheck check)
    : m_limits(limits), m_timeouts(timeouts), m_capacity(capacity), m_httpServer(httpServer), m_check(std::move(check))
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
    if (m_perAddress.value(address) >= m_capacity.perAddress) {
        qCWarning(lcMcpHttp) << "refusing a connection from" << address << "with" << m_perAddress.value(address)
                             << "open from there";
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        socket->write(HttpErrorResponse::closingResponse(503, QStringLiteral("Too many open connections.")));
        socket->disconnectFromHost();
        return;
    }
    if (m_unauthenticated.size() >= m_capacity.beforeAuthentication) {
        // The oldest connection without the token gives way: it had its chance to show it.
        QTcpSocket *oldest = m_unauthenticated.first();
        qCInfo(lcMcpHttp) << "closing a connection from" << oldest->peerAddress().toString()
                          << "that has not shown the token, for a new one";
        leavePool(oldest, oldest->peerAddress().toString());
        oldest->abort();
        oldest->deleteLater();
    }
    m_unauthenticated.append(socket);
    ++m_perAddress[address];
    connect(socket, &QObject::destroyed, this, [this, socket, address] {
        leavePool(socket, address);
        m_authenticated.remove(socket);
    });
    // The server's check, then, at the connection's first head that passes it, a place among the authenticated.
    auto check = [this, socket,
                  address](const HttpRequestFramer::RequestHead &head) -> std::optional<HttpRequestFramer::Rejection> {
        if (m_check) {
            if (std::optional<HttpRequestFramer::Rejection> rejection = m_check(head)) {
                return rejection;
            }
        }
        if (leavePool(socket, address)) {
            if (m_authenticated.size() >= m_capacity.connections) {
                qCWarning(lcMcpHttp) << "refusing a request from" << socket->peerAddress().toString() << "with"
                                     << m_authenticated.size() << "connections open";
                return HttpRequestFramer::Rejection{503, "Too many open connections.", {}};
            }
            m_authenticated.insert(socket);
        }
        return std::nullopt;
    };
    new HttpConnectionGuard(socket, m_limits, m_timeouts, m_httpServer, std::move(check));
    addPendingConnection(socket);
}

bool GuardedTcpServer::leavePool(QTcpSocket *socket, const QString &address)
{
    if (!m_unauthenticated.removeOne(socket)) {
        return false;
    }
    if (--m_perAddress[address] <= 0) {
        m_perAddress.remove(address);
    }
    return true;
}

} // namespace sandbox::mcp
