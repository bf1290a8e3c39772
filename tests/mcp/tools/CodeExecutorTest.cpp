// execute_code without containers: a stand-in RunFunction plays the engine.
#include "mcp/tools/CodeExecutor.h"

#include "engine/ExecutionEngine.h"
#include "fakes/FakeBackend.h"
#include "mcp/McpTestSupport.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

RunResult sampleResult()
{
    RunResult result;
    result.exitCode = 3;
    result.stdoutData = "hello\n";
    result.stderrData = "bad \xff byte\n";
    result.durationMs = 120;
    result.wallMs = 80;
    result.cpuMs = 40;
    result.peakMemoryKb = 2048;
    return result;
}

ToolCall callWith(const QJsonObject &arguments, const QString &protocolVersion = QStringLiteral("2025-11-25"))
{
    ToolCall call;
    call.arguments = arguments;
    call.protocolVersion = protocolVersion;
    return call;
}

QJsonObject runJson(const QJsonObject &callToolResult)
{
    return QJsonDocument::fromJson(firstText(callToolResult).toUtf8()).object();
}

TEST(CodeExecutorTest, resultJsonCarriesExitCodeOutputUsageAndStopReason)
{
    const QJsonObject json = CodeExecutor::toJson(RunRequest{}, sampleResult());
    EXPECT_EQ(json.value(QStringLiteral("exit_code")).toInt(), 3);
    EXPECT_EQ(json.value(QStringLiteral("stdout")).toString(), QStringLiteral("hello\n"));
    EXPECT_FALSE(json.value(QStringLiteral("success")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("duration_ms")).toInt(), 120);
    EXPECT_FALSE(json.value(QStringLiteral("timed_out")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("exit"));
    const QJsonObject usage = json.value(QStringLiteral("resource_usage")).toObject();
    EXPECT_EQ(usage.value(QStringLiteral("wall_ms")).toInt(), 80);
    EXPECT_EQ(usage.value(QStringLiteral("cpu_ms")).toInt(), 40);
    EXPECT_EQ(usage.value(QStringLiteral("peak_memory_kb")).toInt(), 2048);
    EXPECT_FALSE(json.value(QStringLiteral("output_truncated")).toBool());
    EXPECT_TRUE(json.value(QStringLiteral("artifacts")).toArray().isEmpty());
}

TEST(CodeExecutorTest, invalidUtf8InOutputIsReplacedNotDropped)
{
    const QString stderrText =
        CodeExecutor::toJson(RunRequest{}, sampleResult()).value(QStringLiteral("stderr")).toString();
    EXPECT_EQ(stderrText, QStringLiteral("bad \uFFFD byte\n"));
}

TEST(CodeExecutorTest, timeoutIsReportedAsTimedOut)
{
    RunResult result = sampleResult();
    result.reason = StopReason::TimedOut;
    const QJsonObject json = CodeExecutor::toJson(RunRequest{}, result);
    EXPECT_TRUE(json.value(QStringLiteral("timed_out")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("timeout"));
}

TEST(CodeExecutorTest, cpuLimitIsReportedAsItsOwnStopReason)
{
    RunResult result = sampleResult();
    result.reason = StopReason::CpuLimit;
    result.exitCode = 152;
    const QJsonObject json = CodeExecutor::toJson(RunRequest{}, result);
    EXPECT_FALSE(json.value(QStringLiteral("timed_out")).toBool());
    EXPECT_FALSE(json.value(QStringLiteral("success")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("cpu_limit"));
}

TEST(CodeExecutorTest, failingProgramIsANormalResultNotAToolError)
{
    const QJsonObject out = CodeExecutor::toToolResult(RunRequest{}, sampleResult(), false);
    EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(runJson(out).value(QStringLiteral("exit_code")).toInt(), 3);
}

TEST(CodeExecutorTest, everyChartBecomesAnImageItemWithItsMimeType)
{
    RunResult result = sampleResult();
    result.artifacts = {artifact(QStringLiteral("a.png"), QStringLiteral("image/png"), "\x89PNG\r\n\x1a\n"),
                        artifact(QStringLiteral("b.svg"), QStringLiteral("image/svg+xml"), "<svg/>"),
                        artifact(QStringLiteral("c.jpg"), QStringLiteral("image/jpeg"), "\xff\xd8\xff"),
                        artifact(QStringLiteral("d.gif"), QStringLiteral("image/gif"), "GIF89a")};
    const QJsonArray content =
        CodeExecutor::toToolResult(RunRequest{}, result, false).value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 5);
    const QStringList mimeTypes = {QStringLiteral("image/png"), QStringLiteral("image/svg+xml"),
                                   QStringLiteral("image/jpeg"), QStringLiteral("image/gif")};
    for (int i = 0; i < 4; ++i) {
        const QJsonObject item = content.at(i + 1).toObject();
        EXPECT_EQ(item.value(QStringLiteral("type")).toString(), QStringLiteral("image"));
        EXPECT_EQ(item.value(QStringLiteral("mimeType")).toString(), mimeTypes.at(i));
        EXPECT_EQ(QByteArray::fromBase64(item.value(QStringLiteral("data")).toString().toLatin1()),
                  result.artifacts.at(i).data);
    }
    EXPECT_EQ(runJson(CodeExecutor::toToolResult(RunRequest{}, result, false))
                  .value(QStringLiteral("artifacts"))
                  .toArray()
                  .size(),
              4);
}

TEST(CodeExecutorTest, htmlArtifactIsAnEmbeddedHtmlResource)
{
    RunResult result = sampleResult();
    result.artifacts = {artifact(QStringLiteral("plot.html"), QStringLiteral("text/html"), "<html>chart</html>")};
    const QJsonArray content =
        CodeExecutor::toToolResult(RunRequest{}, result, false).value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 2);
    const QJsonObject item = content.at(1).toObject();
    EXPECT_EQ(item.value(QStringLiteral("type")).toString(), QStringLiteral("resource"));
    const QJsonObject resource = item.value(QStringLiteral("resource")).toObject();
    EXPECT_EQ(resource.value(QStringLiteral("mimeType")).toString(), QStringLiteral("text/html"));
    EXPECT_EQ(resource.value(QStringLiteral("text")).toString(), QStringLiteral("<html>chart</html>"));
    EXPECT_TRUE(resource.value(QStringLiteral("uri")).toString().startsWith(QStringLiteral("sandbox://")));
}

TEST(CodeExecutorTest, otherArtifactsAreListedButNotEmbedded)
{
    RunResult result = sampleResult();
    result.artifacts = {artifact(QStringLiteral("report.pdf"), QStringLiteral("application/pdf"), "%PDF")};
    const QJsonObject out = CodeExecutor::toToolResult(RunRequest{}, result, false);
    EXPECT_EQ(out.value(QStringLiteral("content")).toArray().size(), 1);
    EXPECT_EQ(
        runJson(out).value(QStringLiteral("artifacts")).toArray().at(0).toObject().value(QStringLiteral("mime_type")),
        QStringLiteral("application/pdf"));
}

TEST(CodeExecutorTest, structuredContentOnlyWhenTheClientUnderstandsIt)
{
    EXPECT_FALSE(
        CodeExecutor::toToolResult(RunRequest{}, sampleResult(), false).contains(QStringLiteral("structuredContent")));
    const QJsonObject out = CodeExecutor::toToolResult(RunRequest{}, sampleResult(), true);
    EXPECT_EQ(out.value(QStringLiteral("structuredContent")).toObject(), runJson(out));
}

TEST(CodeExecutorTest, argumentsBecomeTheRunRequest)
{
    RunRequest seen;
    CodeExecutor executor([&seen](const RunRequest &request, std::stop_token, RunObserver *) -> Result<RunResult> {
        seen = request;
        return sampleResult();
    });
    const QJsonObject out =
        executor.execute(callWith({{QStringLiteral("code"), QStringLiteral("console.log(1)")},
                                   {QStringLiteral("language"), QStringLiteral("Node")},
                                   {QStringLiteral("libraries"), QJsonArray{QStringLiteral("lodash")}},
                                   {QStringLiteral("timeout"), 7}}));
    EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(seen.language, QStringLiteral("javascript"));
    EXPECT_EQ(seen.code, QStringLiteral("console.log(1)"));
    EXPECT_EQ(seen.libraries, QStringList{QStringLiteral("lodash")});
    EXPECT_EQ(seen.timeout, std::chrono::seconds(7));
    EXPECT_EQ(seen.source, RunSource::Mcp);
    EXPECT_EQ(runJson(out).value(QStringLiteral("language")).toString(), QStringLiteral("javascript"));
}

TEST(CodeExecutorTest, unknownLanguageIsToolErrorAndNothingRuns)
{
    bool ran = false;
    CodeExecutor executor([&ran](const RunRequest &, std::stop_token, RunObserver *) -> Result<RunResult> {
        ran = true;
        return sampleResult();
    });
    const QJsonObject out = executor.execute(callWith(
        {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("language"), QStringLiteral("brainfuck")}}));
    EXPECT_TRUE(out.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(out).contains(QStringLiteral("brainfuck")));
    EXPECT_FALSE(ran);
}

