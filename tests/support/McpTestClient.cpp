#include "McpTestClient.h"

#include <QDeadlineTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>
#include <utility>

namespace sandbox::test {

namespace {

/// Ids are numbers or strings: both kinds as one key.
QString idKey(const QJsonValue &id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString() : QString::number(id.toInteger());
}

bool isResponse(const QJsonObject &message)
{
    return message.contains(QLatin1String("result")) || message.contains(QLatin1String("error"));
}

} // namespace

// ---------------------------------------------------------------------------------------------------------------------
// JSON-RPC messages

QJsonObject jsonRpcRequest(const QJsonValue &id, const QString &method, const QJsonObject &params)
{
    QJsonObject message = jsonRpcNotification(method, params);
    message.insert(QStringLiteral("id"), id);
    return message;
}

QJsonObject jsonRpcNotification(const QString &method, const QJsonObject &params)
{
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")}, {QStringLiteral("method"), method}};
    if (!params.isEmpty()) {
        message.insert(QStringLiteral("params"), params);
    }
    return message;
}

QByteArray compactJson(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact);
}

QJsonObject initializeParams(const QString &protocolVersion, const QString &clientName, const QJsonObject &capabilities)
{
    return {{QStringLiteral("protocolVersion"), protocolVersion},
            {QStringLiteral("capabilities"), capabilities},
            {QStringLiteral("clientInfo"),
             QJsonObject{{QStringLiteral("name"), clientName}, {QStringLiteral("version"), QStringLiteral("1")}}}};
}

QJsonObject toolCallParams(const QString &tool, const QJsonObject &arguments, const QJsonObject &meta)
{
    QJsonObject params{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}};
    if (!meta.isEmpty()) {
        params.insert(QStringLiteral("_meta"), meta);
    }
    return params;
}

QString firstText(const QJsonObject &callToolResult)
{
    return callToolResult.value(QLatin1String("content"))
        .toArray()
        .at(0)
        .toObject()
        .value(QLatin1String("text"))
        .toString();
}

QString toolText(const QJsonObject &response)
{
    return firstText(response.value(QLatin1String("result")).toObject());
}

QList<QJsonObject> eventStreamMessages(const QByteArray &body)
{
    QList<QJsonObject> messages;
    QByteArray data;
    bool hasData = false;
    const auto endEvent = [&] {
        if (hasData) {
            messages.append(QJsonDocument::fromJson(data).object());
        }
        data.clear();
        hasData = false;
    };
    for (QByteArray line : body.split('\n')) {
        if (line.endsWith('\r')) {
            line.chop(1);
        }
        if (line.isEmpty()) {
            endEvent();
        } else if (line.startsWith("data:")) {
            if (hasData) {
                data += '\n';
            }
            data += line.mid(line.startsWith("data: ") ? 6 : 5);
            hasData = true;
        }
    }
    endEvent();
    return messages;
}

QUrl announcedMcpUrl(const QString &stderrText)
{
    static const QRegularExpression announcement(
        QStringLiteral("serving MCP over Streamable HTTP at (http://\\S+/mcp)"));
    const QRegularExpressionMatch match = announcement.match(stderrText);
    return match.hasMatch() ? QUrl(match.captured(1)) : QUrl();
}

// ---------------------------------------------------------------------------------------------------------------------
// McpTestClient

McpTestClient::~McpTestClient() = default;

McpAnswer McpTestClient::request(const QJsonValue &id, const QString &method, const QJsonObject &params,
                                 std::chrono::milliseconds timeout)
{
    send(jsonRpcRequest(id, method, params));
    return waitForAnswer(id, timeout);
}

McpAnswer McpTestClient::waitForAnswer(const QJsonValue &id, std::chrono::milliseconds timeout)
{
    const QString key = idKey(id);
    const QDeadlineTimer deadline(timeout);
    while (!m_answers.contains(key) && !deadline.hasExpired()) {
        waitForDelivery(std::chrono::milliseconds(std::max<qint64>(1, deadline.remainingTime())));
    }
    if (!m_answers.contains(key)) {
        return {{}, QStringLiteral("no answer to request %1 in time").arg(key)};
    }
    return m_answers.take(key);
}

