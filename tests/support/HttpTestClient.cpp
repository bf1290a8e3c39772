#include "HttpTestClient.h"

#include "McpTestClient.h"
#include "WaitUntil.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QJsonDocument>

namespace sandbox::test {

namespace {

/// The chunks of a chunked body from `pos` on, as far as they arrived; the position after the last whole chunk.
qsizetype readChunks(const QByteArray &bytes, qsizetype pos, HttpResponse &response)
{
    while (true) {
        const qsizetype lineEnd = bytes.indexOf("\r\n", pos);
        if (lineEnd < 0) {
            return pos;
        }
        bool ok = false;
        const qsizetype size = bytes.mid(pos, lineEnd - pos).toLongLong(&ok, 16);
        if (!ok || bytes.size() < lineEnd + 2 + size + 2) {
            return pos;
        }
        pos = lineEnd + 2 + size + 2;
        if (size == 0) {
            response.complete = true;
            return pos;
        }
        response.body += bytes.mid(lineEnd + 2, size);
    }
}

/// One response from the front of `bytes`: complete, or (with `partial`) as far as it goes.
std::pair<std::optional<HttpResponse>, qsizetype> parse(const QByteArray &bytes, bool partial)
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
        pos = readChunks(bytes, pos, response);
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

} // namespace

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
}

bool HttpResponse::hasHeader(QByteArrayView name) const
{
    for (const auto &entry : headers) {
        if (entry.first.compare(name, Qt::CaseInsensitive) == 0) {
            return true;
        }
    }
    return false;
}

QJsonObject HttpResponse::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QList<QJsonObject> HttpResponse::events() const
{
    return eventStreamMessages(body);
}

QString HttpResponse::errorMessage() const
{
    return json().value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
}

HttpTestClient::HttpTestClient(quint16 port, const QString &from)
{
    if (!from.isEmpty()) {
        m_socket.bind(QHostAddress(from));
    }
    m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    spinUntil([this] { return m_socket.state() == QAbstractSocket::ConnectedState; });
}

void HttpTestClient::send(const QByteArray &bytes)
{
    m_socket.write(bytes);
    m_socket.flush();
}

std::optional<HttpResponse> HttpTestClient::readResponse(std::chrono::milliseconds timeout)
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

std::optional<HttpResponse> HttpTestClient::peekResponse(const std::function<bool(const HttpResponse &)> &done,
                                                         std::chrono::milliseconds timeout)
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

bool HttpTestClient::waitForDisconnected(std::chrono::milliseconds timeout)
{
    return spinUntil([this] { return m_socket.state() == QAbstractSocket::UnconnectedState; }, timeout);
}

QByteArray HttpTestClient::received()
{
    pull();
    return m_buffer;
}

bool HttpTestClient::spinUntil(const std::function<bool()> &condition, std::chrono::milliseconds timeout)
{
    return waitUntil(
        [&] {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            return condition();
        },
        timeout, std::chrono::milliseconds(1));
}

QByteArray HttpTestClient::request(const QByteArray &method, const QList<std::pair<QByteArray, QByteArray>> &headers,
                                   const QByteArray &body, const QByteArray &path)
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

std::optional<HttpResponse> HttpTestClient::take(bool atClose)
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

} // namespace sandbox::test