TEST(CodeExecutorTest, infrastructureErrorIsToolErrorWithItsMessage)
{
    CodeExecutor executor([](const RunRequest &, std::stop_token, RunObserver *) -> Result<RunResult> {
        return Error{QStringLiteral("Docker engine unreachable at /var/run/docker.sock.")};
    });
    const QJsonObject out = executor.execute(callWith(
        {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("language"), QStringLiteral("python")}}));
    EXPECT_TRUE(out.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(runJson(out).value(QStringLiteral("error")).toString(),
              QStringLiteral("Docker engine unreachable at /var/run/docker.sock."));
}

// The whole path through the dispatcher: defaults applied, structured content, images and progress.
TEST(CodeExecutorTest, executeCodeThroughTheDispatcherReportsProgressAndReturnsImages)
{
    RunRequest seen;
    CodeExecutor executor([&seen](const RunRequest &request, std::stop_token,
                                  RunObserver *observer) -> Result<RunResult> {
        seen = request;
        observer->runStarted(QStringLiteral("run-1"), request);
        observer->runProgress(QStringLiteral("run-1"),
                              {RunProgress::Kind::LibraryInstall, QStringLiteral("Installing numpy")});
        observer->runOutput(QStringLiteral("run-1"), OutputStream::Stdout, "hello\n");
        RunResult result;
        result.exitCode = 0;
        result.stdoutData = "hello\n";
        result.artifacts = {artifact(QStringLiteral("figure-1.png"), QStringLiteral("image/png"), "\x89PNG\r\n\x1a\n")};
        observer->runArtifact(QStringLiteral("run-1"), result.artifacts.first());
        return result;
    });
    SinkRecorder recorder;
    McpDispatcher dispatcher(SandboxTools::tools(executor), SandboxTools::resources(), recorder.sink());
    initializeSession(dispatcher);
    const QJsonObject reply = replyTo(dispatcher, toolCall(7, QStringLiteral("execute_code"),
                                                           {{QStringLiteral("code"), QStringLiteral("print('hello')")}},
                                                           {{QStringLiteral("progressToken"), QStringLiteral("tok")}}))
                                  .object();

    EXPECT_EQ(seen.language, QStringLiteral("python"));
    EXPECT_EQ(seen.timeout, std::chrono::seconds(30));
    const QJsonObject result = reply.value(QStringLiteral("result")).toObject();
    EXPECT_FALSE(result.value(QStringLiteral("isError")).toBool());
    EXPECT_EQ(result.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("stdout")).toString(),
              QStringLiteral("hello\n"));
    EXPECT_TRUE(result.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("success")).toBool());
    EXPECT_EQ(
        result.value(QStringLiteral("content")).toArray().at(1).toObject().value(QStringLiteral("mimeType")).toString(),
        QStringLiteral("image/png"));

    const QList<QJsonObject> progress = recorder.withMethod(QStringLiteral("notifications/progress"));
    ASSERT_GE(progress.size(), 3);
    double last = 0;
    for (const QJsonObject &notification : progress) {
        const QJsonObject params = notification.value(QStringLiteral("params")).toObject();
        EXPECT_EQ(params.value(QStringLiteral("progressToken")).toString(), QStringLiteral("tok"));
        EXPECT_GT(params.value(QStringLiteral("progress")).toDouble(), last);
        last = params.value(QStringLiteral("progress")).toDouble();
    }
    bool sawInstall = false;
    for (const QJsonObject &notification : progress) {
        sawInstall |=
            notification.value(QStringLiteral("params")).toObject().value(QStringLiteral("message")).toString() ==
            QStringLiteral("Installing numpy");
    }
    EXPECT_TRUE(sawInstall);
}