bool McpTestClient::answered(const QJsonValue &id)
{
    waitForDelivery(std::chrono::milliseconds(0));
    return m_answers.contains(idKey(id));
}

McpAnswer McpTestClient::initialize(const QJsonValue &id, const QString &protocolVersion, const QString &clientName)
{
    McpAnswer answer =
        request(id, QStringLiteral("initialize"), initializeParams(protocolVersion, clientName), kDefaultTimeout);
    if (answer.ok() && answer.message.contains(QLatin1String("result"))) {
        send(jsonRpcNotification(QStringLiteral("notifications/initialized")), [](const McpAnswer &) {});
    }
    return answer;
}

McpAnswer McpTestClient::callTool(const QJsonValue &id, const QString &tool, const QJsonObject &arguments,
                                  const QJsonObject &meta, std::chrono::milliseconds timeout)
{
    return request(id, QStringLiteral("tools/call"), toolCallParams(tool, arguments, meta), timeout);
}

void McpTestClient::deliver(const QJsonValue &id, const Handler &handler, const McpAnswer &answer)
{
    if (handler) {
        handler(answer);
        return;
    }
    if (id.isUndefined()) {
        return; // an accepted notification nobody waits for
    }
    m_answers.insert(idKey(id), answer);
    if (m_waiting) {
        m_waiting->quit();
    }
}

void McpTestClient::noteServerMessage(const QJsonObject &message)
{
    if (m_keepNotifications && !message.contains(QLatin1String("id")) && message.contains(QLatin1String("method"))) {
        m_notifications.append(message);
    }
}

void McpTestClient::waitForDelivery(std::chrono::milliseconds timeout)
{
    QEventLoop loop;
    if (timeout.count() == 0) {
        loop.processEvents(QEventLoop::AllEvents);
        return;
    }
    QTimer::singleShot(timeout, &loop, &QEventLoop::quit);
    QEventLoop *const outer = std::exchange(m_waiting, &loop);
    loop.exec();
    m_waiting = outer;
}

// ---------------------------------------------------------------------------------------------------------------------
// StdioMcpClient

StdioMcpClient::StdioMcpClient()
{
    QObject::connect(&m_process, &QProcess::readyReadStandardOutput, [this] { readMessages(); });
    QObject::connect(&m_process, &QProcess::finished, [this] {
        readMessages();
        failPending(QStringLiteral("the server exited"));
    });
    QObject::connect(&m_process, &QProcess::errorOccurred, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            failPending(QStringLiteral("the server did not start: ") + m_process.errorString());
        }
    });
}

StdioMcpClient::~StdioMcpClient()
{
    // No handler may run once the client is gone (QProcess kills a process still running).
    m_process.disconnect();
}

void StdioMcpClient::send(const QJsonObject &message, Handler handler)
{
    const QJsonValue id = message.value(QLatin1String("id"));
    if (id.isUndefined()) {
        if (handler) { // a notification is accepted once written
            QTimer::singleShot(0, &m_process, [handler = std::move(handler)] { handler({}); });
        }
    } else {
        m_pending.insert(idKey(id), handler);
    }
    m_process.write(compactJson(message) + '\n');
    // Out now: a test may wait for the request's effect without running the event loop.
    m_process.waitForBytesWritten(5000);
    if (m_process.state() == QProcess::NotRunning) {
        QTimer::singleShot(0, &m_process, [this] { failPending(QStringLiteral("the server is not running")); });
    }
}

void StdioMcpClient::close(std::function<void()> done)
{
    m_process.closeWriteChannel();
    done();
}

void StdioMcpClient::readMessages()
{
    while (m_process.canReadLine()) {
        const QJsonObject message = QJsonDocument::fromJson(m_process.readLine()).object();
        const QJsonValue id = message.value(QLatin1String("id"));
        if (!isResponse(message)) {
            noteServerMessage(message);
        } else if (const auto pending = m_pending.find(idKey(id)); pending != m_pending.end()) {
            Handler handler = std::move(*pending);
            m_pending.erase(pending);
            deliver(id, handler, McpAnswer{message, {}});
        }
    }
}

