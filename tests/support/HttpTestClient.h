#pragma once

// A raw HTTP/1.1 client over a real socket for the transport tests: it sends exactly the bytes a test wants (also
// malformed ones) and parses what comes back. It spins the event loop while it waits, because the server under test
// runs on the same (test) thread. MCP itself, over a well-formed transport, is McpTestClient's.

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QTcpSocket>
#include <chrono>
#include <functional>
#include <optional>
#include <utility>

namespace sandbox::test {

struct HttpResponse
{
    int status = 0;
    QList<std::pair<QByteArray, QByteArray>> headers;
    /// Without chunk framing.
    QByteArray body;
    bool chunked = false;
    /// The whole body arrived (for a stream: its last chunk).
    bool complete = false;

    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    QJsonObject json() const;
    /// The data of each Server-Sent Event, parsed as JSON (comment lines skipped).
    QList<QJsonObject> events() const;
    QString errorMessage() const;
};

class HttpTestClient final
{
public:
    /// `from`: the local address to connect from (any of 127/8 is this machine).
    explicit HttpTestClient(quint16 port, const QString &from = {});

    bool connected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }
    void send(const QByteArray &bytes);

    /// The next response, parsed once its body is complete; nullopt on timeout or when the connection closed first.
    std::optional<HttpResponse> readResponse(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    /// The response so far (head parsed, body partial) once `done` holds for it; the bytes stay unconsumed.
    std::optional<HttpResponse> peekResponse(const std::function<bool(const HttpResponse &)> &done,
                                             std::chrono::milliseconds timeout = std::chrono::seconds(10));
    bool waitForDisconnected(std::chrono::milliseconds timeout = std::chrono::seconds(10));

    /// Everything received and not yet taken by readResponse().
    QByteArray received();
    void close() { m_socket.abort(); }

    /// Spins the event loop until `condition` holds (the server lives on this thread).
    static bool spinUntil(const std::function<bool()> &condition,
                          std::chrono::milliseconds timeout = std::chrono::seconds(10));
    static QByteArray request(const QByteArray &method, const QList<std::pair<QByteArray, QByteArray>> &headers,
                              const QByteArray &body = {}, const QByteArray &path = "/mcp");

private:
    std::optional<HttpResponse> take(bool atClose);
    void pull() { m_buffer += m_socket.readAll(); }

    QTcpSocket m_socket;
    QByteArray m_buffer;
};

} // namespace sandbox::test