TEST(CodeExecutorTest, noProgressNotificationsWithoutAProgressToken)
{
    CodeExecutor executor([](const RunRequest &request, std::stop_token, RunObserver *observer) -> Result<RunResult> {
        observer->runStarted(QStringLiteral("run-1"), request);
        observer->runProgress(QStringLiteral("run-1"),
                              {RunProgress::Kind::ContainerStart, QStringLiteral("Starting container")});
        return sampleResult();
    });
    SinkRecorder recorder;
    McpDispatcher dispatcher(SandboxTools::tools(executor), SandboxTools::resources(), recorder.sink());
    initializeSession(dispatcher);
    replyTo(dispatcher, toolCall(1, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("x")}}));
    EXPECT_TRUE(recorder.withMethod(QStringLiteral("notifications/progress")).isEmpty());
}

TEST(CodeExecutorTest, olderClientsGetNoStructuredContent)
{
    CodeExecutor executor(
        [](const RunRequest &, std::stop_token, RunObserver *) -> Result<RunResult> { return sampleResult(); });
    McpDispatcher dispatcher(SandboxTools::tools(executor), SandboxTools::resources(), {});
    replyTo(dispatcher, request(1, QStringLiteral("initialize"),
                                {{QStringLiteral("protocolVersion"), QStringLiteral("2025-03-26")}}));
    const QJsonObject result = replyTo(dispatcher, toolCall(2, QStringLiteral("execute_code"),
                                                            {{QStringLiteral("code"), QStringLiteral("x")}}))
                                   .object()
                                   .value(QStringLiteral("result"))
                                   .toObject();
    EXPECT_FALSE(result.contains(QStringLiteral("structuredContent")));
    EXPECT_EQ(runJson(result).value(QStringLiteral("exit_code")).toInt(), 3);
}

