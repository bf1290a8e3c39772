// Calls as assistants send them to the Python llm-sandbox MCP server, and the answers' shapes checked field by field
// against what that server returns. The expected shapes are written down from its source (github.com/vndee/
// llm-sandbox, commit 2c0219c713b04e13fa0bec6113b3b2f9d0ddcc87):
//   llm_sandbox/mcp_server/server.py  execute_code's `except` branch answers
//                                     TextContent(ExecutionResult(exit_code=1, stderr=str(e)).to_json());
//                                     get_language_details of an unknown language answers
//                                     TextContent(json.dumps({"error": f"Unsupported language: {language}"}))
//   llm_sandbox/data.py               ConsoleOutput(exit_code=0, stderr="", stdout="").to_json() dumps those three
//                                     keys (`plots` dropped)
//   llm_sandbox/mcp_server/const.py   LANGUAGE_RESOURCES[lang]: version, package_manager, preinstalled_libraries,
//                                     use_cases, visualization_support, examples[{title, description, code}]
// FastMCP validates arguments with pydantic in lax mode after parsing JSON text given for non-string parameters, so
// "[\"numpy\"]", "45" and null are accepted there.
#include "mcp/McpTestSupport.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

class PythonServerParityTest : public ::testing::Test
{
protected:
    /// A dispatcher whose execute_code runs `run` (recording the request it got).
    std::unique_ptr<McpDispatcher> dispatcherWith(CodeExecutor executor)
    {
        auto dispatcher =
            std::make_unique<McpDispatcher>(SandboxTools::tools(executor), SandboxTools::resources(), recorder.sink());
        replyTo(*dispatcher, request(0, QStringLiteral("initialize"),
                                     {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
                                      {QStringLiteral("capabilities"), QJsonObject()},
                                      {QStringLiteral("clientInfo"),
                                       QJsonObject{{QStringLiteral("name"), QStringLiteral("claude-ai")},
                                                   {QStringLiteral("version"), QStringLiteral("0.1.0")}}}}));
        return dispatcher;
    }
    CodeExecutor recordingExecutor()
    {
        return CodeExecutor([this](const RunRequest &request, std::stop_token, RunObserver *) -> Result<RunResult> {
            seen = request;
            ran = true;
            RunResult result;
            result.exitCode = 0;
            result.stdoutData = "ok\n";
            return result;
        });
    }
    static QJsonObject callResult(McpDispatcher &dispatcher, const QString &tool, const QJsonObject &arguments)
    {
        return replyTo(dispatcher, toolCall(7, tool, arguments)).object().value(QStringLiteral("result")).toObject();
    }
    static QJsonObject textJson(const QJsonObject &callToolResult)
    {
        return QJsonDocument::fromJson(firstText(callToolResult).toUtf8()).object();
    }
    /// The failure shape of execute_code: upstream's three keys with upstream's values, then ours.
    static void expectUpstreamFailure(const QJsonObject &callToolResult, const QString &errorCode)
    {
        EXPECT_TRUE(callToolResult.value(QStringLiteral("isError")).toBool());
        const QJsonArray content = callToolResult.value(QStringLiteral("content")).toArray();
        ASSERT_EQ(content.size(), 1);
        EXPECT_EQ(content.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("text"));
        const QJsonObject json = textJson(callToolResult);
        ASSERT_FALSE(json.isEmpty()) << qPrintable(firstText(callToolResult));
        EXPECT_TRUE(json.value(QStringLiteral("exit_code")).isDouble());
        EXPECT_EQ(json.value(QStringLiteral("exit_code")).toInt(), 1);
        EXPECT_EQ(json.value(QStringLiteral("stdout")), QJsonValue(QString()));
        EXPECT_TRUE(json.value(QStringLiteral("stderr")).isString());
        EXPECT_FALSE(json.value(QStringLiteral("stderr")).toString().isEmpty());
        EXPECT_EQ(json.value(QStringLiteral("error")), json.value(QStringLiteral("stderr")));
        EXPECT_EQ(json.value(QStringLiteral("error_code")).toString(), errorCode);
        EXPECT_EQ(json.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("error"));
        EXPECT_EQ(json.value(QStringLiteral("success")), QJsonValue(false));
    }

    SinkRecorder recorder;
    RunRequest seen;
    bool ran = false;
};

