// Sandbox sessions of 2026-07-28 clients over HTTP: every such request comes alone, with the token all clients
// share, so the session is reached by the handle create_session gave, never by an owner requests have in common.
// Real tools and a real engine on the fake backend, over real sockets.
#include "ScopedEnvironment.h"
#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "mcp/McpTestSupport.h"
#include "mcp/http/StreamableHttpServer.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"
#include "support/HttpTestClient.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <optional>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

const QByteArray kToken = "stateless-sessions-test-token-0123456789";

class StatelessSessionsTest : public ::testing::Test
{
protected:
    StatelessSessionsTest()
    {
        // The image catalog reads the runner binary to name the images; any file does for the fake backend.
        const QString runner = m_runnerDir.filePath(QStringLiteral("llm-sandbox-runner"));
        QFile file(runner);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("not a runner");
        file.close();
        m_environment.emplace(
            std::initializer_list<std::pair<const char *, QByteArray>>{{"LLM_SANDBOX_RUNNER", runner.toLocal8Bit()}});
        m_engine = std::make_unique<ExecutionEngine>(std::make_shared<sandbox::test::FakeBackend>(), SandboxSettings());
        m_server = std::make_unique<StreamableHttpServer>(
            [this](McpDispatcher::MessageSink sink) {
                DispatcherOptions options;
                options.source = RunSource::Http;
                options.resourceTemplates = SandboxTools::resourceTemplates(m_engine.get());
                return std::make_unique<McpDispatcher>(
                    SandboxTools::tools(CodeExecutor::forEngine(m_engine.get()), m_engine.get()),
                    SandboxTools::resources(m_engine.get()), std::move(sink), options);
            },
            kToken);
        const Result<quint16> port = m_server->start();
        EXPECT_TRUE(port.ok());
        m_port = port.ok() ? *port : 0;
    }

    ~StatelessSessionsTest() override { m_server.reset(); }

    /// One 2026-07-28 request, alone, as any client holding the token sends it; the answer's result.
    QJsonObject send(const QString &method, const QByteArray &name, const QJsonObject &params)
    {
        QJsonObject withMeta = params;
        withMeta.insert(
            QStringLiteral("_meta"),
            QJsonObject{{RequestMeta::kProtocolVersion, QStringLiteral("2026-07-28")},
                        {RequestMeta::kClientInfo, QJsonObject{{QStringLiteral("name"), QStringLiteral("c")},
                                                               {QStringLiteral("version"), QStringLiteral("1")}}},
                        {RequestMeta::kClientCapabilities, QJsonObject()}});
        QList<std::pair<QByteArray, QByteArray>> headers{{"Authorization", "Bearer " + kToken},
                                                         {"Content-Type", "application/json"},
                                                         {"Accept", "application/json, text/event-stream"},
                                                         {"MCP-Protocol-Version", "2026-07-28"},
                                                         {"Mcp-Method", method.toLatin1()}};
        if (!name.isEmpty()) {
            headers.append({"Mcp-Name", name});
        }
        HttpTestClient client(m_port);
        client.send(HttpTestClient::request("POST", headers, request(1, method, withMeta)));
        const std::optional<HttpResponse> response = client.readResponse();
        EXPECT_TRUE(response.has_value());
        return response ? response->json() : QJsonObject();
    }

    QJsonObject call(const QString &tool, const QJsonObject &arguments)
    {
        return send(QStringLiteral("tools/call"), tool.toLatin1(),
                    QJsonObject{{QStringLiteral("name"), tool}, {QStringLiteral("arguments"), arguments}})
            .value(QStringLiteral("result"))
            .toObject();
    }

    QTemporaryDir m_runnerDir;
    std::optional<sandbox::test::ScopedEnvironment> m_environment;
    std::unique_ptr<ExecutionEngine> m_engine;
    std::unique_ptr<StreamableHttpServer> m_server;
    quint16 m_port = 0;
};