TEST(CodeExecutorTest, callsWithoutTimeoutGetTheUsersDefaultTimeout)
{
    auto backend = std::make_shared<sandbox::test::FakeBackend>();
    SandboxSettings settings;
    settings.defaultTimeout = std::chrono::seconds(90);
    ExecutionEngine engine(backend, settings);
    std::chrono::milliseconds asked{0};
    CodeExecutor executor([&asked](const RunRequest &request, std::stop_token, RunObserver *) -> Result<RunResult> {
        asked = request.timeout;
        return sampleResult();
    });
    const ToolRegistry tools = SandboxTools::tools(executor, &engine);
    for (const QString &name : {QStringLiteral("execute_code"), QStringLiteral("create_session")}) {
        const QJsonObject timeout = tools.find(name)
                                        ->inputSchema.value(QStringLiteral("properties"))
                                        .toObject()
                                        .value(QStringLiteral("timeout"))
                                        .toObject();
        EXPECT_EQ(timeout.value(QStringLiteral("default")).toInt(), 90) << name.toStdString();
    }
    McpDispatcher dispatcher(tools, SandboxTools::resources(), {});
    initializeSession(dispatcher);
    replyTo(dispatcher, toolCall(1, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("x")}}));
    EXPECT_EQ(asked, std::chrono::seconds(90));
}

} // namespace

TEST(CodeExecutorTest, aChartsDataTravelsWithItsArtifactAndInOneLineForTheModel)
{
    RunResult result = sampleResult();
    result.artifacts = {artifact(QStringLiteral("a.png"), QStringLiteral("image/png"), "\x89PNG\r\n\x1a\n")};
    result.artifacts[0].chart = QJsonObject{
        {QStringLiteral("library"), QStringLiteral("matplotlib")},
        {QStringLiteral("kind"), QStringLiteral("bar")},
        {QStringLiteral("title"), QStringLiteral("Sales")},
        {QStringLiteral("axes"),
         QJsonArray{QJsonObject{{QStringLiteral("x"), QJsonObject{{QStringLiteral("label"), QStringLiteral("region")}}},
                                {QStringLiteral("y"), QJsonObject{{QStringLiteral("range"), QJsonArray{0, 7}}}},
                                {QStringLiteral("series"), QJsonArray{QJsonObject{{QStringLiteral("points"), 3}}}}}}}};
    const QJsonObject out = CodeExecutor::toToolResult(RunRequest{}, result, true);
    EXPECT_EQ(out.value(QStringLiteral("structuredContent"))
                  .toObject()
                  .value(QStringLiteral("artifacts"))
                  .toArray()[0]
                  .toObject()
                  .value(QStringLiteral("chart")),
              QJsonValue(result.artifacts[0].chart));
    const QJsonArray content = out.value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 3);
    EXPECT_EQ(content.at(1).toObject().value(QStringLiteral("text")).toString(),
              QStringLiteral("Charts:\na.png: bar 'Sales' — x region, y 0–7, 3 points"));
}

TEST(CodeExecutorTest, aTableTravelsWithItsArtifactAndInOneLineForTheModel)
{
    RunResult result = sampleResult();
    result.artifacts = {Artifact::fromFile(QStringLiteral("summary.csv"), "region,total\nnorth,7\nsouth,3\n")};
    const QJsonObject out = CodeExecutor::toToolResult(RunRequest{}, result, true, true);
    const QJsonObject table = out.value(QStringLiteral("structuredContent"))
                                  .toObject()
                                  .value(QStringLiteral("artifacts"))
                                  .toArray()[0]
                                  .toObject()
                                  .value(QStringLiteral("table"))
                                  .toObject();
    EXPECT_EQ(table.value(QStringLiteral("rows")).toInteger(), 2);
    const QJsonArray content = out.value(QStringLiteral("content")).toArray();
    ASSERT_EQ(content.size(), 3) << "the JSON, the table's line, the file as a resource link";
    EXPECT_EQ(
        content.at(1).toObject().value(QStringLiteral("text")).toString(),
        QStringLiteral("Tables:\nsummary.csv: table 2 rows × 2 columns — region (text, 2 distinct), total (number "
                       "3–7)"));
    EXPECT_EQ(content.at(2).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("resource_link"));
}
