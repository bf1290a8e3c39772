#pragma once

#include "mcp/http/SseStream.h"

#include <QByteArray>
#include <QFuture>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QPointer>
#include <QString>
#include <QTcpSocket>
#include <chrono>
#include <functional>
#include <optional>

class QHttpServerRequest;

namespace sandbox::mcp {

/// The answer channel of one HTTP request: its responder until the answer is written or an event stream takes it,
/// the connection the answer goes out on, and what that connection does afterwards (closes, or serves the next
/// request). Lives on the server's thread; shared by the callbacks that answer once the request's work is done.
class HttpExchange final
{
public:
    using Headers = SseStream::Headers;

    HttpExchange(const QHttpServerRequest &request, QHttpServerResponder responder, QTcpSocket *socket);

    HttpExchange(const HttpExchange &) = delete;
    HttpExchange &operator=(const HttpExchange &) = delete;

    /// Writes the answer (no body for HEAD). Nothing happens once answered, or when the client has gone.
    void respond(int status, const QByteArray &body, const Headers &headers = {});
    /// An error answer with the JSON body HttpErrorResponse words.
    void respondError(int status, const QString &message, const Headers &headers = {});
    /// Hands the answer to a new event stream; null when the client has gone or the request was answered already.
    /// `context`: the object whose thread ends the connection's response when the stream ends.
    SseStream *openStream(const Headers &headers, std::chrono::milliseconds keepAlive, QObject *context);
    QTcpSocket *socket() const { return m_socket.data(); }

private:
    QPointer<QTcpSocket> m_socket;
    std::optional<QHttpServerResponder> m_responder;
    const bool m_closeConnection;
    /// A HEAD request: the answer has a head and no body.
    const bool m_headOnly;
};

/// The media types of an Accept header this server can answer with.
struct Accepts
{
    bool json = false;
    bool eventStream = false;
};
/// Reads an Accept header; a missing one accepts everything.
Accepts parseAccept(const QByteArray &header);
/// The Content-Type is application/json (with any parameters).
bool isJsonContentType(const QByteArray &header);

/// Calls `then` on `context`'s thread with the reply (null when there is none): queued even when it is ready, so the
/// messages the request sent before it finished, queued already, go out before its answer.
void whenReady(QObject *context, const QFuture<QJsonDocument> &reply, std::function<void(const QJsonDocument &)> then);

/// A header of `request` that may be present but empty, told apart from one that is absent.
std::optional<QByteArray> findHeader(const QHttpServerRequest &request, QByteArrayView name);

} // namespace sandbox::mcp
