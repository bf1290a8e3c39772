#pragma once

#include "mcp/http/HttpConnectionGuard.h"
#include "mcp/http/HttpExchange.h"
#include "mcp/http/HttpRequestFramer.h"
#include "mcp/http/HttpSession.h"
#include "mcp/http/RequestGate.h"
#include "mcp/http/SessionTable.h"
#include "mcp/http/SseStream.h"
#include "mcp/http/StatelessPost.h"
#include "mcp/protocol/McpMessage.h"
#include "mcp/server/McpDispatcher.h"
#include "util/Result.h"

#include <QAbstractHttpServer>
#include <QByteArray>
#include <QFuture>
#include <QHash>
#include <QHostAddress>
#include <QJsonArray>
#include <QList>
#include <QStringList>
#include <QTimer>
#include <QUrl>
#include <chrono>
#include <functional>
#include <memory>

namespace sandbox::mcp {

class GuardedTcpServer;

struct HttpServerOptions
{
    QHostAddress address = QHostAddress(QHostAddress::LocalHost);
    /// 0 picks a free port; port() tells which.
    quint16 port = 0;
    /// Listening on anything but loopback is refused unless this is set (the user passed --allow-remote). The Host
    /// header is then no longer checked; the Origin header still is.
    bool allowRemote = false;
    /// Browser origins allowed besides loopback ones, as "scheme://host[:port]".
    QStringList allowedOrigins;
    HttpLimits limits;
    HttpTimeouts timeouts;
    int maxConnections = 256;
    /// Connections without the token one peer address may hold (those with it count only toward maxConnections).
    int maxConnectionsPerAddress = 64;
    /// Connections that have not yet shown the token (GuardedTcpServer): a pool of their own, large enough for a
    /// burst of new clients (50 connecting at once), the oldest giving way when it is full.
    int maxConnectionsBeforeAuthentication = 128;
    int maxSessions = 64;
    /// A session with no request or running call for this long is closed, an open GET stream or not (its client gets
    /// 404 and starts a new one). When all maxSessions are taken, the one idle longest makes room for a new one.
    std::chrono::milliseconds sessionIdleTimeout = std::chrono::minutes(30);
    /// Interval of the comment lines that keep event streams alive.
    std::chrono::milliseconds keepAliveInterval = std::chrono::seconds(25);
};

/// MCP's Streamable HTTP transport around McpDispatcher: one endpoint, /mcp, on Qt HttpServer.
///
/// - POST carries JSON-RPC messages. Notifications and responses only: 202. Requests: one application/json answer,
///   or a text/event-stream when the client accepts it and asked for progress (the notifications, then the answer).
/// - GET opens an event stream for what the server sends on its own (log messages); one per session.
/// - DELETE ends the session: its running calls are cancelled.
/// - initialize opens a session with its own dispatcher; its Mcp-Session-Id is required afterwards (400 without,
///   404 when unknown or ended). An unsupported MCP-Protocol-Version header is 400.
/// - A 2026-07-28 request (a POST whose `_meta` names its protocol version, server/discover, or one without a
///   session whose MCP-Protocol-Version is no handshake revision) needs no session: it is served on its own by a
///   dispatcher made for it, after its routing headers are checked against its body (RoutingHeaders). Its errors
///   carry HTTP statuses (400, 404 for an unknown method); closing its response cancels it.
/// - Every request needs `Authorization: Bearer <token>` (401), a loopback Host (when bound to loopback) and no
///   foreign Origin (403): a web page the user visits must not reach the server (DNS rebinding).
///
/// Lives on one thread with an event loop; tool calls run on the dispatchers' pools and never block it.
class StreamableHttpServer final : public QAbstractHttpServer
{
    Q_OBJECT

public:
    /// Makes the dispatcher of a new session; messages it sends on its own go to `sink` (from any thread).
    using DispatcherFactory = McpDispatcher::Factory;

    static inline const QString kEndpoint = QStringLiteral("/mcp");

    /// `token` is what clients must present; an empty token lets nobody in.
    StreamableHttpServer(DispatcherFactory factory, QByteArray token, HttpServerOptions options = {},
                         QObject *parent = nullptr);
    /// Cancels every running call and waits for the calls to end.
    ~StreamableHttpServer() override;

    /// Starts listening; the port bound.
    Result<quint16> start();
    quint16 port() const;
    /// http://address:port/mcp
    QUrl url() const;
    int sessionCount() const { return m_sessions.size(); }
    /// The initialized sessions: who is connected.
    QList<HttpSessionInfo> sessions() const { return m_sessions.infos(); }

    /// Ends session `id` as its client's DELETE would: its running calls are cancelled, its next request gets 404.
    void endSession(const QString &id) { m_sessions.close(id); }
    /// From now on clients must present `token`; every session (all of them were opened with the old token) ends and
    /// the calls still running are cancelled: their clients' next requests get 401.
    void setToken(QByteArray token);
    /// Stops listening, drops the open connections and ends every session, cancelling the calls still running. The
    /// future finishes once those calls have ended (their containers removed); the server may then be destroyed
    /// without waiting.
    QFuture<void> stop();

signals:
    /// A session began or ended, a client made a request, a call of one began or ended, a GET stream opened or closed.
    void sessionsChanged();

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    using Headers = SseStream::Headers;
    /// The requests of one POST (an answer is owed to each).
    struct PostedRequests
    {
        QJsonArray ids;
        bool initialize = false;
        /// One of them asked for progress.
        bool wantProgress = false;
    };

    void handlePost(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request);
    /// The session a POST goes to: a new one for initialize, else the one its Mcp-Session-Id names. Null when the
    /// POST was answered with the reason there is none.
    std::shared_ptr<HttpSession> sessionForPost(const std::shared_ptr<HttpExchange> &exchange,
                                                const QHttpServerRequest &request, bool initialize);
    /// A POST of notifications and responses only: 202, or 400 with what the dispatcher objects to.
    void acceptWithoutAnswer(const std::shared_ptr<HttpExchange> &exchange, const std::shared_ptr<HttpSession> &session,
                             const QFuture<QJsonDocument> &reply);
    /// The answer as an event stream: what the requests send while they are handled, then the answer.
    void answerOnStream(const std::shared_ptr<HttpExchange> &exchange, const std::shared_ptr<HttpSession> &session,
                        const QFuture<QJsonDocument> &reply, const PostedRequests &posted);
    void answerAsJson(const std::shared_ptr<HttpExchange> &exchange, const std::shared_ptr<HttpSession> &session,
                      const QFuture<QJsonDocument> &reply, const PostedRequests &posted, bool eventStreamAccepted);
    void handleGet(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request);
    void handleDelete(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request);
    /// False (answered 400) when the request names a revision newer than the one its session agreed on.
    bool matchesSessionVersion(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request,
                               const HttpSession &session);
    /// The session named by the request's Mcp-Session-Id; otherwise answers 400 or 404 and returns null.
    std::shared_ptr<HttpSession> requireSession(const std::shared_ptr<HttpExchange> &exchange,
                                                const QHttpServerRequest &request);
    std::shared_ptr<HttpSession> createSession();
    /// A message a session's dispatcher sent on its own: to the stream its request's answer goes on, or the GET one.
    void deliver(const QString &sessionId, const QJsonObject &message, const QString &requestKey);

    const DispatcherFactory m_factory;
    const HttpServerOptions m_options;
    RequestGate m_gate;
    GuardedTcpServer *m_tcpServer = nullptr;
    SessionTable m_sessions;
    StatelessPost m_stateless;
    QTimer m_expiryTimer;
};

} // namespace sandbox::mcp