TEST_F(StatelessSessionsTest, aClientReachesOnlyTheSessionsItOpened)
{
    // Client A opens a session and leaves a file in it.
    const QJsonObject created =
        QJsonDocument::fromJson(firstText(call(QStringLiteral("create_session"), {})).toUtf8()).object();
    const QString handle = created.value(QStringLiteral("session_id")).toString();
    ASSERT_FALSE(handle.isEmpty()) << firstText(call(QStringLiteral("list_sessions"), {})).toStdString();
    const QString id = handle.section(QLatin1Char('.'), 0, 0);
    ASSERT_NE(id, handle) << "a stateless client gets a handle, not the bare id";
    const QJsonObject uploaded =
        call(QStringLiteral("upload_file"), {{QStringLiteral("session_id"), handle},
                                             {QStringLiteral("path"), QStringLiteral("a.txt")},
                                             {QStringLiteral("content"), QStringLiteral("A's data")}});
    ASSERT_FALSE(uploaded.value(QStringLiteral("isError")).toBool()) << firstText(uploaded).toStdString();

    // Client B, with the same token and the session's id (as the journal and the app show it), reaches nothing.
    const QJsonObject listed =
        QJsonDocument::fromJson(firstText(call(QStringLiteral("list_sessions"), {})).toUtf8()).object();
    EXPECT_TRUE(listed.value(QStringLiteral("sessions")).toArray().isEmpty())
        << firstText(call(QStringLiteral("list_sessions"), {})).toStdString();
    const QJsonObject read = call(QStringLiteral("download_file"), {{QStringLiteral("session_id"), id},
                                                                    {QStringLiteral("path"), QStringLiteral("a.txt")}});
    EXPECT_TRUE(read.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(read).contains(QStringLiteral("no session"), Qt::CaseInsensitive))
        << firstText(read).toStdString();
    EXPECT_FALSE(firstText(read).contains(QStringLiteral("A's data")));
    const QJsonObject closed = call(QStringLiteral("close_session"), {{QStringLiteral("session_id"), id}});
    EXPECT_TRUE(closed.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(closed).contains(QStringLiteral("no session"), Qt::CaseInsensitive))
        << firstText(closed).toStdString();
    const QJsonObject guessed =
        call(QStringLiteral("download_file"), {{QStringLiteral("session_id"), QString(id + QStringLiteral(".guess"))},
                                               {QStringLiteral("path"), QStringLiteral("a.txt")}});
    EXPECT_TRUE(guessed.value(QStringLiteral("isError")).toBool());
    const QJsonObject resource =
        send(QStringLiteral("resources/read"), "sandbox://sessions/" + id.toLatin1() + "/files/a.txt",
             {{QStringLiteral("uri"), QStringLiteral("sandbox://sessions/%1/files/a.txt").arg(id)}});
    EXPECT_TRUE(resource.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("not found"), Qt::CaseInsensitive))
        << QJsonDocument(resource).toJson().toStdString();

    // A, with its handle, in a later request of its own: the file is there and the session closes.
    const QJsonObject own = call(QStringLiteral("download_file"), {{QStringLiteral("session_id"), handle},
                                                                   {QStringLiteral("path"), QStringLiteral("a.txt")}});
    ASSERT_FALSE(own.value(QStringLiteral("isError")).toBool()) << firstText(own).toStdString();
    EXPECT_TRUE(firstText(own).contains(QStringLiteral("A's data")));
    const QString ownUri = QStringLiteral("sandbox://sessions/%1/files/a.txt").arg(handle);
    const QJsonObject ownResource =
        send(QStringLiteral("resources/read"), ownUri.toLatin1(), {{QStringLiteral("uri"), ownUri}});
    const QJsonObject contents = ownResource.value(QStringLiteral("result"))
                                     .toObject()
                                     .value(QStringLiteral("contents"))
                                     .toArray()
                                     .first()
                                     .toObject();
    EXPECT_EQ(contents.value(QStringLiteral("text")).toString(), QStringLiteral("A's data"))
        << QJsonDocument(ownResource).toJson().toStdString();
    const QJsonObject ownClose = call(QStringLiteral("close_session"), {{QStringLiteral("session_id"), handle}});
    EXPECT_FALSE(ownClose.value(QStringLiteral("isError")).toBool()) << firstText(ownClose).toStdString();
    EXPECT_TRUE(call(QStringLiteral("close_session"), {{QStringLiteral("session_id"), handle}})
                    .value(QStringLiteral("isError"))
                    .toBool());
}

} // namespace
