// The run view for MCP Apps hosts (io.modelcontextprotocol/ui): offered to the clients that announce the extension,
// invisible to the others, whose answers stay exactly what they were.
#include "mcp/tools/apps/RunViewResource.h"

#include "mcp/McpTestSupport.h"
#include "mcp/protocol/RequestMeta.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

const QJsonObject kUiCapabilities{
    {QStringLiteral("extensions"),
     QJsonObject{{RunViewResource::kExtension,
                  QJsonObject{{QStringLiteral("mimeTypes"), QJsonArray{RunViewResource::kMimeType}}}}}}};

RunFunction printsOne()
{
    return [](const RunRequest &request, std::stop_token, RunObserver *observer) -> Result<RunResult> {
        observer->runStarted(QStringLiteral("run-1"), request);
        RunResult result;
        result.runId = QStringLiteral("run-1");
        result.exitCode = 0;
        result.stdoutData = "1\n";
        result.artifacts = {Artifact::fromFile(QStringLiteral("plot.png"), QByteArray("\x89PNG\r\n\x1a\n", 8))};
        return result;
    };
}

/// A client of a fresh server that announces `capabilities` in initialize.
struct Client
{
    explicit Client(const QJsonObject &capabilities)
        : dispatcher(SandboxTools::tools(CodeExecutor(printsOne())), SandboxTools::resources(), {})
    {
        replyTo(dispatcher, request(0, QStringLiteral("initialize"),
                                    QJsonObject{{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                                                {QStringLiteral("capabilities"), capabilities},
                                                {QStringLiteral("clientInfo"),
                                                 QJsonObject{{QStringLiteral("name"), QStringLiteral("host")},
                                                             {QStringLiteral("version"), QStringLiteral("1")}}}}));
    }
    QJsonObject result(const QByteArray &message)
    {
        return replyTo(dispatcher, message).object().value(QStringLiteral("result")).toObject();
    }

    McpDispatcher dispatcher;
};

QJsonObject toolNamed(const QJsonArray &tools, const QString &name)
{
    for (const QJsonValue &tool : tools) {
        if (tool.toObject().value(QStringLiteral("name")).toString() == name) {
            return tool.toObject();
        }
    }
    return {};
}

} // namespace

