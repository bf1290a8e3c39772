#pragma once

#include "mcp/http/HttpRequestFramer.h"

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <chrono>

class QTcpSocket;

namespace sandbox::mcp {

struct HttpTimeouts
{
    /// From the first byte of a request to its last: a slow or stalled sender gets 408 and is disconnected.
    std::chrono::milliseconds request = std::chrono::seconds(60);
    /// A kept-alive connection with no request in flight is closed after this long.
    std::chrono::milliseconds idle = std::chrono::seconds(120);
    /// A connection that has not yet sent a request head with the server's token is closed after this long, idle
    /// or not: holding a connection open needs the token.
    std::chrono::milliseconds beforeAuthentication = std::chrono::seconds(10);
};

/// Watches one connection of the HTTP server: sees every byte before Qt's parser (HttpRequestFramer), enforces the
/// size limits and timeouts, answers what cannot be served with a status and closes. A child of its socket.
///
/// The server tells it when a response begins and ends: while a response is pending (a long tool call, an open
/// event stream) no timeout applies, and a pipelined request is refused instead of being answered out of order.
class HttpConnectionGuard final : public QObject
{
    Q_OBJECT

public:
    /// Connects to `socket` before Qt's HTTP server does, so its readyRead handler runs first. `httpServer` is the
    /// QAbstractHttpServer whose handler is cut off when a request is refused.
    /// `check` judges each request by its head before its body is read (the server's token check).
    HttpConnectionGuard(QTcpSocket *socket, HttpLimits limits, HttpTimeouts timeouts, QObject *httpServer,
                        HttpRequestFramer::HeadCheck check = {});

    static HttpConnectionGuard *of(QTcpSocket *socket);

    void beginResponse();
    /// With `closeConnection` (the client sent Connection: close) the connection ends once the response is out.
    void endResponse(bool closeConnection);
    bool responding() const { return m_responding; }

    /// Answers with `status` and a message, then closes; the rest of the connection's bytes are discarded.
    void reject(int status, const QString &message, const QByteArray &headers = {});
    /// A request head on this connection has passed the check (the server's token).
    bool isAuthenticated() const { return m_authenticated; }

private:
    void onReadyRead();
    void onTimeout();
    void armTimer();

    QTcpSocket *const m_socket;
    QPointer<QObject> m_httpServer;
    HttpRequestFramer m_framer;
    const HttpTimeouts m_timeouts;
    QTimer m_timer;
    bool m_responding = false;
    bool m_rejected = false;
    bool m_timingRequest = false;
    bool m_authenticated = false;
};

} // namespace sandbox::mcp
