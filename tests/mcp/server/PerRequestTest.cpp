// Protocol revision 2026-07-28 in the dispatcher: requests that carry their version and the client's capabilities in
// _meta, served on their own beside (and without touching) the session a 2025-11-25 client initialized. Examples
// from the specification (docs/specification/2026-07-28/server/discover.mdx, basic/versioning.mdx, basic/index.mdx).
#include "mcp/McpTestSupport.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/protocol/ProtocolVersion.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

QJsonObject meta(const QString &version = QStringLiteral("2026-07-28"))
{
    return QJsonObject{{RequestMeta::kProtocolVersion, version},
                       {RequestMeta::kClientInfo, QJsonObject{{QStringLiteral("name"), QStringLiteral("ExampleClient")},
                                                              {QStringLiteral("version"), QStringLiteral("1.0.0")}}},
                       {RequestMeta::kClientCapabilities, QJsonObject()}};
}

QJsonObject withMeta(QJsonObject params, const QJsonObject &requestMeta = meta())
{
    params.insert(QStringLiteral("_meta"), requestMeta);
    return params;
}

Tool loggingTool()
{
    return Tool{.name = QStringLiteral("chatty"),
                .title = {},
                .description = QStringLiteral("Logs at two levels."),
                .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                .outputSchema = {},
                .annotations = {},
                .longRunning = false,
                .handler = [](const ToolCall &call) {
                    call.log(LogLevel::Debug, QStringLiteral("details"));
                    call.log(LogLevel::Warning, QStringLiteral("careful"));
                    return textToolResult(call.protocolVersion + QLatin1Char(' ') + call.clientName);
                }};
}

class PerRequestTest : public ::testing::Test
{
protected:
    PerRequestTest()
        : dispatcher(SandboxTools::tools(CodeExecutor(RunFunction())), SandboxTools::resources(), recorder.sink())
    {}

    QJsonObject reply(const QByteArray &message) { return replyTo(dispatcher, message).object(); }
    QJsonObject result(const QByteArray &message) { return reply(message).value(QStringLiteral("result")).toObject(); }
    QJsonObject error(const QByteArray &message) { return reply(message).value(QStringLiteral("error")).toObject(); }

    SinkRecorder recorder;
    McpDispatcher dispatcher;
};

