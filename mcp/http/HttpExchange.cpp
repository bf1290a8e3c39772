#include "mcp/http/HttpExchange.h"

#include "mcp/http/HttpConnectionGuard.h"
#include "mcp/http/HttpErrorResponse.h"
#include "mcp/http/HttpLogging.h"
#include "mcp/http/HttpRequestFramer.h"

#include <QHttpServerRequest>
#include <algorithm>

namespace sandbox::mcp {

HttpExchange::HttpExchange(const QHttpServerRequest &request, QHttpServerResponder responder, QTcpSocket *socket)
    : m_socket(socket), m_responder(std::move(responder)),
      m_closeConnection(HttpRequestFramer::hasToken(request.value("connection"), "close")),
      m_headOnly(request.method() == QHttpServerRequest::Method::Head)
{}

void HttpExchange::respond(int status, const QByteArray &body, const Headers &headers)
{
    if (!m_responder) {
        return; // answered already
    }
    QHttpServerResponder responder = std::move(*m_responder);
    m_responder.reset();
    QTcpSocket *socket = m_socket.data();
    if (!socket || socket->state() != QAbstractSocket::ConnectedState) {
        return; // the client went away while we worked
    }
    responder.writeStatusLine(static_cast<QHttpServerResponder::StatusCode>(status));
    for (const auto &[name, value] : headers) {
        responder.writeHeader(name, value);
    }
    responder.writeHeader("Content-Length", QByteArray::number(body.size()));
    responder.writeBody(m_headOnly ? QByteArray() : body);
    if (HttpConnectionGuard *guard = HttpConnectionGuard::of(socket)) {
        guard->endResponse(m_closeConnection);
    }
}

void HttpExchange::respondError(int status, const QString &message, const Headers &headers)
{
    qCDebug(lcMcpHttp).noquote() << status << message;
    respond(status, HttpErrorResponse::body(message), Headers{{"Content-Type", "application/json"}} + headers);
}

SseStream *HttpExchange::openStream(const Headers &headers, std::chrono::milliseconds keepAlive, QObject *context)
{
    QTcpSocket *socket = m_socket.data();
    if (!socket || socket->state() != QAbstractSocket::ConnectedState || !m_responder) {
        return nullptr;
    }
    auto *stream = new SseStream(std::move(*m_responder), socket, headers, keepAlive);
    m_responder.reset();
    QObject::connect(stream, &SseStream::ended, context,
                     [socket = m_socket, closeConnection = m_closeConnection](bool clientGone) {
                         if (!clientGone && socket) {
                             if (HttpConnectionGuard *guard = HttpConnectionGuard::of(socket)) {
                                 guard->endResponse(closeConnection);
                             }
                         }
                     });
    return stream;
}

Accepts parseAccept(const QByteArray &header)
{
    if (header.trimmed().isEmpty()) {
        return {true, true};
    }
    Accepts accepts;
    for (const QByteArray &item : header.split(',')) {
        const QList<QByteArray> parts = item.split(';');
        const QByteArray type = parts.first().trimmed().toLower();
        const bool refused = std::any_of(parts.begin() + 1, parts.end(), [](const QByteArray &parameter) {
            const QByteArray compact = parameter.trimmed().toLower().replace(' ', "");
            return compact == "q=0" || (compact.startsWith("q=0.") && compact.mid(4).count('0') == compact.size() - 4);
        });
        if (refused) {
            continue;
        }
        accepts.json = accepts.json || type == "application/json" || type == "application/*" || type == "*/*";
        accepts.eventStream = accepts.eventStream || type == "text/event-stream" || type == "text/*" || type == "*/*";
    }
    return accepts;
}

bool isJsonContentType(const QByteArray &header)
{
    return header.split(';').first().trimmed().toLower() == "application/json";
}

void whenReady(QObject *context, const QFuture<QJsonDocument> &reply, std::function<void(const QJsonDocument &)> then)
{
    if (reply.isFinished()) {
        // Queued even so: a message the call sent before it finished (a log line from a worker thread) is already
        // queued for this thread and must reach the request's stream before the answer closes it.
        QMetaObject::invokeMethod(
            context,
            [reply, then] { then(reply.isValid() && reply.resultCount() > 0 ? reply.result() : QJsonDocument()); },
            Qt::QueuedConnection);
        return;
    }
    QFuture<QJsonDocument>(reply)
        .then(context, [then](const QJsonDocument &answer) { then(answer); })
        .onCanceled(context, [then] { then(QJsonDocument()); });
}

std::optional<QByteArray> findHeader(const QHttpServerRequest &request, QByteArrayView name)
{
    for (const auto &[key, value] : request.headers()) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return std::nullopt;
}

} // namespace sandbox::mcp
