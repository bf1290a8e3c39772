#pragma once

#include <QByteArray>
#include <QHttpServerResponder>
#include <QJsonDocument>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <chrono>
#include <utility>

class QTcpSocket;

namespace sandbox::mcp {

/// One HTTP response carrying Server-Sent Events: the answer to a POST that streams progress before its result, or
/// the GET stream for messages the server sends on its own. Chunked, so the connection survives the end of the
/// stream. A comment line every `keepAlive` keeps proxies from timing it out and finds clients that vanished.
class SseStream final : public QObject
{
    Q_OBJECT

public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;

    /// Sends the response head at once (status 200, text/event-stream, plus `headers`). A child of `socket`.
    SseStream(QHttpServerResponder &&responder, QTcpSocket *socket, const Headers &headers,
              std::chrono::milliseconds keepAlive);
    ~SseStream() override;

    bool isOpen() const;
    /// One `message` event holding the JSON-RPC message.
    void send(const QJsonDocument &message);
    /// Ends the response; the stream deletes itself.
    void finish();

signals:
    /// The stream ended, by finish() or because the client went away (`clientGone`).
    void ended(bool clientGone);

private:
    void writeChunk(const QByteArray &data);
    void close(bool clientGone);

    QHttpServerResponder m_responder;
    QPointer<QTcpSocket> m_socket;
    QTimer m_keepAlive;
    bool m_open = true;
};

} // namespace sandbox::mcp
