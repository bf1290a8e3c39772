#pragma once

// A raw HTTP/1.1 client over a real socket for the transport tests: it sends exactly the bytes a test wants (also
// malformed ones) and parses what comes back. It spins the event loop while it waits, because the server under test
// runs on the same (test) thread.

#include "WaitUntil.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QTcpSocket>
#include <chrono>
#include <functional>
#include <optional>
#include <utility>

namespace sandbox::mcp::test {

struct HttpResponse
{
    int status = 0;
    QList<std::pair<QByteArray, QByteArray>> headers;
    /// Without chunk framing.
    QByteArray body;
    bool chunked = false;
    /// The whole body arrived (for a stream: its last chunk).
    bool complete = false;

    QByteArray header(QByteArrayView name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0) {
                return value;
            }
        }
        return {};
    }
    bool hasHeader(QByteArrayView name) const
    {
        for (const auto &entry : headers) {
            if (entry.first.compare(name, Qt::CaseInsensitive) == 0) {
                return true;
            }
        }
        return false;
    }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    /// The data of each Server-Sent Event, parsed as JSON (comment lines skipped).
    QList<QJsonObject> events() const
    {
        QList<QJsonObject> out;
        for (const QByteArray &line : body.split('\n')) {
            if (line.startsWith("data: ")) {
                out.append(QJsonDocument::fromJson(line.mid(6)).object());
            }
        }
        return out;
    }
    QString errorMessage() const
    {
        return json().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
    }
};

class HttpTestClient final
{
public:
    /// `from`: the local address to connect from (any of 127/8 is this machine).
    explicit HttpTestClient(quint16 port, const QString &from = {})
    {
        if (!from.isEmpty()) {
            m_socket.bind(QHostAddress(from));
        }
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        spinUntil([this] { return m_socket.state() == QAbstractSocket::ConnectedState; });
    }

    bool connected() const { return m_socket.state() == QAbstractSocket::ConnectedState; }

    void send(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
    }

    /// The next response, parsed once its body is complete; nullopt on timeout or when the connection closed first.
    std::optional<HttpResponse> readResponse(std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        std::optional<HttpResponse> response;
        spinUntil(
            [&] {
                response = take(false);
                return response.has_value();
            },
            timeout);
        if (!response) {
            response = take(true); // a body ended by the connection closing
        }
        return response;
    }

    /// The response so far (head parsed, body partial) once `done` holds for it; the bytes stay unconsumed.
    std::optional<HttpResponse> peekResponse(const std::function<bool(const HttpResponse &)> &done,
                                             std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        std::optional<HttpResponse> response;
        spinUntil(
            [&] {
                pull();
                response = parse(m_buffer, true).first;
                return response && done(*response);
            },
            timeout);
        return response && done(*response) ? response : std::nullopt;
    }

    bool waitForDisconnected(std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        return spinUntil([this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, timeout);
    }

    /// Everything received and not yet taken by readResponse().
    QByteArray received()
    {
        pull();
        return m_buffer;
    }
    void close() { m_socket.abort(); }

    /// Spins the event loop until `condition` holds (the server lives on this thread).
    static bool spinUntil(const std::function<bool()> &condition,
                          std::chrono::milliseconds timeout = std::chrono::seconds(10))
    {
        return sandbox::test::waitUntil(
            [&] {
                QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
                return condition();
            },
            timeout, std::chrono::milliseconds(1));
    }

    static QByteArray request(const QByteArray &method, const QList<std::pair<QByteArray, QByteArray>> &headers,
                              const QByteArray &body = {}, const QByteArray &path = "/mcp")
    {
        QByteArray out = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
        for (const auto &[name, value] : headers) {
            out += name + ": " + value + "\r\n";
        }
        if (!body.isEmpty() || method == "POST") {
            out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
        }
        return out + "\r\n" + body;
    }

private:
    std::optional<HttpResponse> take(bool atClose)
    {
        pull();
        if (atClose && connected()) {
            return std::nullopt;
        }
        auto [response, used] = parse(m_buffer, atClose);
        if (response && (response->complete || atClose)) {
            m_buffer.remove(0, used);
            return response;
        }
        return std::nullopt;
    }

    void pull() { m_buffer += m_socket.readAll(); }

    /// One response from the front of `bytes`: complete, or (with `partial`) as far as it goes.
    static std::pair<std::optional<HttpResponse>, qsizetype> parse(const QByteArray &bytes, bool partial)
    {
        const qsizetype headEnd = bytes.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            return {std::nullopt, 0};
        }
        HttpResponse response;
        const QList<QByteArray> lines = bytes.left(headEnd).split('\n');
        const QList<QByteArray> statusLine = lines.first().trimmed().split(' ');
        response.status = statusLine.value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines[i].indexOf(':');
            response.headers.append({lines[i].left(colon).trimmed(), lines[i].mid(colon + 1).trimmed()});
        }
        qsizetype pos = headEnd + 4;
        if (response.status == 100) {
            response.complete = true;
            return {response, pos};
        }
        response.chunked = response.header("Transfer-Encoding").toLower() == "chunked";
        if (response.chunked) {
            while (true) {
                const qsizetype lineEnd = bytes.indexOf("\r\n", pos);
                if (lineEnd < 0) {
                    break;
                }
                bool ok = false;
                const qsizetype size = bytes.mid(pos, lineEnd - pos).toLongLong(&ok, 16);
                if (!ok || bytes.size() < lineEnd + 2 + size + 2) {
                    break;
                }
                pos = lineEnd + 2 + size + 2;
                if (size == 0) {
                    response.complete = true;
                    break;
                }
                response.body += bytes.mid(lineEnd + 2, size);
            }
        } else if (response.hasHeader("Content-Length")) {
            const qsizetype length = response.header("Content-Length").toLongLong();
            response.body = bytes.mid(pos, length);
            response.complete = response.body.size() == length;
            pos += response.body.size();
        } else {
            response.body = bytes.mid(pos);
            pos = bytes.size();
        }
        if (!response.complete && !partial) {
            return {std::nullopt, 0};
        }
        return {response, pos};
    }

    QTcpSocket m_socket;
    QByteArray m_buffer;
};

} // namespace sandbox::mcp::test
