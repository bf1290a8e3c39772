#pragma once

#include "mcp/http/HttpConnectionGuard.h"

#include <QList>
#include <QSet>
#include <QTcpServer>

namespace sandbox::mcp {

/// A QTcpServer that puts an HttpConnectionGuard on every connection before handing it to QAbstractHttpServer,
/// and refuses connections beyond a limit (each one holds buffers and possibly an event stream).
///
/// Connections that have not yet shown the token are a pool of their own, smaller and short-lived
/// (HttpTimeouts::beforeAuthentication): when it is full, a new connection takes the place of the oldest one in it.
/// So no one without the token (any local user can connect from 127.0.0.2, .3, …) can hold the places of those
/// with it. One peer address may hold only so many of the places in that pool; connections that showed the token are
/// the user's own clients (all from 127.0.0.1 on a loopback server) and count only toward the total.
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT

public:
    struct Capacity
    {
        int connections = 256;          ///< authenticated connections open at once
        int perAddress = 64;            ///< connections from one peer address that have not shown the token yet
        int beforeAuthentication = 128; ///< connections that have not shown the token yet (a burst of new clients)
    };

    /// `check` judges each request by its head (HttpConnectionGuard); passing it authenticates the connection.
    GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, Capacity capacity, QObject *httpServer,
                     HttpRequestFramer::HeadCheck check);

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    /// Takes `socket` out of the pool of connections without the token; false when it was not in it.
    bool leavePool(QTcpSocket *socket, const QString &address);

    const HttpLimits m_limits;
    const HttpTimeouts m_timeouts;
    const Capacity m_capacity;
    QObject *const m_httpServer;
    const HttpRequestFramer::HeadCheck m_check;
    QSet<QTcpSocket *> m_authenticated;
    QList<QTcpSocket *> m_unauthenticated; ///< oldest first
    QHash<QString, int> m_perAddress;      ///< connections in the pool, by peer address
};

} // namespace sandbox::mcp