TEST(RunViewTest, clientOfTheExtensionIsOfferedTheViewForExecuteCode)
{
    Client host(kUiCapabilities);
    const QJsonArray tools =
        host.result(request(1, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
    const QJsonObject ui = toolNamed(tools, QStringLiteral("execute_code"))
                               .value(QStringLiteral("_meta"))
                               .toObject()
                               .value(QStringLiteral("ui"))
                               .toObject();
    EXPECT_EQ(ui.value(QStringLiteral("resourceUri")).toString(), RunViewResource::kUri);
    EXPECT_EQ(ui.value(QStringLiteral("visibility")).toArray(),
              (QJsonArray{QStringLiteral("model"), QStringLiteral("app")}));
    // Only execute_code has a view.
    EXPECT_FALSE(toolNamed(tools, QStringLiteral("get_supported_languages")).contains(QStringLiteral("_meta")));

    const QJsonArray resources =
        host.result(request(2, QStringLiteral("resources/list"))).value(QStringLiteral("resources")).toArray();
    EXPECT_TRUE(std::any_of(resources.begin(), resources.end(), [](const QJsonValue &resource) {
        return resource.toObject().value(QStringLiteral("uri")).toString() == RunViewResource::kUri;
    }));

    const QJsonObject contents = host.result(request(3, QStringLiteral("resources/read"),
                                                     QJsonObject{{QStringLiteral("uri"), RunViewResource::kUri}}))
                                     .value(QStringLiteral("contents"))
                                     .toArray()
                                     .at(0)
                                     .toObject();
    EXPECT_EQ(contents.value(QStringLiteral("mimeType")).toString(), QStringLiteral("text/html;profile=mcp-app"));
    const QJsonObject csp = contents.value(QStringLiteral("_meta"))
                                .toObject()
                                .value(QStringLiteral("ui"))
                                .toObject()
                                .value(QStringLiteral("csp"))
                                .toObject();
    for (const QString &list : {QStringLiteral("connectDomains"), QStringLiteral("resourceDomains"),
                                QStringLiteral("frameDomains"), QStringLiteral("baseUriDomains")}) {
        EXPECT_TRUE(csp.value(list).isArray() && csp.value(list).toArray().isEmpty()) << list.toStdString();
    }
    const QString html = contents.value(QStringLiteral("text")).toString();
    EXPECT_TRUE(html.startsWith(QLatin1String("<!DOCTYPE html>")));
    EXPECT_LT(html.toUtf8().size(), 100 * 1024);
    EXPECT_EQ(&RunViewResource::html(), &RunViewResource::html()) << "made once, not per read";
}

TEST(RunViewTest, pageIsSelfContained)
{
    const QString html = RunViewResource::html();
    // No script, style, image or frame from elsewhere, no fetch: every origin it could name is refused by its own
    // content security policy too.
    EXPECT_FALSE(html.contains(QRegularExpression(QStringLiteral(R"((src|href)\s*=\s*["']?(https?:|//))"))));
    EXPECT_FALSE(html.contains(QLatin1String("fetch(")));
    EXPECT_FALSE(html.contains(QLatin1String("XMLHttpRequest")));
    EXPECT_TRUE(html.contains(QLatin1String("default-src 'none'")));
    EXPECT_TRUE(html.contains(QLatin1String("connect-src 'none'")));
    // The translations were filled in (empty here, where the program's catalogue is not compiled in).
    EXPECT_TRUE(html.contains(QLatin1String("<script id=\"translations\" type=\"application/json\">{\"zh\":")));
}

TEST(RunViewTest, otherClientsGetExactlyWhatTheyGotBefore)
{
    Client plain(QJsonObject{});
    Client host(kUiCapabilities);

    // tools/list: the same bytes but for the view's _meta.
    QJsonArray hostTools =
        host.result(request(1, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
    for (qsizetype i = 0; i < hostTools.size(); ++i) {
        QJsonObject tool = hostTools[i].toObject();
        tool.remove(QStringLiteral("_meta"));
        hostTools[i] = tool;
    }
    const QJsonArray plainTools =
        plain.result(request(1, QStringLiteral("tools/list"))).value(QStringLiteral("tools")).toArray();
    EXPECT_EQ(QJsonDocument(plainTools).toJson(QJsonDocument::Compact),
              QJsonDocument(hostTools).toJson(QJsonDocument::Compact));
    EXPECT_FALSE(QJsonDocument(plainTools).toJson().contains("ui://"));

    // resources/list: the view is not listed.
    const QJsonArray plainResources =
        plain.result(request(2, QStringLiteral("resources/list"))).value(QStringLiteral("resources")).toArray();
    EXPECT_EQ(plainResources.size(), 3); // the languages and the skill (English, Chinese)
    EXPECT_EQ(plainResources[0].toObject().value(QStringLiteral("uri")).toString(),
              QStringLiteral("sandbox://languages"));
    EXPECT_FALSE(QJsonDocument(plainResources).toJson().contains("ui://"));

    // tools/call: the same result, byte for byte, for both.
    const QByteArray call =
        toolCall(3, QStringLiteral("execute_code"), QJsonObject{{QStringLiteral("code"), QStringLiteral("print(1)")}});
    const QJsonObject plainResult = plain.result(call);
    QJsonObject hostResult = host.result(call);
    EXPECT_EQ(QJsonDocument(plainResult).toJson(QJsonDocument::Compact),
              QJsonDocument(hostResult).toJson(QJsonDocument::Compact));
}

TEST(RunViewTest, extensionWithoutTheHtmlProfileIsNotEnough)
{
    EXPECT_FALSE(RunViewResource::clientSupports(
        QJsonObject{{QStringLiteral("extensions"),
                     QJsonObject{{RunViewResource::kExtension,
                                  QJsonObject{{QStringLiteral("mimeTypes"), QJsonArray{QStringLiteral("x")}}}}}}}));
    EXPECT_FALSE(RunViewResource::clientSupports(
        QJsonObject{{QStringLiteral("extensions"), QJsonObject{{RunViewResource::kExtension, true}}}}));
    EXPECT_TRUE(RunViewResource::clientSupports(kUiCapabilities));
}

TEST(RunViewTest, statelessClientAnnouncesTheExtensionPerRequest)
{
    McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor(printsOne())), SandboxTools::resources(), {});
    const auto list = [&](const QJsonObject &capabilities) {
        return replyTo(dispatcher,
                       request(1, QStringLiteral("tools/list"),
                               QJsonObject{{QStringLiteral("_meta"),
                                            QJsonObject{{RequestMeta::kProtocolVersion, QStringLiteral("2026-07-28")},
                                                        {RequestMeta::kClientCapabilities, capabilities}}}}))
            .object()
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("tools"))
            .toArray();
    };
    EXPECT_TRUE(toolNamed(list(kUiCapabilities), QStringLiteral("execute_code")).contains(QStringLiteral("_meta")));
    EXPECT_FALSE(toolNamed(list(QJsonObject{}), QStringLiteral("execute_code")).contains(QStringLiteral("_meta")));
}
