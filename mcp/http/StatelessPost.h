#pragma once

#include "mcp/http/HttpExchange.h"
#include "mcp/protocol/McpMessage.h"
#include "mcp/server/McpDispatcher.h"

#include <QFuture>
#include <QJsonDocument>
#include <QObject>
#include <QPointer>
#include <chrono>
#include <memory>

class QHttpServerRequest;

namespace sandbox::mcp {

class SessionTable;
class SseStream;

/// A POST of the 2026-07-28 era: one request and no session. It is served by a dispatcher made for it alone, after
/// its routing headers are checked against its body (RoutingHeaders); its errors carry HTTP statuses (400, 404 for
/// an unknown method), and a client that goes away (or closes the event stream) cancels it. Lives on the server's
/// thread (`context`).
class StatelessPost final
{
public:
    /// `sessions` keeps the request's dispatcher while its answer is pending; it must outlive this.
    StatelessPost(McpDispatcher::Factory factory, SessionTable &sessions, std::chrono::milliseconds keepAlive,
                  QObject *context);

    void handle(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request,
                const McpMessage &message, const Accepts &accepts);

private:
    /// The answer as an event stream: the request's notifications, then the answer.
    void answerOnStream(const std::shared_ptr<HttpExchange> &exchange, const std::shared_ptr<McpDispatcher> &dispatcher,
                        const std::shared_ptr<QPointer<SseStream>> &stream, const QFuture<QJsonDocument> &reply);

    const McpDispatcher::Factory m_factory;
    SessionTable &m_sessions;
    const std::chrono::milliseconds m_keepAlive;
    QObject *const m_context;
};

} // namespace sandbox::mcp