void StdioMcpClient::failPending(const QString &why)
{
    const auto pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
        const QString &key = it.key();
        const QJsonValue id =
            key.startsWith(QLatin1String("s:")) ? QJsonValue(key.mid(2)) : QJsonValue(key.toLongLong());
        deliver(id, it.value(), McpAnswer{{}, why});
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// HttpMcpClient

HttpMcpClient::HttpMcpClient(QUrl url, QByteArray token, std::chrono::milliseconds timeout)
    : m_url(std::move(url)), m_token(std::move(token)), m_timeout(timeout)
{
    m_network.setProxy(QNetworkProxy::NoProxy);
}

HttpMcpClient::~HttpMcpClient()
{
    // No handler may run once the client is gone: the replies are aborted silently.
    for (QNetworkReply *reply : m_network.findChildren<QNetworkReply *>()) {
        reply->disconnect();
        reply->abort();
    }
}

void HttpMcpClient::send(const QJsonObject &message, Handler handler)
{
    QNetworkReply *reply = m_network.post(request(), compactJson(message));
    ++m_unsent;
    auto sent = std::make_shared<bool>(false);
    const auto markSent = [this, sent] {
        if (!std::exchange(*sent, true)) {
            --m_unsent;
        }
    };
    QObject::connect(reply, &QNetworkReply::uploadProgress, reply, [markSent](qint64 done, qint64 total) {
        if (total > 0 && done == total) {
            markSent();
        }
    });
    QObject::connect(reply, &QNetworkReply::finished, reply,
                     [this, reply, markSent, id = message.value(QLatin1String("id")), handler = std::move(handler)] {
                         markSent();
                         reply->deleteLater();
                         deliver(id, handler, answerOf(*reply));
                     });
}

void HttpMcpClient::close(std::function<void()> done)
{
    if (m_sessionId.isEmpty()) {
        done();
        return;
    }
    QNetworkReply *reply = m_network.deleteResource(request());
    QObject::connect(reply, &QNetworkReply::finished, reply, [reply, done = std::move(done)] {
        reply->deleteLater();
        done();
    });
}

bool HttpMcpClient::waitForSent(std::chrono::milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    while (m_unsent > 0 && !deadline.hasExpired()) {
        QEventLoop loop;
        loop.processEvents(QEventLoop::AllEvents, 10);
    }
    return m_unsent == 0;
}

QNetworkRequest HttpMcpClient::request() const
{
    QNetworkRequest request(m_url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setRawHeader("Accept", "application/json, text/event-stream");
    request.setRawHeader("Authorization", "Bearer " + m_token);
    if (!m_sessionId.isEmpty()) {
        request.setRawHeader("Mcp-Session-Id", m_sessionId);
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion);
    }
    request.setTransferTimeout(int(m_timeout.count()));
    return request;
}

McpAnswer HttpMcpClient::answerOf(QNetworkReply &reply)
{
    const QByteArray body = reply.readAll();
    if (reply.error() != QNetworkReply::NoError) {
        return {{},
                QStringLiteral("HTTP %1: %2 %3")
                    .arg(reply.attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt())
                    .arg(reply.errorString(), QString::fromUtf8(body.left(200)))};
    }
    if (body.isEmpty()) {
        return {}; // 202: a notification was accepted
    }
    QJsonObject response;
    if (reply.header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String("text/event-stream"))) {
        for (const QJsonObject &message : eventStreamMessages(body)) {
            isResponse(message) ? void(response = message) : noteServerMessage(message);
        }
    } else {
        response = QJsonDocument::fromJson(body).object();
    }
    if (response.isEmpty()) {
        return {{}, QStringLiteral("no JSON-RPC response in \"%1\"").arg(QString::fromUtf8(body.left(200)))};
    }
    if (const QByteArray session = reply.rawHeader("Mcp-Session-Id"); !session.isEmpty()) {
        m_sessionId = session;
        m_protocolVersion = response.value(QLatin1String("result"))
                                .toObject()
                                .value(QLatin1String("protocolVersion"))
                                .toString()
                                .toLatin1();
    }
    return {response, {}};
}

} // namespace sandbox::test
