#pragma once

#include "WaitUntil.h"
#include "artifacts/Artifact.h"
#include "mcp/server/McpDispatcher.h"
#include "support/HttpTestClient.h"
#include "support/McpTestClient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <chrono>
#include <mutex>
#include <thread>

namespace sandbox::mcp::test {

using sandbox::test::firstText;
using sandbox::test::HttpResponse;
using sandbox::test::HttpTestClient;

/// A JSON-RPC request as sent on the wire; `params` left out when empty.
inline QByteArray request(const QJsonValue &id, const QString &method, const QJsonObject &params = {})
{
    return sandbox::test::compactJson(sandbox::test::jsonRpcRequest(id, method, params));
}

inline QByteArray notification(const QString &method, const QJsonObject &params = {})
{
    return sandbox::test::compactJson(sandbox::test::jsonRpcNotification(method, params));
}

inline QByteArray toolCall(const QJsonValue &id, const QString &tool, const QJsonObject &arguments,
                           const QJsonObject &meta = {})
{
    return request(id, QStringLiteral("tools/call"), sandbox::test::toolCallParams(tool, arguments, meta));
}

/// Waits for the dispatcher's reply (tests only: the server never blocks on it).
inline QJsonDocument replyTo(McpDispatcher &dispatcher, const QByteArray &message);

/// A file a run produced, as the engine hands it over.
inline Artifact artifact(const QString &name, const QString &mimeType, const QByteArray &data)
{
    return Artifact{.name = name, .mimeType = mimeType, .data = data, .path = {}};
}

/// The initialize request of a client named `clientName` asking for `protocolVersion`.
inline QByteArray initializeRequest(const QJsonValue &id, const QString &protocolVersion,
                                    const QString &clientName = QStringLiteral("test"))
{
    return request(id, QStringLiteral("initialize"), sandbox::test::initializeParams(protocolVersion, clientName));
}

/// Runs the handshake a client starts with (every revision serves only ping before it).
inline void initializeSession(McpDispatcher &dispatcher, const QString &protocolVersion = QStringLiteral("2025-11-25"))
{
    replyTo(dispatcher, initializeRequest(0, protocolVersion));
}

/// Waits for the dispatcher's reply (tests only: the server never blocks on it).
inline QJsonDocument replyTo(McpDispatcher &dispatcher, const QByteArray &message)
{
    QFuture<QJsonDocument> future = dispatcher.handle(message);
    future.waitForFinished();
    return future.resultCount() > 0 ? future.result() : QJsonDocument();
}

/// Collects what a dispatcher sends on its own (notifications), from any thread.
class SinkRecorder final
{
public:
    McpDispatcher::MessageSink sink()
    {
        return [this](const QJsonObject &message, const QJsonValue &) {
            const std::lock_guard lock(m_mutex);
            m_messages.append(message);
        };
    }
    QList<QJsonObject> messages() const
    {
        const std::lock_guard lock(m_mutex);
        return m_messages;
    }
    QList<QJsonObject> withMethod(const QString &method) const
    {
        QList<QJsonObject> out;
        for (const QJsonObject &message : messages()) {
            if (message.value(QStringLiteral("method")).toString() == method) {
                out.append(message);
            }
        }
        return out;
    }

private:
    mutable std::mutex m_mutex;
    QList<QJsonObject> m_messages;
};

using sandbox::test::waitUntil;

} // namespace sandbox::mcp::test