TEST_F(PerRequestTest, discoverAnswersTheSpecificationExampleWithoutAHandshake)
{
    const QJsonObject answer =
        reply(request(QStringLiteral("discover-1"), QStringLiteral("server/discover"), withMeta(QJsonObject())));
    EXPECT_EQ(answer.value(QStringLiteral("id")).toString(), QStringLiteral("discover-1"));
    const QJsonObject discovered = answer.value(QStringLiteral("result")).toObject();
    EXPECT_EQ(discovered.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    EXPECT_EQ(discovered.value(QStringLiteral("supportedVersions")).toArray(),
              QJsonArray{QStringLiteral("2026-07-28")});
    const QJsonObject capabilities = discovered.value(QStringLiteral("capabilities")).toObject();
    EXPECT_TRUE(capabilities.contains(QStringLiteral("tools")));
    EXPECT_TRUE(capabilities.contains(QStringLiteral("resources")));
    EXPECT_EQ(discovered.value(QStringLiteral("_meta"))
                  .toObject()
                  .value(RequestMeta::kServerInfo)
                  .toObject()
                  .value(QStringLiteral("name"))
                  .toString(),
              QStringLiteral("llm-sandbox"));
    EXPECT_FALSE(discovered.value(QStringLiteral("instructions")).toString().isEmpty());
    EXPECT_GE(discovered.value(QStringLiteral("ttlMs")).toInt(-1), 0);
    EXPECT_EQ(discovered.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public"));
    EXPECT_FALSE(dispatcher.isInitialized());
}

TEST_F(PerRequestTest, listsCarryResultTypeAndCachingHints)
{
    for (const char *method : {"tools/list", "resources/list", "resources/templates/list", "prompts/list"}) {
        const QJsonObject listed = result(request(1, QString::fromLatin1(method), withMeta(QJsonObject())));
        EXPECT_EQ(listed.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete")) << method;
        EXPECT_GE(listed.value(QStringLiteral("ttlMs")).toInt(-1), 0) << method;
        EXPECT_EQ(listed.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public")) << method;
    }
    const QJsonObject read =
        result(request(2, QStringLiteral("resources/read"),
                       withMeta(QJsonObject{{QStringLiteral("uri"), QStringLiteral("sandbox://languages")}})));
    EXPECT_EQ(read.value(QStringLiteral("contents")).toArray().size(), 1);
    EXPECT_EQ(read.value(QStringLiteral("cacheScope")).toString(), QStringLiteral("public"));
}

TEST_F(PerRequestTest, toolsListMarksTheLanguageForTheMcpParamHeaderOnlyFor2026)
{
    const auto languageProperty = [](const QJsonObject &tools, const QString &tool) {
        for (const QJsonValue &each : tools.value(QStringLiteral("tools")).toArray()) {
            if (each.toObject().value(QStringLiteral("name")).toString() == tool) {
                return each.toObject()
                    .value(QStringLiteral("inputSchema"))
                    .toObject()
                    .value(QStringLiteral("properties"))
                    .toObject()
                    .value(QStringLiteral("language"))
                    .toObject();
            }
        }
        return QJsonObject();
    };
    const QJsonObject modern = result(request(1, QStringLiteral("tools/list"), withMeta(QJsonObject())));
    EXPECT_EQ(languageProperty(modern, QStringLiteral("execute_code")).value(QStringLiteral("x-mcp-header")),
              QStringLiteral("Language"));
    EXPECT_EQ(languageProperty(modern, QStringLiteral("get_language_details")).value(QStringLiteral("x-mcp-header")),
              QStringLiteral("Language"));

    initializeSession(dispatcher, QStringLiteral("2025-11-25"));
    const QJsonObject legacy = result(request(2, QStringLiteral("tools/list")));
    EXPECT_FALSE(languageProperty(legacy, QStringLiteral("execute_code")).contains(QStringLiteral("x-mcp-header")));
    EXPECT_FALSE(legacy.contains(QStringLiteral("resultType")));
    EXPECT_FALSE(legacy.contains(QStringLiteral("ttlMs")));
}

TEST_F(PerRequestTest, aSessionBesideItNoticesNothing)
{
    initializeSession(dispatcher, QStringLiteral("2025-06-18"));
    EXPECT_FALSE(result(request(1, QStringLiteral("server/discover"), withMeta(QJsonObject()))).isEmpty());
    EXPECT_FALSE(result(toolCall(2, QStringLiteral("get_supported_languages"), {}, meta())).isEmpty());
    EXPECT_EQ(dispatcher.protocolVersion(), QStringLiteral("2025-06-18"));
    // The session's own requests keep the 2025-06-18 shapes.
    const QJsonObject listed = result(request(3, QStringLiteral("tools/list")));
    EXPECT_FALSE(listed.contains(QStringLiteral("resultType")));
    EXPECT_FALSE(listed.contains(QStringLiteral("_meta")));
    EXPECT_EQ(error(request(4, QStringLiteral("resources/read"),
                            QJsonObject{{QStringLiteral("uri"), QStringLiteral("sandbox://nope")}}))
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::ResourceNotFound);
    EXPECT_TRUE(result(request(5, QStringLiteral("ping"))).isEmpty());
}

TEST_F(PerRequestTest, toolsCallIsACompleteResultAndNamesTheServer)
{
    const QJsonObject called = result(toolCall(1, QStringLiteral("get_language_details"),
                                               {{QStringLiteral("language"), QStringLiteral("cobol")}}, meta()));
    EXPECT_EQ(called.value(QStringLiteral("resultType")).toString(), QStringLiteral("complete"));
    EXPECT_TRUE(called.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(called).startsWith(QStringLiteral("{\"error\":\"Unsupported language: cobol")));
    EXPECT_TRUE(called.value(QStringLiteral("_meta")).toObject().contains(RequestMeta::kServerInfo));
    EXPECT_FALSE(called.contains(QStringLiteral("ttlMs")));
}

TEST_F(PerRequestTest, anUnsupportedVersionListsTheSupportedOnes)
{
    const QJsonObject answer =
        reply(request(1, QStringLiteral("tools/list"), withMeta({}, meta(QStringLiteral("1900-01-01")))));
    EXPECT_EQ(answer.value(QStringLiteral("id")).toInt(), 1);
    const QJsonObject failure = answer.value(QStringLiteral("error")).toObject();
    EXPECT_EQ(failure.value(QStringLiteral("code")).toInt(), jsonrpc::UnsupportedProtocolVersion);
    EXPECT_EQ(failure.value(QStringLiteral("data")).toObject(),
              (QJsonObject{{QStringLiteral("supported"), QJsonArray{QStringLiteral("2026-07-28")}},
                           {QStringLiteral("requested"), QStringLiteral("1900-01-01")}}));
}

TEST_F(PerRequestTest, aRequestMissingARequiredMetaFieldIsInvalidParams)
{
    QJsonObject noCapabilities = meta();
    noCapabilities.remove(RequestMeta::kClientCapabilities);
    QJsonObject noVersion = meta();
    noVersion.remove(RequestMeta::kProtocolVersion);
    QJsonObject badLevel = meta();
    badLevel.insert(RequestMeta::kLogLevel, QStringLiteral("loud"));
    EXPECT_EQ(error(request(1, QStringLiteral("server/discover"))).value(QStringLiteral("code")).toInt(),
              jsonrpc::InvalidParams);
    EXPECT_EQ(error(request(2, QStringLiteral("server/discover"), withMeta({}, noVersion)))
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::InvalidParams);
    EXPECT_EQ(error(request(3, QStringLiteral("tools/list"), withMeta({}, noCapabilities)))
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::InvalidParams);
    EXPECT_EQ(
        error(request(4, QStringLiteral("tools/list"), withMeta({}, badLevel))).value(QStringLiteral("code")).toInt(),
        jsonrpc::InvalidParams);
    // clientInfo is only a SHOULD.
    QJsonObject noClient = meta();
    noClient.remove(RequestMeta::kClientInfo);
    EXPECT_FALSE(result(request(5, QStringLiteral("server/discover"), withMeta({}, noClient))).isEmpty());
}

TEST_F(PerRequestTest, methodsTheRevisionRemovedAreNotFound)
{
    for (const char *method : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"}) {
        EXPECT_EQ(error(request(1, QString::fromLatin1(method), withMeta({}))).value(QStringLiteral("code")).toInt(),
                  jsonrpc::MethodNotFound)
            << method;
    }
    EXPECT_FALSE(dispatcher.isInitialized());
}

TEST_F(PerRequestTest, anUnknownResourceIsInvalidParamsWithItsUri)
{
    const QJsonObject failure =
        error(request(1, QStringLiteral("resources/read"),
                      withMeta(QJsonObject{{QStringLiteral("uri"), QStringLiteral("test://nonexistent")}})));
    EXPECT_EQ(failure.value(QStringLiteral("code")).toInt(), jsonrpc::InvalidParams);
    EXPECT_EQ(failure.value(QStringLiteral("data")).toObject().value(QStringLiteral("uri")).toString(),
              QStringLiteral("test://nonexistent"));
}

TEST(PerRequestLogging, logMessagesOnlyForARequestThatNamesALevelAndFromThatLevelOn)
{
    SinkRecorder recorder;
    McpDispatcher dispatcher(ToolRegistry({loggingTool()}), {}, recorder.sink());

    const QJsonObject quiet = replyTo(dispatcher, toolCall(1, QStringLiteral("chatty"), {}, meta())).object();
    EXPECT_EQ(firstText(quiet.value(QStringLiteral("result")).toObject()), QStringLiteral("2026-07-28 ExampleClient"));
    EXPECT_TRUE(recorder.withMethod(QStringLiteral("notifications/message")).isEmpty());

    QJsonObject warnings = meta();
    warnings.insert(RequestMeta::kLogLevel, QStringLiteral("warning"));
    replyTo(dispatcher, toolCall(2, QStringLiteral("chatty"), {}, warnings));
    const QList<QJsonObject> logged = recorder.withMethod(QStringLiteral("notifications/message"));
    ASSERT_EQ(logged.size(), 1);
    EXPECT_EQ(logged.first().value(QStringLiteral("params")).toObject().value(QStringLiteral("data")).toString(),
              QStringLiteral("careful"));
}

TEST(PerRequestLogging, theServersOwnLogMessagesWaitForAClientThatInitialized)
{
    SinkRecorder recorder;
    McpDispatcher dispatcher(ToolRegistry({loggingTool()}), {}, recorder.sink());
    dispatcher.log(LogLevel::Error, QStringLiteral("nobody asked"));
    EXPECT_TRUE(recorder.messages().isEmpty());
    initializeSession(dispatcher);
    dispatcher.log(LogLevel::Error, QStringLiteral("now it did"));
    EXPECT_EQ(recorder.withMethod(QStringLiteral("notifications/message")).size(), 1);
}

} // namespace