TEST_F(PythonServerParityTest, librariesSentAsJsonTextAreAList)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject out = callResult(*dispatcher, QStringLiteral("execute_code"),
                                       {{QStringLiteral("code"), QStringLiteral("import numpy")},
                                        {QStringLiteral("libraries"), QStringLiteral("[\"numpy\", \"pandas\"]")}});
    EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool()) << qPrintable(firstText(out));
    ASSERT_TRUE(ran);
    EXPECT_EQ(seen.libraries, QStringList({QStringLiteral("numpy"), QStringLiteral("pandas")}));
}

TEST_F(PythonServerParityTest, timeoutSentAsNumericStringIsANumber)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject out = callResult(
        *dispatcher, QStringLiteral("execute_code"),
        {{QStringLiteral("code"), QStringLiteral("print(1)")}, {QStringLiteral("timeout"), QStringLiteral("45")}});
    EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool()) << qPrintable(firstText(out));
    ASSERT_TRUE(ran);
    EXPECT_EQ(seen.timeout, std::chrono::seconds(45));
}

TEST_F(PythonServerParityTest, nullOptionalArgumentsTakeTheirDefaults)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject out = callResult(*dispatcher, QStringLiteral("execute_code"),
                                       {{QStringLiteral("code"), QStringLiteral("print(1)")},
                                        {QStringLiteral("language"), QJsonValue::Null},
                                        {QStringLiteral("libraries"), QJsonValue::Null},
                                        {QStringLiteral("timeout"), QJsonValue::Null}});
    EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool()) << qPrintable(firstText(out));
    ASSERT_TRUE(ran);
    EXPECT_EQ(seen.language, QStringLiteral("python"));
    EXPECT_TRUE(seen.libraries.isEmpty());
    EXPECT_EQ(seen.timeout, std::chrono::seconds(30));
}

TEST_F(PythonServerParityTest, successKeepsTheUpstreamKeys)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject json = textJson(callResult(*dispatcher, QStringLiteral("execute_code"),
                                                 {{QStringLiteral("code"), QStringLiteral("print(1)")}}));
    EXPECT_EQ(json.value(QStringLiteral("exit_code")).toInt(-1), 0);
    EXPECT_EQ(json.value(QStringLiteral("stdout")).toString(), QStringLiteral("ok\n"));
    EXPECT_EQ(json.value(QStringLiteral("stderr")), QJsonValue(QString()));
}

TEST_F(PythonServerParityTest, unsupportedLanguageAnswersTheUpstreamFailureShape)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject out = callResult(
        *dispatcher, QStringLiteral("execute_code"),
        {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("language"), QStringLiteral("cobol")}});
    expectUpstreamFailure(out, QStringLiteral("bad_request"));
    EXPECT_TRUE(textJson(out).value(QStringLiteral("error")).toString().contains(QStringLiteral("cobol")));
    EXPECT_FALSE(ran);
}

TEST_F(PythonServerParityTest, noEngineAnswersTheUpstreamFailureShape)
{
    auto dispatcher = dispatcherWith(CodeExecutor(RunFunction()));
    const QJsonObject out =
        callResult(*dispatcher, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("print(1)")}});
    expectUpstreamFailure(out, QStringLiteral("unavailable"));
    EXPECT_TRUE(
        textJson(out).value(QStringLiteral("error")).toString().contains(QStringLiteral("no container backend")));
}

TEST_F(PythonServerParityTest, engineErrorAnswersTheUpstreamFailureShapeWithItsCode)
{
    auto dispatcher = dispatcherWith(CodeExecutor([](const RunRequest &, std::stop_token, RunObserver *) {
        return Result<RunResult>(Error{QStringLiteral("Cannot reach the Docker engine at unix:///var/run/docker.sock."),
                                       ErrorCode::EngineUnreachable});
    }));
    const QJsonObject out =
        callResult(*dispatcher, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("print(1)")}});
    expectUpstreamFailure(out, QStringLiteral("engine_unreachable"));
    EXPECT_EQ(textJson(out).value(QStringLiteral("error")).toString(),
              QStringLiteral("Cannot reach the Docker engine at unix:///var/run/docker.sock."));
}

