// The dispatcher in-process: lifecycle, tools, resources and every JSON-RPC error path, without stdio.
#include "mcp/server/McpDispatcher.h"

#include "mcp/McpTestSupport.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <gtest/gtest.h>
#include <mutex>

using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

DispatcherOptions withServerVersion(const QString &version)
{
    DispatcherOptions options;
    options.serverVersion = version;
    return options;
}

DispatcherOptions withMaxMessageBytes(qint64 bytes)
{
    DispatcherOptions options;
    options.maxMessageBytes = bytes;
    return options;
}

class McpDispatcherTest : public ::testing::Test
{
protected:
    McpDispatcherTest()
        : dispatcher(SandboxTools::tools(CodeExecutor(RunFunction())), SandboxTools::resources(), recorder.sink(),
                     withServerVersion(QStringLiteral("9.8.7")))
    {
        initializeSession(dispatcher);
    }

    QJsonObject reply(const QByteArray &message) { return replyTo(dispatcher, message).object(); }
    QJsonObject result(const QByteArray &message) { return reply(message).value(QStringLiteral("result")).toObject(); }
    int errorCode(const QByteArray &message)
    {
        return reply(message).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt();
    }
    QJsonObject initialize(const QString &version)
    {
        return result(request(1, QStringLiteral("initialize"),
                              QJsonObject{{QStringLiteral("protocolVersion"), version},
                                          {QStringLiteral("capabilities"), QJsonObject()},
                                          {QStringLiteral("clientInfo"),
                                           QJsonObject{{QStringLiteral("name"), QStringLiteral("test")},
                                                       {QStringLiteral("version"), QStringLiteral("1")}}}}));
    }
    QJsonObject tool(const QString &name)
    {
        const QJsonArray tools =
            result(request(2, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
        for (const QJsonValue &tool : tools) {
            if (tool.toObject().value(QStringLiteral("name")).toString() == name) {
                return tool.toObject();
            }
        }
        return {};
    }

    SinkRecorder recorder;
    McpDispatcher dispatcher;
};

TEST_F(McpDispatcherTest, initializeAnswersWithEachSupportedProtocolVersion)
{
    for (const char *version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
        EXPECT_EQ(initialize(QString::fromLatin1(version)).value(QStringLiteral("protocolVersion")).toString(),
                  QString::fromLatin1(version));
        EXPECT_EQ(dispatcher.protocolVersion(), QString::fromLatin1(version));
    }
}

TEST_F(McpDispatcherTest, initializeAnswersLatestVersionForAnUnsupportedOne)
{
    EXPECT_EQ(initialize(QStringLiteral("2023-01-01")).value(QStringLiteral("protocolVersion")).toString(),
              QStringLiteral("2025-11-25"));
    EXPECT_EQ(initialize(QStringLiteral("2099-12-31")).value(QStringLiteral("protocolVersion")).toString(),
              QStringLiteral("2025-11-25"));
}

TEST_F(McpDispatcherTest, initializeReportsServerInfoAndCapabilities)
{
    const QJsonObject init = initialize(QStringLiteral("2025-06-18"));
    const QJsonObject serverInfo = init.value(QStringLiteral("serverInfo")).toObject();
    EXPECT_EQ(serverInfo.value(QStringLiteral("name")).toString(), QStringLiteral("llm-sandbox"));
    EXPECT_EQ(serverInfo.value(QStringLiteral("version")).toString(), QStringLiteral("9.8.7"));
    const QJsonObject capabilities = init.value(QStringLiteral("capabilities")).toObject();
    EXPECT_TRUE(capabilities.value(QStringLiteral("tools")).isObject());
    EXPECT_TRUE(capabilities.value(QStringLiteral("resources")).isObject());
    EXPECT_TRUE(capabilities.value(QStringLiteral("logging")).isObject());
    EXPECT_FALSE(capabilities.contains(QStringLiteral("prompts")));
    EXPECT_FALSE(init.value(QStringLiteral("instructions")).toString().isEmpty());
}

TEST_F(McpDispatcherTest, serverVersionDefaultsToApplicationVersion)
{
    McpDispatcher plain(ToolRegistry(), {}, {});
    const QJsonObject init =
        replyTo(plain, request(1, QStringLiteral("initialize"),
                               QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")}}))
            .object()
            .value(QStringLiteral("result"))
            .toObject();
    EXPECT_EQ(init.value(QStringLiteral("serverInfo")).toObject().value(QStringLiteral("version")).toString(),
              QCoreApplication::applicationVersion());
}

TEST_F(McpDispatcherTest, initializeWithoutProtocolVersionIsInvalidParams)
{
    EXPECT_EQ(errorCode(request(1, QStringLiteral("initialize"), QJsonObject{{QStringLiteral("capabilities"), 1}})),
              jsonrpc::InvalidParams);
}

TEST_F(McpDispatcherTest, pingAnswersWithEmptyResultAndSameId)
{
    const QJsonObject pong = reply(request(QStringLiteral("abc"), QStringLiteral("ping")));
    EXPECT_EQ(pong.value(QStringLiteral("jsonrpc")).toString(), QStringLiteral("2.0"));
    EXPECT_EQ(pong.value(QStringLiteral("id")).toString(), QStringLiteral("abc"));
    EXPECT_TRUE(pong.value(QStringLiteral("result")).toObject().isEmpty());
    EXPECT_FALSE(pong.contains(QStringLiteral("error")));
}

TEST_F(McpDispatcherTest, integerIdsComeBackAsIntegers)
{
    const QByteArray out = replyTo(dispatcher, request(42, QStringLiteral("ping"))).toJson(QJsonDocument::Compact);
    EXPECT_TRUE(out.contains("\"id\":42")) << out.constData();
}

TEST_F(McpDispatcherTest, toolsListNamesThePythonServersToolsAndTheSessionTools)
{
    const QJsonArray tools = result(request(1, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
    QStringList names;
    for (const QJsonValue &tool : tools) {
        names << tool.toObject().value(QStringLiteral("name")).toString();
    }
    EXPECT_EQ(names, (QStringList{QStringLiteral("execute_code"), QStringLiteral("get_supported_languages"),
                                  QStringLiteral("get_language_details"), QStringLiteral("create_session"),
                                  QStringLiteral("list_sessions"), QStringLiteral("close_session"),
                                  QStringLiteral("upload_file"), QStringLiteral("download_file")}));
}

TEST_F(McpDispatcherTest, everyToolParameterHasTypeAndDescription)
{
    const QJsonArray tools = result(request(1, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
    for (const QJsonValue &value : tools) {
        const QJsonObject tool = value.toObject();
        EXPECT_FALSE(tool.value(QStringLiteral("description")).toString().isEmpty());
        const QJsonObject schema = tool.value(QStringLiteral("inputSchema")).toObject();
        EXPECT_EQ(schema.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
        const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            EXPECT_FALSE(it.value().toObject().value(QStringLiteral("type")).toString().isEmpty())
                << qPrintable(it.key());
            EXPECT_FALSE(it.value().toObject().value(QStringLiteral("description")).toString().isEmpty())
                << qPrintable(it.key());
        }
    }
}

TEST_F(McpDispatcherTest, executeCodeSchemaMatchesThePythonServer)
{
    const QJsonObject schema = tool(QStringLiteral("execute_code")).value(QStringLiteral("inputSchema")).toObject();
    const QJsonObject properties = schema.value(QStringLiteral("properties")).toObject();
    EXPECT_EQ(schema.value(QStringLiteral("required")).toArray(), QJsonArray{QStringLiteral("code")});
    EXPECT_EQ(properties.value(QStringLiteral("code")).toObject().value(QStringLiteral("type")).toString(),
              QStringLiteral("string"));
    const QJsonObject language = properties.value(QStringLiteral("language")).toObject();
    EXPECT_EQ(language.value(QStringLiteral("type")).toString(), QStringLiteral("string"));
    EXPECT_EQ(language.value(QStringLiteral("default")).toString(), QStringLiteral("python"));
    const QJsonObject libraries = properties.value(QStringLiteral("libraries")).toObject();
    EXPECT_EQ(libraries.value(QStringLiteral("type")).toString(), QStringLiteral("array"));
    EXPECT_EQ(libraries.value(QStringLiteral("items")).toObject().value(QStringLiteral("type")).toString(),
              QStringLiteral("string"));
    const QJsonObject timeout = properties.value(QStringLiteral("timeout")).toObject();
    EXPECT_EQ(timeout.value(QStringLiteral("type")).toString(), QStringLiteral("integer"));
    EXPECT_EQ(timeout.value(QStringLiteral("default")).toInt(), 30);
}

TEST_F(McpDispatcherTest, languageDetailsNeedsLanguageAndSupportedLanguagesNeedsNothing)
{
    EXPECT_EQ(tool(QStringLiteral("get_language_details"))
                  .value(QStringLiteral("inputSchema"))
                  .toObject()
                  .value(QStringLiteral("required"))
                  .toArray(),
              QJsonArray{QStringLiteral("language")});
    const QJsonObject none =
        tool(QStringLiteral("get_supported_languages")).value(QStringLiteral("inputSchema")).toObject();
    EXPECT_TRUE(none.value(QStringLiteral("properties")).toObject().isEmpty());
    EXPECT_FALSE(none.contains(QStringLiteral("required")));
}

TEST_F(McpDispatcherTest, outputSchemaIsOfferedOnlyFrom2025_06_18)
{
    initialize(QStringLiteral("2025-03-26"));
    EXPECT_FALSE(tool(QStringLiteral("execute_code")).contains(QStringLiteral("outputSchema")));
    initialize(QStringLiteral("2025-06-18"));
    const QJsonObject outputSchema =
        tool(QStringLiteral("execute_code")).value(QStringLiteral("outputSchema")).toObject();
    EXPECT_EQ(outputSchema.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
    EXPECT_TRUE(outputSchema.value(QStringLiteral("properties")).toObject().contains(QStringLiteral("exit_code")));
}

TEST_F(McpDispatcherTest, getSupportedLanguagesReturnsExactlyTheSevenNames)
{
    const QJsonObject call = result(toolCall(1, QStringLiteral("get_supported_languages"), {}));
    EXPECT_FALSE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(QJsonDocument::fromJson(firstText(call).toUtf8()).array(),
              (QJsonArray{QStringLiteral("python"), QStringLiteral("javascript"), QStringLiteral("java"),
                          QStringLiteral("cpp"), QStringLiteral("go"), QStringLiteral("r"), QStringLiteral("ruby")}));
}

TEST_F(McpDispatcherTest, getLanguageDetailsAcceptsAnAlias)
{
    const QJsonObject call = result(
        toolCall(1, QStringLiteral("get_language_details"), {{QStringLiteral("language"), QStringLiteral("js")}}));
    EXPECT_FALSE(call.value(QStringLiteral("isError")).toBool());
    const QJsonObject details = QJsonDocument::fromJson(firstText(call).toUtf8()).object();
    EXPECT_EQ(details.value(QStringLiteral("name")).toString(), QStringLiteral("javascript"));
    EXPECT_EQ(details.value(QStringLiteral("package_manager")).toString(), QStringLiteral("npm"));
    EXPECT_TRUE(details.value(QStringLiteral("preinstalled_libraries")).isArray());
    EXPECT_TRUE(details.value(QStringLiteral("visualization_support")).isBool());
    EXPECT_FALSE(details.value(QStringLiteral("examples")).toArray().isEmpty());
}

TEST_F(McpDispatcherTest, getLanguageDetailsOfUnknownLanguageIsToolErrorListingSupportedOnes)
{
    const QJsonObject call = result(
        toolCall(1, QStringLiteral("get_language_details"), {{QStringLiteral("language"), QStringLiteral("cobol")}}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("cobol")));
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("python")));
}

TEST_F(McpDispatcherTest, resourcesListShowsTheLanguagesResource)
{
    const QJsonArray resources =
        result(request(1, QStringLiteral("resources/list"))).value(QStringLiteral("resources")).toArray();
    // The languages, then the skill in English and Chinese (SkillResourcesTest).
    ASSERT_EQ(resources.size(), 3);
    EXPECT_EQ(resources.at(0).toObject().value(QStringLiteral("uri")).toString(),
              QStringLiteral("sandbox://languages"));
    EXPECT_EQ(resources.at(0).toObject().value(QStringLiteral("mimeType")).toString(),
              QStringLiteral("application/json"));
    EXPECT_FALSE(resources.at(0).toObject().value(QStringLiteral("name")).toString().isEmpty());
}

TEST_F(McpDispatcherTest, resourcesReadReturnsDetailsOfAllLanguages)
{
    const QJsonArray contents = result(request(1, QStringLiteral("resources/read"),
                                               {{QStringLiteral("uri"), QStringLiteral("sandbox://languages")}}))
                                    .value(QStringLiteral("contents"))
                                    .toArray();
    ASSERT_EQ(contents.size(), 1);
    const QJsonObject item = contents.at(0).toObject();
    EXPECT_EQ(item.value(QStringLiteral("uri")).toString(), QStringLiteral("sandbox://languages"));
    const QJsonObject all = QJsonDocument::fromJson(item.value(QStringLiteral("text")).toString().toUtf8()).object();
    const QStringList keys = all.keys();
    EXPECT_EQ(
        QSet<QString>(keys.begin(), keys.end()),
        (QSet<QString>{QStringLiteral("python"), QStringLiteral("javascript"), QStringLiteral("java"),
                       QStringLiteral("cpp"), QStringLiteral("go"), QStringLiteral("r"), QStringLiteral("ruby")}));
    EXPECT_EQ(all.value(QStringLiteral("python")).toObject().value(QStringLiteral("package_manager")).toString(),
              QStringLiteral("pip"));
}

TEST_F(McpDispatcherTest, resourcesReadOfUnknownUriIsResourceNotFound)
{
    EXPECT_EQ(errorCode(request(1, QStringLiteral("resources/read"),
                                {{QStringLiteral("uri"), QStringLiteral("sandbox://nope")}})),
              jsonrpc::ResourceNotFound);
    EXPECT_EQ(errorCode(request(1, QStringLiteral("resources/read"))), jsonrpc::InvalidParams);
}

TEST_F(McpDispatcherTest, resourceTemplatesListIsEmpty)
{
    EXPECT_TRUE(result(request(1, QStringLiteral("resources/templates/list")))
                    .value(QStringLiteral("resourceTemplates"))
                    .toArray()
                    .isEmpty());
}

TEST_F(McpDispatcherTest, malformedJsonIsParseErrorWithoutId)
{
    // 2025-11-25 leaves the id out when it cannot be read; earlier revisions follow JSON-RPC 2.0 (null).
    const QJsonObject error = reply("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    EXPECT_FALSE(error.contains(QStringLiteral("id")));
    EXPECT_EQ(error.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::ParseError);
    EXPECT_EQ(errorCode("not json at all"), jsonrpc::ParseError);
}

TEST_F(McpDispatcherTest, deeplyNestedJsonIsParseErrorNotACrash)
{
    EXPECT_EQ(errorCode(QByteArray(200000, '[') + QByteArray(200000, ']')), jsonrpc::ParseError);
}

TEST_F(McpDispatcherTest, validJsonThatIsNotAnObjectIsInvalidRequest)
{
    EXPECT_EQ(errorCode("42"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode("\"ping\""), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode("null"), jsonrpc::InvalidRequest);
}

TEST_F(McpDispatcherTest, requestsBreakingJsonRpcRulesAreInvalidRequests)
{
    EXPECT_EQ(errorCode(R"({"id":1,"method":"ping"})"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode(R"({"jsonrpc":"1.0","id":1,"method":"ping"})"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode(R"({"jsonrpc":"2.0","id":1,"method":7})"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode(R"({"jsonrpc":"2.0","id":1})"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode(R"({"jsonrpc":"2.0","id":null,"method":"ping"})"), jsonrpc::InvalidRequest);
    EXPECT_EQ(errorCode(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})"), jsonrpc::InvalidRequest);
}

TEST_F(McpDispatcherTest, invalidRequestKeepsTheIdWhenItIsValid)
{
    EXPECT_EQ(reply(R"({"jsonrpc":"1.0","id":"x","method":"ping"})").value(QStringLiteral("id")).toString(),
              QStringLiteral("x"));
}

TEST_F(McpDispatcherTest, paramsThatAreNotAnObjectAreInvalidParams)
{
    EXPECT_EQ(errorCode(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1,2]})"), jsonrpc::InvalidParams);
}

TEST_F(McpDispatcherTest, unknownMethodIsMethodNotFound)
{
    EXPECT_EQ(errorCode(request(1, QStringLiteral("prompts/list"))), jsonrpc::MethodNotFound);
    EXPECT_EQ(errorCode(request(1, QStringLiteral("no/such/method"))), jsonrpc::MethodNotFound);
}

TEST_F(McpDispatcherTest, unknownToolIsInvalidParams)
{
    const QJsonObject error = reply(toolCall(1, QStringLiteral("rm_rf"), {})).value(QStringLiteral("error")).toObject();
    EXPECT_EQ(error.value(QStringLiteral("code")).toInt(), jsonrpc::InvalidParams);
    EXPECT_TRUE(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("rm_rf")));
}

TEST_F(McpDispatcherTest, toolCallWithoutNameOrWithNonObjectArgumentsIsInvalidParams)
{
    EXPECT_EQ(errorCode(request(1, QStringLiteral("tools/call"))), jsonrpc::InvalidParams);
    EXPECT_EQ(errorCode(request(1, QStringLiteral("tools/call"),
                                {{QStringLiteral("name"), QStringLiteral("execute_code")},
                                 {QStringLiteral("arguments"), QStringLiteral("print(1)")}})),
              jsonrpc::InvalidParams);
}

TEST_F(McpDispatcherTest, timeoutGivenAsTextIsToolErrorNamingTheArgument)
{
    const QJsonObject call = result(toolCall(
        1, QStringLiteral("execute_code"),
        {{QStringLiteral("code"), QStringLiteral("print(1)")}, {QStringLiteral("timeout"), QStringLiteral("abc")}}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("\"timeout\""))) << qPrintable(firstText(call));
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("integer"))) << qPrintable(firstText(call));
}

TEST_F(McpDispatcherTest, codeGivenAsNumberIsToolError)
{
    const QJsonObject call = result(toolCall(1, QStringLiteral("execute_code"), {{QStringLiteral("code"), 42}}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("\"code\""))) << qPrintable(firstText(call));
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("string"))) << qPrintable(firstText(call));
}

TEST_F(McpDispatcherTest, missingCodeIsToolError)
{
    const QJsonObject call = result(toolCall(1, QStringLiteral("execute_code"), {}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("Missing required argument \"code\"")));
}

TEST_F(McpDispatcherTest, librariesWithANonStringItemIsToolError)
{
    const QJsonObject call = result(toolCall(1, QStringLiteral("execute_code"),
                                             {{QStringLiteral("code"), QStringLiteral("x")},
                                              {QStringLiteral("libraries"), QJsonArray{QStringLiteral("numpy"), 3}}}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("item 2")));
}

TEST_F(McpDispatcherTest, executeCodeWithoutBackendIsToolErrorSayingSo)
{
    const QJsonObject call =
        result(toolCall(1, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("print(1)")}}));
    EXPECT_TRUE(call.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(call).contains(QStringLiteral("no container backend is configured")));
}

TEST_F(McpDispatcherTest, notificationsGetNoReply)
{
    EXPECT_TRUE(replyTo(dispatcher, notification(QStringLiteral("notifications/initialized"))).isNull());
    EXPECT_TRUE(replyTo(dispatcher, notification(QStringLiteral("notifications/unknown"))).isNull());
    EXPECT_TRUE(replyTo(dispatcher,
                        notification(QStringLiteral("notifications/cancelled"), {{QStringLiteral("requestId"), 99}}))
                    .isNull());
    // Even a notification naming a request method is not answered: there is no id to answer to.
    EXPECT_TRUE(replyTo(dispatcher, notification(QStringLiteral("ping"))).isNull());
}

TEST_F(McpDispatcherTest, responsesFromTheClientGetNoReply)
{
    EXPECT_TRUE(replyTo(dispatcher, R"({"jsonrpc":"2.0","id":5,"result":{}})").isNull());
    EXPECT_TRUE(replyTo(dispatcher, R"({"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"x"}})").isNull());
}

TEST_F(McpDispatcherTest, messageOverTheSizeLimitIsRejectedWithoutParsing)
{
    const QByteArray huge = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" +
                            QByteArray(64 * 1024 * 1024, 'a') + "\"}}";
    const QJsonObject error = reply(huge);
    EXPECT_FALSE(error.contains(QStringLiteral("id")));
    EXPECT_EQ(error.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::InvalidRequest);
    // The server is still fine afterwards.
    EXPECT_TRUE(reply(request(2, QStringLiteral("ping"))).contains(QStringLiteral("result")));
}

TEST_F(McpDispatcherTest, sizeLimitIsConfigurable)
{
    McpDispatcher small(ToolRegistry(), {}, {}, withMaxMessageBytes(64));
    EXPECT_TRUE(replyTo(small, request(1, QStringLiteral("ping"))).object().contains(QStringLiteral("result")));
    EXPECT_EQ(replyTo(small,
                      request(1, QStringLiteral("ping"), {{QStringLiteral("padding"), QString(100, QLatin1Char('x'))}}))
                  .object()
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::InvalidRequest);
}

TEST_F(McpDispatcherTest, batchAnswersEachRequestAndSkipsNotifications)
{
    initialize(QStringLiteral("2025-03-26"));
    const QJsonDocument out = replyTo(dispatcher, "[" + request(1, QStringLiteral("ping")) + "," +
                                                      notification(QStringLiteral("notifications/initialized")) + "," +
                                                      request(2, QStringLiteral("nope")) + "]");
    ASSERT_TRUE(out.isArray());
    const QJsonArray replies = out.array();
    ASSERT_EQ(replies.size(), 2);
    EXPECT_EQ(replies.at(0).toObject().value(QStringLiteral("id")).toInt(), 1);
    EXPECT_EQ(replies.at(1).toObject().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::MethodNotFound);
}

TEST_F(McpDispatcherTest, batchOfOnlyNotificationsGetsNoReplyAndEmptyBatchIsInvalid)
{
    initialize(QStringLiteral("2025-03-26"));
    EXPECT_TRUE(replyTo(dispatcher, "[" + notification(QStringLiteral("notifications/initialized")) + "]").isNull());
    EXPECT_EQ(errorCode("[]"), jsonrpc::InvalidRequest);
}

TEST_F(McpDispatcherTest, setLevelFiltersLogNotifications)
{
    EXPECT_TRUE(
        result(request(1, QStringLiteral("logging/setLevel"), {{QStringLiteral("level"), QStringLiteral("warning")}}))
            .isEmpty());
    dispatcher.log(LogLevel::Info, QStringLiteral("hidden"));
    dispatcher.log(LogLevel::Error, QStringLiteral("shown"));
    const QList<QJsonObject> logs = recorder.withMethod(QStringLiteral("notifications/message"));
    ASSERT_EQ(logs.size(), 1);
    const QJsonObject params = logs.at(0).value(QStringLiteral("params")).toObject();
    EXPECT_EQ(params.value(QStringLiteral("level")).toString(), QStringLiteral("error"));
    EXPECT_EQ(params.value(QStringLiteral("data")).toString(), QStringLiteral("shown"));
}

TEST_F(McpDispatcherTest, setLevelWithUnknownLevelIsInvalidParams)
{
    EXPECT_EQ(
        errorCode(request(1, QStringLiteral("logging/setLevel"), {{QStringLiteral("level"), QStringLiteral("loud")}})),
        jsonrpc::InvalidParams);
}

TEST_F(McpDispatcherTest, batchesOnlyOnRevisionsThatHaveThem)
{
    const QByteArray batch = "[" + request(1, QStringLiteral("ping")) + "," + request(2, QStringLiteral("ping")) + "]";
    for (const char *version : {"2025-06-18", "2025-11-25"}) {
        initialize(QString::fromLatin1(version));
        const QJsonObject error = reply(batch);
        EXPECT_EQ(error.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
                  jsonrpc::InvalidRequest)
            << version;
    }
    for (const char *version : {"2024-11-05", "2025-03-26"}) {
        initialize(QString::fromLatin1(version));
        EXPECT_TRUE(replyTo(dispatcher, batch).isArray()) << version;
    }
}

TEST_F(McpDispatcherTest, initializeIsNeverServedInsideABatch)
{
    McpDispatcher fresh(ToolRegistry(), {}, {});
    const QJsonDocument before = replyTo(fresh, "[" + initializeRequest(1, QStringLiteral("2025-03-26")) + "]");
    EXPECT_TRUE(before.isObject());
    EXPECT_FALSE(fresh.isInitialized());

    initialize(QStringLiteral("2025-03-26"));
    const QJsonDocument inside = replyTo(dispatcher, "[" + initializeRequest(7, QStringLiteral("2024-11-05")) + "," +
                                                         request(8, QStringLiteral("ping")) + "]");
    ASSERT_TRUE(inside.isArray());
    const QJsonObject first = inside.array().at(0).toObject();
    EXPECT_EQ(first.value(QStringLiteral("id")).toInt(), 7);
    EXPECT_EQ(first.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::InvalidRequest);
    EXPECT_EQ(dispatcher.protocolVersion(), QStringLiteral("2025-03-26"));
}

TEST_F(McpDispatcherTest, unreadableIdIsNullOnOlderRevisionsAndLeftOutOnNewer)
{
    initialize(QStringLiteral("2025-06-18"));
    const QJsonObject older = reply("not json");
    ASSERT_TRUE(older.contains(QStringLiteral("id")));
    EXPECT_TRUE(older.value(QStringLiteral("id")).isNull());
    initialize(QStringLiteral("2025-11-25"));
    EXPECT_FALSE(reply(R"({"jsonrpc":"2.0","id":{"a":1},"method":"ping"})").contains(QStringLiteral("id")));
}

TEST_F(McpDispatcherTest, errorsCarryNoNullData)
{
    const QJsonObject error = reply(request(1, QStringLiteral("no/such/method")));
    EXPECT_FALSE(error.value(QStringLiteral("error")).toObject().contains(QStringLiteral("data")));
}

TEST_F(McpDispatcherTest, integerIdsBeyondDoublePrecisionComeBackExactly)
{
    const QByteArray out = replyTo(dispatcher, R"({"jsonrpc":"2.0","id":9007199254740993,"method":"ping"})")
                               .toJson(QJsonDocument::Compact);
    EXPECT_TRUE(out.contains("\"id\":9007199254740993")) << out.constData();
    const QByteArray negative = replyTo(dispatcher, R"({"jsonrpc":"2.0","id":-9007199254740995,"method":"ping"})")
                                    .toJson(QJsonDocument::Compact);
    EXPECT_TRUE(negative.contains("\"id\":-9007199254740995")) << negative.constData();
}

TEST_F(McpDispatcherTest, anyCursorIsInvalidParams)
{
    for (const char *method : {"tools/list", "resources/list", "resources/templates/list"}) {
        EXPECT_EQ(errorCode(request(1, QString::fromLatin1(method), {{QStringLiteral("cursor"), QStringLiteral("x")}})),
                  jsonrpc::InvalidParams)
            << method;
    }
    EXPECT_TRUE(reply(request(1, QStringLiteral("tools/list"), {{QStringLiteral("cursor"), QJsonValue::Null}}))
                    .contains(QStringLiteral("result")));
}

TEST_F(McpDispatcherTest, toolTitleAndAnnotationsOnlyOnRevisionsThatHaveThem)
{
    initialize(QStringLiteral("2024-11-05"));
    EXPECT_FALSE(tool(QStringLiteral("execute_code")).contains(QStringLiteral("title")));
    EXPECT_FALSE(tool(QStringLiteral("execute_code")).contains(QStringLiteral("annotations")));
    initialize(QStringLiteral("2025-03-26"));
    EXPECT_FALSE(tool(QStringLiteral("execute_code")).contains(QStringLiteral("title")));
    EXPECT_TRUE(tool(QStringLiteral("execute_code")).contains(QStringLiteral("annotations")));
    initialize(QStringLiteral("2025-06-18"));
    EXPECT_EQ(tool(QStringLiteral("execute_code")).value(QStringLiteral("title")).toString(),
              QStringLiteral("Execute code"));
}

TEST_F(McpDispatcherTest, onlyPingIsServedBeforeInitialize)
{
    McpDispatcher fresh(SandboxTools::tools(CodeExecutor(RunFunction())), SandboxTools::resources(), {});
    EXPECT_TRUE(replyTo(fresh, request(1, QStringLiteral("ping"))).object().contains(QStringLiteral("result")));
    for (const char *method : {"tools/list", "tools/call", "resources/list", "logging/setLevel"}) {
        const QJsonObject refused = replyTo(fresh, request(2, QString::fromLatin1(method))).object();
        EXPECT_EQ(refused.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
                  jsonrpc::InvalidRequest)
            << method;
        EXPECT_EQ(refused.value(QStringLiteral("id")).toInt(), 2);
    }
    initializeSession(fresh);
    EXPECT_TRUE(replyTo(fresh, request(3, QStringLiteral("tools/list"))).object().contains(QStringLiteral("result")));
}

} // namespace

namespace {

/// Keeps what the dispatcher hands to the journal.
class ExchangeRecorder final : public sandbox::ExchangeSink
{
public:
    void recordExchange(const QString &runId, const QJsonObject &request, const QJsonObject &response,
                        const QString &protocolVersion) override
    {
        const std::lock_guard lock(mutex);
        exchanges.append({runId, request, response, protocolVersion});
    }
    sandbox::Result<sandbox::Artifact> storedArtifact(const QString &, const QString &, const QString &) override
    {
        return sandbox::Error{QStringLiteral("not kept"), sandbox::ErrorCode::NotFound};
    }
    void recordSavedResult(const QString &, const sandbox::SavedResult &) override {}
    sandbox::Result<QList<sandbox::SavedResult>> savedResults(const QString &) override
    {
        return QList<sandbox::SavedResult>();
    }

    struct Exchange
    {
        QString runId;
        QJsonObject request, response;
        QString protocolVersion;
    };
    std::mutex mutex;
    QList<Exchange> exchanges;
};

} // namespace

TEST(McpDispatcherJournalTest, toolCallThatRanCodeIsHandedToTheJournalAsSentAndAsReturned)
{
    sandbox::RunRequest seen;
    const RunFunction fakeRun = [&seen](const sandbox::RunRequest &request, std::stop_token,
                                        sandbox::RunObserver *observer) -> sandbox::Result<sandbox::RunResult> {
        seen = request;
        observer->runStarted(QStringLiteral("run-42"), request);
        sandbox::RunResult result;
        result.runId = QStringLiteral("run-42");
        result.exitCode = 0;
        result.stdoutData = "1\n";
        return result;
    };
    ExchangeRecorder journal;
    SinkRecorder sink;
    DispatcherOptions options;
    options.source = sandbox::RunSource::Http;
    McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor(fakeRun)), SandboxTools::resources(), sink.sink(),
                             options);
    dispatcher.setExchangeSink(&journal);
    replyTo(dispatcher, request(1, QStringLiteral("initialize"),
                                QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                                            {QStringLiteral("capabilities"), QJsonObject()},
                                            {QStringLiteral("clientInfo"),
                                             QJsonObject{{QStringLiteral("name"), QStringLiteral("claude-ai")},
                                                         {QStringLiteral("version"), QStringLiteral("0.9")}}}}));
    const QByteArray call = request(
        7, QStringLiteral("tools/call"),
        QJsonObject{{QStringLiteral("name"), QStringLiteral("execute_code")},
                    {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("code"), QStringLiteral("print(1)")}}}});
    const QJsonObject reply = replyTo(dispatcher, call).object();

    EXPECT_EQ(seen.source, sandbox::RunSource::Http);
    EXPECT_EQ(seen.clientName, QStringLiteral("claude-ai"));
    EXPECT_EQ(seen.clientVersion, QStringLiteral("0.9"));
    ASSERT_EQ(journal.exchanges.size(), 1);
    EXPECT_EQ(journal.exchanges[0].runId, QStringLiteral("run-42"));
    EXPECT_EQ(journal.exchanges[0].request, QJsonDocument::fromJson(call).object());
    EXPECT_EQ(journal.exchanges[0].response, reply);
    EXPECT_EQ(journal.exchanges[0].protocolVersion, QStringLiteral("2025-06-18"));

    // A tool that runs no code has no run to attach the call to.
    replyTo(dispatcher, request(8, QStringLiteral("tools/call"),
                                QJsonObject{{QStringLiteral("name"), QStringLiteral("get_supported_languages")}}));
    EXPECT_EQ(journal.exchanges.size(), 1);
}
