#include "mcp/http/SseStream.h"

#include "mcp/http/HttpLogging.h"

#include <QTcpSocket>

namespace sandbox::mcp {

SseStream::SseStream(QHttpServerResponder &&responder, QTcpSocket *socket, const Headers &headers,
                     std::chrono::milliseconds keepAlive)
    : QObject(socket), m_responder(std::move(responder)), m_socket(socket)
{
    m_responder.writeStatusLine(QHttpServerResponder::StatusCode::Ok);
    m_responder.writeHeader("Content-Type", "text/event-stream");
    m_responder.writeHeader("Cache-Control", "no-cache");
    m_responder.writeHeader("Transfer-Encoding", "chunked");
    for (const auto &[name, value] : headers) {
        m_responder.writeHeader(name, value);
    }
    m_responder.writeBody(QByteArray()); // ends the head: the client knows the stream is open
    m_socket->flush();

    connect(socket, &QAbstractSocket::disconnected, this, [this] { close(true); });
    connect(&m_keepAlive, &QTimer::timeout, this, [this] { writeChunk(QByteArrayLiteral(": keep-alive\n\n")); });
    m_keepAlive.start(keepAlive);
}

SseStream::~SseStream()
{
    // The socket may be half destroyed (we are its child): nothing may be written here.
    m_open = false;
}

bool SseStream::isOpen() const
{
    return m_open && m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

void SseStream::send(const QJsonDocument &message)
{
    writeChunk("event: message\ndata: " + message.toJson(QJsonDocument::Compact) + "\n\n");
}

void SseStream::finish()
{
    if (!m_open) {
        return;
    }
    if (isOpen()) {
        m_responder.writeBody(QByteArrayLiteral("0\r\n\r\n"));
    }
    close(false);
}

void SseStream::writeChunk(const QByteArray &data)
{
    if (!isOpen()) {
        return;
    }
    m_responder.writeBody(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
}

void SseStream::close(bool clientGone)
{
    if (!m_open) {
        return;
    }
    m_open = false;
    m_keepAlive.stop();
    if (clientGone) {
        qCDebug(lcMcpHttp) << "an event stream's client went away";
    }
    emit ended(clientGone);
    deleteLater();
}

} // namespace sandbox::mcp
