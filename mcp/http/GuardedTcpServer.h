#pragma once

#include "mcp/http/HttpConnectionGuard.h"

#include <QTcpServer>

namespace sandbox::mcp {

/// A QTcpServer that puts an HttpConnectionGuard on every connection before handing it to QAbstractHttpServer,
/// and refuses connections beyond a limit (each one holds buffers and possibly an event stream).
class GuardedTcpServer final : public QTcpServer
{
    Q_OBJECT

public:
    GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, int maxConnections, QObject *httpServer);

    int connectionCount() const { return m_connections; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    const HttpLimits m_limits;
    const HttpTimeouts m_timeouts;
    const int m_maxConnections;
    QObject *const m_httpServer;
    int m_connections = 0;
};

} // namespace sandbox::mcp
