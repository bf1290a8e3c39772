#pragma once

#include "backend/BackendFactory.h"
#include "engine/ExecutionEngine.h"
#include "settings/SandboxSettings.h"

#include <QHash>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTcpServer>
#include <QTest>
#include <chrono>
#include <functional>
#include <gtest/gtest.h>
#include <memory>
#include <optional>

namespace sandbox::gui::guitest {

/// Processes events until `condition` holds or `timeout` passes; returns whether it held (QTest::qWaitFor with
/// the std::chrono timeouts the tests use).
inline bool waitUntil(const std::function<bool()> &condition, std::chrono::milliseconds timeout)
{
    return QTest::qWaitFor(condition, int(timeout.count()));
}

/// The real Docker engine of this machine (the GUI tests use it where the fake backend cannot stand in).
inline std::unique_ptr<ExecutionEngine> dockerEngine()
{
    auto settings = SandboxSettings::fromEnvironment();
    auto backend = BackendFactory::create(QStringLiteral("docker"));
    if (!settings || !backend) {
        return nullptr;
    }
    return std::make_unique<ExecutionEngine>(*backend, *settings);
}

/// A loopback port nobody listens on right now.
inline quint16 freePort()
{
    QTcpServer probe;
    EXPECT_TRUE(probe.listen(QHostAddress::LocalHost, 0));
    return probe.serverPort();
}

inline QByteArray jsonLine(const QJsonObject &message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
}

/// The real `llm-sandbox --mcp`, as an assistant launches it: its own process, speaking JSON-RPC over stdio.
class McpServerProcess final
{
public:
    McpServerProcess(const QString &journalPath, const QString &home)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), journalPath);
        environment.insert(QStringLiteral("BACKEND"), QStringLiteral("docker"));
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        environment.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        m_process.setProcessEnvironment(environment);
        m_process.start(qEnvironmentVariable("LLM_SANDBOX_BIN"), {QStringLiteral("--mcp")});
    }
    ~McpServerProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }
    McpServerProcess(const McpServerProcess &) = delete;
    McpServerProcess &operator=(const McpServerProcess &) = delete;

    QProcess &process() { return m_process; }
    void send(const QJsonObject &message) { m_process.write(jsonLine(message)); }
    /// The `initialize` request (id 1) of a client named `name`.
    void sendInitialize(const QString &name, const QString &version)
    {
        send(QJsonObject{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), 1},
            {QStringLiteral("method"), QStringLiteral("initialize")},
            {QStringLiteral("params"),
             QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                         {QStringLiteral("capabilities"), QJsonObject{}},
                         {QStringLiteral("clientInfo"),
                          QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("version"), version}}}}},
        });
    }
    /// The `notifications/initialized` that follows initialize's reply.
    void sendInitialized()
    {
        send(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                         {QStringLiteral("method"), QStringLiteral("notifications/initialized")}});
    }
    /// An `execute_code` call (request `id`) with `arguments`.
    void sendExecuteCode(int id, const QJsonObject &arguments)
    {
        send(QJsonObject{
            {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
            {QStringLiteral("id"), id},
            {QStringLiteral("method"), QStringLiteral("tools/call")},
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("name"), QStringLiteral("execute_code")},
                                                   {QStringLiteral("arguments"), arguments}}},
        });
    }

    /// The reply to request `id` once it has been read (notifications and other replies are kept aside).
    std::optional<QJsonObject> replyTo(int id)
    {
        m_buffer += m_process.readAllStandardOutput();
        qsizetype end = 0;
        while ((end = m_buffer.indexOf('\n')) >= 0) {
            const QJsonObject message = QJsonDocument::fromJson(m_buffer.left(end)).object();
            m_buffer.remove(0, end + 1);
            if (message.contains(QStringLiteral("id"))) {
                m_replies.insert(message.value(QStringLiteral("id")).toInt(), message);
            }
        }
        if (const auto it = m_replies.constFind(id); it != m_replies.cend()) {
            return *it;
        }
        return std::nullopt;
    }

private:
    QProcess m_process;
    QByteArray m_buffer;
    QHash<int, QJsonObject> m_replies;
};

} // namespace sandbox::gui::guitest
