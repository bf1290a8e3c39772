#pragma once

// A real `llm-sandbox` MCP server as a child process of the test, over stdio or Streamable HTTP, spoken to with the
// test client (support/McpTestClient.h): the tests that kill it, or take its journal away, need the process itself.

#include "WaitUntil.h"
#include "support/McpTestClient.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <gtest/gtest.h>
#include <memory>

namespace sandbox::test {

using namespace std::chrono_literals;

inline const QJsonObject kInitialize =
    initializeParams(QStringLiteral("2025-06-18"), QStringLiteral("server-process-test"));

/// How a server is started: its engine, its journal, and what else differs from the test's environment.
struct ServerOptions
{
    QString backend = QStringLiteral("docker");
    QString journal;
    QHash<QString, QString> environment;
    /// A command that runs the server (`unshare … sh -c '…' …`), given the server's command line after its own.
    QStringList wrapper;
};

class ServerProcess
{
public:
    virtual ~ServerProcess() = default;
    virtual QProcess &process() = 0;
    /// Sends the request and waits for its answer (empty after 10 minutes without one).
    QJsonObject call(int id, const QString &method, const QJsonObject &params)
    {
        return client().request(id, method, params).message;
    }
    /// Sends the request without waiting: the answer never comes when the server is killed first.
    virtual void send(int id, const QString &method, const QJsonObject &params) = 0;
    /// execute_code of Python `code`; the answer.
    QJsonObject execute(int id, const QString &code)
    {
        return call(id, "tools/call", toolCallParams("execute_code", QJsonObject{{"code", code}}));
    }
    /// What the server wrote to stderr so far.
    QString stderrText()
    {
        // The pipe is read by the event loop, which nothing else runs while a test waits.
        QCoreApplication::processEvents();
        m_stderr += process().readAllStandardError();
        return QString::fromUtf8(m_stderr);
    }

protected:
    virtual McpTestClient &client() = 0;
    void start(const QStringList &arguments, const ServerOptions &options)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("BACKEND"), options.backend);
        environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), options.journal);
        for (auto it = options.environment.cbegin(); it != options.environment.cend(); ++it) {
            environment.insert(it.key(), it.value());
        }
        process().setProcessEnvironment(environment);
        const QString program = qEnvironmentVariable("LLM_SANDBOX_BIN");
        if (options.wrapper.isEmpty()) {
            process().start(program, arguments);
        } else {
            process().start(options.wrapper.first(), options.wrapper.mid(1) + QStringList{program} + arguments);
        }
    }

private:
    QByteArray m_stderr;
};

class StdioServer final : public ServerProcess
{
public:
    explicit StdioServer(const ServerOptions &options) { start({QStringLiteral("--mcp")}, options); }
    QProcess &process() override { return m_client.process(); }
    void send(int id, const QString &method, const QJsonObject &params) override
    {
        m_client.send(jsonRpcRequest(id, method, params));
    }
    /// The answer to request `id` (sent with send()), waiting up to 10 minutes; answers to other requests that come
    /// meanwhile are kept for their own answer() call.
    QJsonObject answer(int id) { return m_client.waitForAnswer(id).message; }
    /// Whether the answer to `id` has come (without waiting for it).
    bool answered(int id) { return m_client.answered(id); }

protected:
    McpTestClient &client() override { return m_client; }

private:
    StdioMcpClient m_client;
};

class HttpServer final : public ServerProcess
{
public:
    explicit HttpServer(ServerOptions options)
    {
        options.environment.insert(QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QString::fromLatin1(kToken));
        start({QStringLiteral("serve"), QStringLiteral("--http"), QStringLiteral("127.0.0.1:0")}, options);
        QUrl url;
        waitUntil(
            [&] {
                m_process.waitForReadyRead(100);
                url = announcedMcpUrl(stderrText());
                return url.isValid() || m_process.state() == QProcess::NotRunning;
            },
            60s);
        EXPECT_TRUE(url.isValid()) << "serve --http did not say where it listens:\n" << stderrText().toStdString();
        m_client = std::make_unique<HttpMcpClient>(url, kToken.toByteArray());
    }
    QProcess &process() override { return m_process; }
    void send(int id, const QString &method, const QJsonObject &params) override
    {
        client().send(jsonRpcRequest(id, method, params));
        // On the wire now: the test waits for its effect without running the event loop.
        EXPECT_TRUE(m_client->waitForSent());
    }

protected:
    McpTestClient &client() override { return *m_client; }

private:
    static constexpr QByteArrayView kToken = "server-process-test-token-0123456789abcdef";
    QProcess m_process;
    std::unique_ptr<HttpMcpClient> m_client;
};

/// A Python sandbox session opened through `server` (create_session, then a run in it: its container holds state),
/// with the ids `firstId` and the next; its id, empty (and a test failure) when that went wrong.
inline QString openPythonSession(ServerProcess &server, int firstId)
{
    const QJsonObject created =
        server.call(firstId, "tools/call", toolCallParams("create_session", QJsonObject{{"language", "python"}}));
    const QString session = QJsonDocument::fromJson(toolText(created).toUtf8()).object().value("session_id").toString();
    EXPECT_FALSE(session.isEmpty()) << QJsonDocument(created).toJson().toStdString();
    const QJsonObject ran =
        server.call(firstId + 1, "tools/call",
                    toolCallParams("execute_code", QJsonObject{{"code", "x = 1"}, {"session_id", session}}));
    EXPECT_FALSE(ran.value("result").toObject().value("isError").toBool(true))
        << QJsonDocument(ran).toJson().toStdString();
    return session;
}

} // namespace sandbox::test