TEST_F(PythonServerParityTest, invalidSettingsAnswerEveryCallWithTheProblem)
{
    auto dispatcher = dispatcherWith(CodeExecutor::unavailable(
        Error{QStringLiteral("SANDBOX_MEM_LIMIT: \"lots\" is not a size"), ErrorCode::BadRequest}));
    for (int call = 0; call < 2; ++call) {
        const QJsonObject out = callResult(*dispatcher, QStringLiteral("execute_code"),
                                           {{QStringLiteral("code"), QStringLiteral("print(1)")}});
        expectUpstreamFailure(out, QStringLiteral("bad_request"));
        EXPECT_TRUE(
            textJson(out).value(QStringLiteral("error")).toString().startsWith(QStringLiteral("SANDBOX_MEM_LIMIT")));
    }
    // Sessions cannot start either, and say why.
    const QJsonObject session = callResult(*dispatcher, QStringLiteral("create_session"), {});
    EXPECT_TRUE(session.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(session).startsWith(QStringLiteral("SANDBOX_MEM_LIMIT")));
}

TEST_F(PythonServerParityTest, hugeLanguageIsNotEchoedBack)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QString huge(1024 * 1024, QLatin1Char('x'));
    const QJsonObject out =
        callResult(*dispatcher, QStringLiteral("execute_code"),
                   {{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("language"), huge}});
    expectUpstreamFailure(out, QStringLiteral("bad_request"));
    EXPECT_LT(firstText(out).size(), 4096);
    const QJsonObject details =
        callResult(*dispatcher, QStringLiteral("get_language_details"), {{QStringLiteral("language"), huge}});
    EXPECT_LT(firstText(details).size(), 4096);
}

TEST_F(PythonServerParityTest, hugeEngineErrorIsCut)
{
    auto dispatcher = dispatcherWith(CodeExecutor([](const RunRequest &, std::stop_token, RunObserver *) {
        return Result<RunResult>(Error{QString(100000, QLatin1Char('e')), ErrorCode::EngineFailed});
    }));
    const QJsonObject out =
        callResult(*dispatcher, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("print(1)")}});
    expectUpstreamFailure(out, QStringLiteral("engine_failed"));
    EXPECT_LT(firstText(out).size(), 8192);
}

TEST_F(PythonServerParityTest, languageDetailsHaveTheUpstreamFields)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    for (const QString &language :
         {QStringLiteral("python"), QStringLiteral("javascript"), QStringLiteral("java"), QStringLiteral("cpp"),
          QStringLiteral("go"), QStringLiteral("r"), QStringLiteral("ruby")}) {
        const QJsonObject out =
            callResult(*dispatcher, QStringLiteral("get_language_details"), {{QStringLiteral("language"), language}});
        EXPECT_FALSE(out.value(QStringLiteral("isError")).toBool());
        const QJsonObject details = textJson(out);
        EXPECT_TRUE(details.value(QStringLiteral("version")).isString()) << qPrintable(language);
        EXPECT_TRUE(details.value(QStringLiteral("package_manager")).isString()) << qPrintable(language);
        EXPECT_TRUE(details.value(QStringLiteral("preinstalled_libraries")).isArray()) << qPrintable(language);
        EXPECT_FALSE(details.value(QStringLiteral("use_cases")).toArray().isEmpty()) << qPrintable(language);
        for (const QJsonValue &useCase : details.value(QStringLiteral("use_cases")).toArray()) {
            EXPECT_TRUE(useCase.isString());
        }
        EXPECT_TRUE(details.value(QStringLiteral("visualization_support")).isBool()) << qPrintable(language);
        const QJsonArray examples = details.value(QStringLiteral("examples")).toArray();
        ASSERT_FALSE(examples.isEmpty()) << qPrintable(language);
        for (const QJsonValue &example : examples) {
            const QJsonObject object = example.toObject();
            EXPECT_FALSE(object.value(QStringLiteral("title")).toString().isEmpty());
            EXPECT_FALSE(object.value(QStringLiteral("description")).toString().isEmpty());
            EXPECT_FALSE(object.value(QStringLiteral("code")).toString().isEmpty());
        }
    }
}

TEST_F(PythonServerParityTest, unsupportedLanguageDetailsAnswerTheUpstreamErrorObject)
{
    auto dispatcher = dispatcherWith(recordingExecutor());
    const QJsonObject out = callResult(*dispatcher, QStringLiteral("get_language_details"),
                                       {{QStringLiteral("language"), QStringLiteral("cobol")}});
    const QJsonObject json = textJson(out);
    ASSERT_EQ(json.keys(), QStringList{QStringLiteral("error")}) << qPrintable(firstText(out));
    EXPECT_TRUE(
        json.value(QStringLiteral("error")).toString().startsWith(QStringLiteral("Unsupported language: cobol")));
    EXPECT_TRUE(json.value(QStringLiteral("error")).toString().contains(QStringLiteral("python")));
}

} // namespace
