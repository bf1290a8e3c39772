#pragma once

// A real `llm-sandbox` MCP server as a child process of the test, over stdio or Streamable HTTP, spoken to with the
// raw protocol: the tests that kill it, or take its journal away, need the process itself, not a client library.

#include "WaitUntil.h"
#include "mcp/http/HttpTestClient.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

namespace sandbox::test {

using namespace std::chrono_literals;

inline QByteArray jsonRpc(int id, const QString &method, const QJsonObject &params)
{
    return QJsonDocument(QJsonObject{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}})
        .toJson(QJsonDocument::Compact);
}

inline const QJsonObject kInitialize{{"protocolVersion", "2025-06-18"},
                                     {"capabilities", QJsonObject{}},
                                     {"clientInfo", QJsonObject{{"name", "server-process-test"}, {"version", "1"}}}};

/// The text of a tool call's first content item.
inline QString toolText(const QJsonObject &answer)
{
    return answer.value("result").toObject().value("content").toArray().at(0).toObject().value("text").toString();
}

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
    QProcess &process() { return m_process; }
    /// Sends the request and waits for its answer (empty after 10 minutes without one).
    virtual QJsonObject call(int id, const QString &method, const QJsonObject &params) = 0;
    /// Sends the request without waiting: the answer never comes when the server is killed first.
    virtual void send(int id, const QString &method, const QJsonObject &params) = 0;
    /// execute_code of Python `code`; the answer.
    QJsonObject execute(int id, const QString &code)
    {
        return call(id, "tools/call", {{"name", "execute_code"}, {"arguments", QJsonObject{{"code", code}}}});
    }
    /// What the server wrote to stderr so far.
    QString stderrText()
    {
        // The pipe is read by the event loop, which nothing else runs while a test waits.
        QCoreApplication::processEvents();
        m_stderr += m_process.readAllStandardError();
        return QString::fromUtf8(m_stderr);
    }

protected:
    void start(const QStringList &arguments, const ServerOptions &options)
    {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("BACKEND"), options.backend);
        environment.insert(QStringLiteral("LLM_SANDBOX_JOURNAL"), options.journal);
        for (auto it = options.environment.cbegin(); it != options.environment.cend(); ++it) {
            environment.insert(it.key(), it.value());
        }
        m_process.setProcessEnvironment(environment);
        const QString program = qEnvironmentVariable("LLM_SANDBOX_BIN");
        if (options.wrapper.isEmpty()) {
            m_process.start(program, arguments);
        } else {
            m_process.start(options.wrapper.first(), options.wrapper.mid(1) + QStringList{program} + arguments);
        }
    }
    QProcess m_process;
    QByteArray m_stderr;
};

class StdioServer final : public ServerProcess
{
public:
    explicit StdioServer(const ServerOptions &options) { start({QStringLiteral("--mcp")}, options); }
    QJsonObject call(int id, const QString &method, const QJsonObject &params) override
    {
        send(id, method, params);
        return answer(id);
    }
    void send(int id, const QString &method, const QJsonObject &params) override
    {
        m_process.write(jsonRpc(id, method, params) + '\n');
        m_process.waitForBytesWritten(5000);
    }
    /// The answer to request `id` (sent with send()), waiting up to 10 minutes; answers to other requests that come
    /// meanwhile are kept for their own answer() call.
    QJsonObject answer(int id)
    {
        for (int waited = 0; waited < 600; ++waited) {
            readAnswers();
            if (m_answers.contains(id)) {
                return m_answers.take(id);
            }
            if (m_process.state() == QProcess::NotRunning) {
                return {};
            }
            m_process.waitForReadyRead(1000);
        }
        return {};
    }
    /// Whether the answer to `id` has come (without waiting for it).
    bool answered(int id)
    {
        m_process.waitForReadyRead(0);
        readAnswers();
        return m_answers.contains(id);
    }

private:
    void readAnswers()
    {
        while (m_process.canReadLine()) {
            const QJsonObject message = QJsonDocument::fromJson(m_process.readLine()).object();
            if (message.contains("id")) {
                m_answers.insert(message.value("id").toInt(), message);
            }
        }
    }
    QHash<int, QJsonObject> m_answers;
};

class HttpServer final : public ServerProcess
{
public:
    explicit HttpServer(ServerOptions options)
    {
        options.environment.insert(QStringLiteral("LLM_SANDBOX_HTTP_TOKEN"), QString::fromLatin1(kToken));
        start({QStringLiteral("serve"), QStringLiteral("--http"), QStringLiteral("127.0.0.1:0")}, options);
        static const QRegularExpression listening(QStringLiteral("at http://127\\.0\\.0\\.1:(\\d+)/mcp"));
        waitUntil(
            [&] {
                m_process.waitForReadyRead(100);
                m_port = quint16(listening.match(stderrText()).captured(1).toUInt());
                return m_port != 0 || m_process.state() == QProcess::NotRunning;
            },
            60s);
        EXPECT_NE(m_port, 0) << "serve --http did not say where it listens:\n" << stderrText().toStdString();
    }
    QJsonObject call(int id, const QString &method, const QJsonObject &params) override
    {
        mcp::test::HttpTestClient client(m_port);
        client.send(request(id, method, params));
        const auto response = client.readResponse(600s);
        if (!response) {
            return {};
        }
        if (method == QStringLiteral("initialize")) {
            m_session = response->header("Mcp-Session-Id");
        }
        const QList<QJsonObject> events = response->events();
        return events.isEmpty() ? response->json() : events.last();
    }
    void send(int id, const QString &method, const QJsonObject &params) override
    {
        m_pending.push_back(std::make_unique<mcp::test::HttpTestClient>(m_port));
        m_pending.back()->send(request(id, method, params));
    }

private:
    static constexpr QByteArrayView kToken = "server-process-test-token-0123456789abcdef";
    QByteArray request(int id, const QString &method, const QJsonObject &params) const
    {
        QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", "Bearer " + kToken.toByteArray()},
                                                         {"Content-Type", "application/json"},
                                                         {"Accept", "application/json, text/event-stream"}};
        if (!m_session.isEmpty()) {
            headers.append({"Mcp-Session-Id", m_session});
            headers.append({QByteArray("MCP-Protocol-Version"), QByteArray("2025-06-18")});
        }
        return mcp::test::HttpTestClient::request("POST", headers, jsonRpc(id, method, params));
    }
    quint16 m_port = 0;
    QByteArray m_session;
    std::vector<std::unique_ptr<mcp::test::HttpTestClient>> m_pending;
};

/// A Python sandbox session opened through `server` (create_session, then a run in it: its container holds state),
/// with the ids `firstId` and the next; its id, empty (and a test failure) when that went wrong.
inline QString openPythonSession(ServerProcess &server, int firstId)
{
    const QJsonObject created = server.call(
        firstId, "tools/call", {{"name", "create_session"}, {"arguments", QJsonObject{{"language", "python"}}}});
    const QString session = QJsonDocument::fromJson(toolText(created).toUtf8()).object().value("session_id").toString();
    EXPECT_FALSE(session.isEmpty()) << QJsonDocument(created).toJson().toStdString();
    const QJsonObject ran =
        server.call(firstId + 1, "tools/call",
                    {{"name", "execute_code"}, {"arguments", QJsonObject{{"code", "x = 1"}, {"session_id", session}}}});
    EXPECT_FALSE(ran.value("result").toObject().value("isError").toBool(true))
        << QJsonDocument(ran).toJson().toStdString();
    return session;
}

} // namespace sandbox::test
