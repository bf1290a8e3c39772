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
    /// At most `maxConnections` open, `maxPerAddress` of them from one peer address; `check` judges each request
    /// by its head (HttpConnectionGuard).
    GuardedTcpServer(HttpLimits limits, HttpTimeouts timeouts, int maxConnections, int maxPerAddress,
                     QObject *httpServer, HttpRequestFramer::HeadCheck check);

    int connectionCount() const { return m_connections; }

protected:
    void incomingConnection(qintptr descriptor) override;

private:
    const HttpLimits m_limits;
    const HttpTimeouts m_timeouts;
    const int m_maxConnections;
    const int m_maxPerAddress;
    QObject *const m_httpServer;
    const HttpRequestFramer::HeadCheck m_check;
    int m_connections = 0;
    QHash<QString, int> m_perAddress;
};

} // namespace sandbox::mcp
