#include "mcp/http/StatelessPost.h"

#include "mcp/http/HttpLogging.h"
#include "mcp/http/RoutingHeaders.h"
#include "mcp/http/SessionTable.h"
#include "mcp/http/SseStream.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/RequestMeta.h"

#include <QHttpServerRequest>
#include <QTcpSocket>

namespace sandbox::mcp {

namespace {

/// Cancels the request's calls while its dispatcher exists: what a client that goes away causes (2026-07-28 has no
/// notifications/cancelled over HTTP).
auto cancellerOf(const std::shared_ptr<McpDispatcher> &dispatcher)
{
    return [weak = std::weak_ptr<McpDispatcher>(dispatcher)] {
        if (const std::shared_ptr<McpDispatcher> running = weak.lock()) {
            running->cancelAll();
        }
    };
}

/// The HTTP status of a 2026-07-28 answer: 2026-07-28 gives its errors statuses so that a client (and a dual-era
/// client probing the server's era) can tell them apart without reading the body.
int perRequestStatus(const QJsonObject &answer)
{
    if (!answer.contains(QStringLiteral("error"))) {
        return 200;
    }
    switch (answer.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt()) {
    case jsonrpc::MethodNotFound:
        return 404;
    case jsonrpc::ParseError:
    case jsonrpc::InvalidRequest:
    case jsonrpc::InvalidParams:
    case jsonrpc::HeaderMismatch:
    case jsonrpc::MissingRequiredClientCapability:
    case jsonrpc::UnsupportedProtocolVersion:
        return 400;
    default:
        return 200;
    }
}

} // namespace

StatelessPost::StatelessPost(McpDispatcher::Factory factory, SessionTable &sessions,
                             std::chrono::milliseconds keepAlive, QObject *context)
    : m_factory(std::move(factory)), m_sessions(sessions), m_keepAlive(keepAlive), m_context(context)
{}

void StatelessPost::handle(const std::shared_ptr<HttpExchange> &exchange, const QHttpServerRequest &request,
                           const McpMessage &message, const Accepts &accepts)
{
    // Where the dispatcher's notifications (progress, log messages of this request) go: this request's event stream,
    // once there is one. A notification while the answer is JSON has nowhere to go and is dropped.
    auto stream = std::make_shared<QPointer<SseStream>>();
    McpDispatcher::MessageSink sink = [context = m_context, stream](const QJsonObject &notification,
                                                                    const QJsonValue &) {
        QMetaObject::invokeMethod(
            context,
            [stream, notification] {
                if (*stream) {
                    (*stream)->send(QJsonDocument(notification));
                }
            },
            Qt::QueuedConnection);
    };
    std::shared_ptr<McpDispatcher> dispatcher(m_factory(std::move(sink)));
    // Every client presents the same token and this request no session: the sandbox sessions it opens are reached
    // by the handle it is given, never by what another such request shares with it.
    dispatcher->ownSessionsByHandle();

    const QJsonValue id = message.object().value(QStringLiteral("id"));
    if (const std::optional<QString> problem =
            RoutingHeaders::mismatch(request.headers(), message.object(), dispatcher->tools())) {
        qCDebug(lcMcpHttp).noquote() << "400" << *problem;
        exchange->respond(
            400,
            QJsonDocument(jsonrpc::makeError(id, jsonrpc::HeaderMismatch, *problem)).toJson(QJsonDocument::Compact),
            {{"Content-Type", "application/json"}});
        return;
    }

    const QFuture<QJsonDocument> reply = dispatcher->handlePerRequest(message);
    const QJsonObject meta = message.params().value(QStringLiteral("_meta")).toObject();
    const bool wantsNotifications =
        meta.contains(QStringLiteral("progressToken")) || meta.contains(RequestMeta::kLogLevel);
    const bool asStream = accepts.eventStream && (!accepts.json || wantsNotifications);
    const bool refused =
        reply.isFinished() && reply.resultCount() > 0 && reply.result().object().contains(QStringLiteral("error"));
    if (refused || (reply.isFinished() && !asStream)) {
        // Refusals and short requests: one JSON answer with the status the revision gives it.
        const QJsonDocument answer = reply.resultCount() > 0 ? reply.result() : QJsonDocument();
        exchange->respond(perRequestStatus(answer.object()), answer.toJson(QJsonDocument::Compact),
                          {{"Content-Type", "application/json"}});
        m_sessions.release(dispatcher);
        return;
    }
    m_sessions.hold(dispatcher);

    // A client gone before the answer cancels the request.
    if (QTcpSocket *socket = exchange->socket()) {
        QObject::connect(socket, &QTcpSocket::disconnected, m_context, cancellerOf(dispatcher));
    }
    if (asStream) {
        answerOnStream(exchange, dispatcher, stream, reply);
        return;
    }
    whenReady(m_context, reply, [this, exchange, dispatcher](const QJsonDocument &answer) {
        // Null: cancelled because the client went away; there is no one left to answer.
        if (!answer.isNull()) {
            exchange->respond(perRequestStatus(answer.object()), answer.toJson(QJsonDocument::Compact),
                              {{"Content-Type", "application/json"}});
        }
        m_sessions.release(dispatcher);
    });
}

void StatelessPost::answerOnStream(const std::shared_ptr<HttpExchange> &exchange,
                                   const std::shared_ptr<McpDispatcher> &dispatcher,
                                   const std::shared_ptr<QPointer<SseStream>> &stream,
                                   const QFuture<QJsonDocument> &reply)
{
    *stream = exchange->openStream({}, m_keepAlive, m_context);
    if (!*stream) {
        dispatcher->cancelAll();
    } else {
        // Closing the stream cancels the request, as a dropped connection does.
        QObject::connect(stream->data(), &SseStream::ended, m_context,
                         [cancel = cancellerOf(dispatcher)](bool clientGone) {
                             if (clientGone) {
                                 cancel();
                             }
                         });
    }
    whenReady(m_context, reply, [this, stream, dispatcher](const QJsonDocument &answer) {
        // The request's notifications were queued to this thread before its answer was ready (possibly before the
        // stream opened): queued behind them, the answer comes last.
        QMetaObject::invokeMethod(
            m_context,
            [this, stream, dispatcher, answer] {
                if (*stream) {
                    if (!answer.isNull()) {
                        (*stream)->send(answer);
                    }
                    (*stream)->finish();
                }
                m_sessions.release(dispatcher);
            },
            Qt::QueuedConnection);
    });
}

} // namespace sandbox::mcp
