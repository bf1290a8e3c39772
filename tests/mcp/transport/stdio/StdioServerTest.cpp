// The stdio transport in-process, over pipes instead of the real stdin/stdout.
#include "mcp/transport/stdio/StdioServer.h"

#include "mcp/McpTestSupport.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"
#include "util/TemporaryPaths.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <atomic>
#include <csignal>
#include <functional>
#include <future>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

/// What the calls of a blockingTool() did.
struct BlockingCalls
{
    std::atomic<int> started = 0;
    std::atomic<int> stopped = 0;
};

/// A long-running tool that returns "released" once `released` holds, or "stopped" when its call is cancelled first.
Tool blockingTool(BlockingCalls &calls, std::function<bool()> released)
{
    return Tool{.name = QStringLiteral("block"),
                .title = {},
                .description = QStringLiteral("Waits until released or cancelled."),
                .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                .outputSchema = {},
                .annotations = {},
                .longRunning = true,
                .handler = [&calls, released = std::move(released)](const ToolCall &call) {
                    ++calls.started;
                    // The deadline only ends a test whose release never comes; its assertions then fail.
                    waitUntil([&] { return call.stop.stop_requested() || released(); }, std::chrono::minutes(5));
                    if (call.stop.stop_requested()) {
                        ++calls.stopped;
                        return textToolResult(QStringLiteral("stopped"));
                    }
                    return textToolResult(QStringLiteral("released"));
                }};
}

Tool chattyTool()
{
    return Tool{.name = QStringLiteral("chatty"),
                .title = {},
                .description = QStringLiteral("Sends many progress notifications."),
                .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                .outputSchema = {},
                .annotations = {},
                .longRunning = true,
                .handler = [](const ToolCall &call) {
                    for (int i = 0; i < 200; ++i) {
                        call.progress(QString(2000, QLatin1Char('a' + i % 26)));
                    }
                    return textToolResult(QString(100000, QLatin1Char('z')));
                }};
}

class StdioServerTest : public ::testing::Test
{
protected:
    StdioServerTest()
    {
        EXPECT_EQ(::pipe(m_input), 0);
        EXPECT_EQ(::pipe(m_output), 0);
        m_collector = std::thread([this] {
            char buffer[65536];
            ssize_t count;
            while ((count = ::read(m_output[0], buffer, sizeof buffer)) > 0) {
                const std::lock_guard lock(m_mutex);
                m_collected.append(buffer, count);
            }
        });
    }
    ~StdioServerTest() override
    {
        closeInput();
        closeOutput();
        if (m_collector.joinable()) {
            m_collector.join();
        }
        ::close(m_input[0]);
        ::close(m_output[0]);
    }

    StdioOptions options(qint64 maxMessageBytes = 64LL * 1024 * 1024)
    {
        StdioOptions options;
        options.inputFd = m_input[0];
        options.outputFd = m_output[1];
        options.handleSignals = false;
        options.dispatcher.maxMessageBytes = maxMessageBytes;
        return options;
    }
    /// The sandbox tools without an engine (execute_code says no backend is configured).
    static ToolRegistry sandboxTools() { return SandboxTools::tools(CodeExecutor::forEngine(nullptr)); }
    void send(const QByteArray &line)
    {
        const QByteArray data = line + '\n';
        ASSERT_EQ(::write(m_input[1], data.constData(), data.size()), data.size());
    }
    void closeInput()
    {
        if (m_input[1] >= 0) {
            ::close(m_input[1]);
            m_input[1] = -1;
        }
    }
    void closeOutput()
    {
        if (m_output[1] >= 0) {
            ::close(m_output[1]);
            m_output[1] = -1;
        }
    }
    /// Every line the server wrote, parsed; fails the test on a line that is not one JSON object.
    QList<QJsonObject> messages()
    {
        closeOutput();
        if (m_collector.joinable()) {
            m_collector.join();
        }
        QList<QJsonObject> out;
        for (const QByteArray &line : m_collected.split('\n')) {
            if (line.isEmpty()) {
                continue;
            }
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(line, &error);
            EXPECT_EQ(error.error, QJsonParseError::NoError) << line.left(200).constData();
            EXPECT_TRUE(document.isObject());
            out.append(document.object());
        }
        EXPECT_TRUE(m_collected.isEmpty() || m_collected.endsWith('\n'));
        return out;
    }
    /// Whether the server has written its reply to request `id` so far (while it runs).
    bool hasRepliedTo(int id)
    {
        const std::lock_guard lock(m_mutex);
        const QList<QByteArray> lines = m_collected.split('\n');
        // The last piece is an unfinished line (or empty).
        return std::any_of(lines.cbegin(), lines.cend() - 1, [id](const QByteArray &line) {
            const QJsonObject message = QJsonDocument::fromJson(line).object();
            return message.contains(QStringLiteral("id")) && message.value(QStringLiteral("id")).toInt() == id;
        });
    }
    /// The handshake every client starts with (only ping is served before it); its reply has id 0.
    void handshake() { send(initializeRequest(0, QStringLiteral("2025-11-25"))); }
    /// messages() without the reply to handshake().
    QList<QJsonObject> messagesAfterHandshake()
    {
        QList<QJsonObject> out = messages();
        EXPECT_FALSE(out.isEmpty());
        if (!out.isEmpty()) {
            EXPECT_EQ(out.first().value(QStringLiteral("id")), QJsonValue(0));
            out.removeFirst();
        }
        return out;
    }
    /// Serves a call that ignores cancelling (like an image build) and sends itself SIGTERM twice; never returns.
    void serveAStubbornCallThroughTwoSigterms(const QString &folder)
    {
        const sandbox::TemporaryPaths::Registration registration(folder);
        std::atomic<int> started = 0;
        std::atomic<bool> cancelled = false;
        Tool stubborn{.name = QStringLiteral("stubborn"),
                      .title = {},
                      .description = QStringLiteral("Sees the cancel, and goes on anyway."),
                      .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                      .outputSchema = {},
                      .annotations = {},
                      .longRunning = true,
                      .handler = [&started, &cancelled](const ToolCall &call) {
                          ++started;
                          sandbox::test::waitUntil([&] { return call.stop.stop_requested(); }, std::chrono::minutes(5));
                          cancelled = true;
                          std::promise<void> never;
                          never.get_future().wait();
                          return textToolResult(QString());
                      }};
        StdioOptions withSignals = options();
        withSignals.handleSignals = true;
        StdioServer server(ToolRegistry({stubborn}), {}, withSignals);
        handshake();
        send(toolCall(1, QStringLiteral("stubborn"), {}));
        std::thread killer([&] {
            sandbox::test::waitUntil([&] { return started == 1; });
            ::kill(::getpid(), SIGTERM);
            // The second signal only once the first was handled: two pending signals would merge into one.
            sandbox::test::waitUntil([&] { return cancelled.load(); });
            ::kill(::getpid(), SIGTERM);
        });
        server.exec(); // returns only if the second signal did not end the process
        killer.join();
    }

    static QList<QJsonObject> replies(const QList<QJsonObject> &messages)
    {
        QList<QJsonObject> out;
        for (const QJsonObject &message : messages) {
            if (message.contains(QStringLiteral("id"))) {
                out.append(message);
            }
        }
        return out;
    }

    int m_input[2] = {-1, -1};
    int m_output[2] = {-1, -1};
    std::thread m_collector;
    std::mutex m_mutex;
    QByteArray m_collected;
};

TEST_F(StdioServerTest, answersEachRequestOnItsOwnLineAndExitsAtEndOfInput)
{
    StdioServer server(sandboxTools(), SandboxTools::resources(), options());
    send(request(1, QStringLiteral("initialize"), {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")}}));
    send(notification(QStringLiteral("notifications/initialized")));
    send(request(2, QStringLiteral("ping")));
    send(request(3, QStringLiteral("tools/list")));
    closeInput();
    EXPECT_EQ(server.exec(), 0);

    const QList<QJsonObject> out = messages();
    ASSERT_EQ(out.size(), 3);
    EXPECT_EQ(out.at(0).value(QStringLiteral("result")).toObject().value(QStringLiteral("protocolVersion")).toString(),
              QStringLiteral("2025-06-18"));
    EXPECT_EQ(out.at(1).value(QStringLiteral("id")).toInt(), 2);
    EXPECT_EQ(out.at(2).value(QStringLiteral("result")).toObject().value(QStringLiteral("tools")).toArray().size(), 8);
}

TEST_F(StdioServerTest, perRequestMessagesNeedNoHandshakeAndAreCancelledByNotification)
{
    // 2026-07-28 over stdio: no initialize; notifications/cancelled is still how a client stops a call there.
    const QJsonObject meta{{QStringLiteral("io.modelcontextprotocol/protocolVersion"), QStringLiteral("2026-07-28")},
                           {QStringLiteral("io.modelcontextprotocol/clientCapabilities"), QJsonObject()}};
    BlockingCalls calls;
    StdioServer server(ToolRegistry({blockingTool(calls, [] { return false; })}), {}, options());
    send(request(QStringLiteral("discover-1"), QStringLiteral("server/discover"),
                 QJsonObject{{QStringLiteral("_meta"), meta}}));
    send(toolCall(1, QStringLiteral("block"), {}, meta));
    send(notification(QStringLiteral("notifications/cancelled"), {{QStringLiteral("requestId"), 1}}));
    send(toolCall(2, QStringLiteral("nope"), {}, meta));
    closeInput();
    EXPECT_EQ(server.exec(), 0);

    const QList<QJsonObject> out = messages();
    ASSERT_EQ(out.size(), 2) << "the cancelled call gets no answer";
    EXPECT_EQ(out.at(0).value(QStringLiteral("id")).toString(), QStringLiteral("discover-1"));
    EXPECT_EQ(out.at(0).value(QStringLiteral("result")).toObject().value(QStringLiteral("resultType")).toString(),
              QStringLiteral("complete"));
    EXPECT_EQ(out.at(1).value(QStringLiteral("id")).toInt(), 2);
    EXPECT_EQ(out.at(1).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32602);
    EXPECT_EQ(calls.stopped.load(), calls.started.load()) << "a call that started was stopped";
}

TEST_F(StdioServerTest, executeCodeWithoutEngineAnswersWithToolError)
{
    StdioServer server(sandboxTools(), SandboxTools::resources(), options());
    handshake();
    send(toolCall(1, QStringLiteral("execute_code"), {{QStringLiteral("code"), QStringLiteral("print(1)")}}));
    closeInput();
    EXPECT_EQ(server.exec(), 0);
    const QList<QJsonObject> out = messagesAfterHandshake();
    ASSERT_EQ(out.size(), 1);
    EXPECT_TRUE(out.at(0).value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool());
}

TEST_F(StdioServerTest, runningCallsAnswerBeforeExitAtEndOfInput)
{
    BlockingCalls calls;
    // The call is released only once the ping after it has been answered: a ping held up behind it never is.
    StdioServer server(ToolRegistry({blockingTool(calls, [this] { return hasRepliedTo(2); })}), {}, options());
    handshake();
    send(toolCall(1, QStringLiteral("block"), {}));
    send(request(2, QStringLiteral("ping")));
    closeInput();
    EXPECT_EQ(server.exec(), 0);
    const QList<QJsonObject> out = messagesAfterHandshake();
    ASSERT_EQ(out.size(), 2);
    EXPECT_EQ(out.at(0).value(QStringLiteral("id")).toInt(), 2);
    EXPECT_EQ(out.at(1).value(QStringLiteral("id")).toInt(), 1);
    EXPECT_EQ(firstText(out.at(1).value(QStringLiteral("result")).toObject()), QStringLiteral("released"));
}

TEST_F(StdioServerTest, terminateCancelsRunningCallsAndReturnsWithoutEndOfInput)
{
    BlockingCalls calls;
    StdioServer server(ToolRegistry({blockingTool(calls, [] { return false; })}), {}, options());
    handshake();
    send(toolCall(1, QStringLiteral("block"), {}));
    std::thread stopper([&] {
        waitUntil([&] { return calls.started == 1; });
        server.terminate();
    });
    EXPECT_EQ(server.exec(), 0);
    stopper.join();
    EXPECT_EQ(calls.stopped, 1) << "the running call was not cancelled";
    EXPECT_TRUE(messagesAfterHandshake().isEmpty()); // a cancelled call gets no reply
}

TEST_F(StdioServerTest, sigtermCancelsRunningCallsAndReturns)
{
    BlockingCalls calls;
    StdioOptions withSignals = options();
    withSignals.handleSignals = true;
    StdioServer server(ToolRegistry({blockingTool(calls, [] { return false; })}), {}, withSignals);
    handshake();
    send(toolCall(1, QStringLiteral("block"), {}));
    std::thread killer([&] {
        waitUntil([&] { return calls.started == 1; });
        ::kill(::getpid(), SIGTERM);
    });
    EXPECT_EQ(server.exec(), 0);
    killer.join();
    EXPECT_EQ(calls.stopped, 1) << "the running call was not cancelled";
    EXPECT_TRUE(messagesAfterHandshake().isEmpty());
}

TEST_F(StdioServerTest, overlongLineGetsAnErrorAndTheNextLineIsServed)
{
    StdioServer server(sandboxTools(), SandboxTools::resources(), options(1024));
    send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"" + QByteArray(5000, 'x') + "\"}}");
    send(request(2, QStringLiteral("ping")));
    closeInput();
    EXPECT_EQ(server.exec(), 0);
    const QList<QJsonObject> out = messages();
    ASSERT_EQ(out.size(), 2);
    EXPECT_EQ(out.at(0).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32600);
    // Before initialize the newest revision's rule holds: an id that could not be read is left out.
    EXPECT_FALSE(out.at(0).contains(QStringLiteral("id")));
    EXPECT_EQ(out.at(1).value(QStringLiteral("id")).toInt(), 2);
}

TEST_F(StdioServerTest, garbageLineGetsParseErrorAndServerGoesOn)
{
    StdioServer server(sandboxTools(), SandboxTools::resources(), options());
    send("this is not json");
    send(request(2, QStringLiteral("ping")));
    closeInput();
    EXPECT_EQ(server.exec(), 0);
    const QList<QJsonObject> out = messages();
    ASSERT_EQ(out.size(), 2);
    EXPECT_EQ(out.at(0).value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), -32700);
    EXPECT_EQ(out.at(1).value(QStringLiteral("id")).toInt(), 2);
}

TEST_F(StdioServerTest, concurrentRepliesAndNotificationsNeverInterleave)
{
    StdioServer server(ToolRegistry({chattyTool()}), {}, options());
    handshake();
    for (int id = 1; id <= 8; ++id) {
        send(toolCall(id, QStringLiteral("chatty"), {}, {{QStringLiteral("progressToken"), id}}));
    }
    closeInput();
    EXPECT_EQ(server.exec(), 0);
    const QList<QJsonObject> out = messagesAfterHandshake(); // each line must parse on its own
    EXPECT_EQ(replies(out).size(), 8);
    EXPECT_EQ(out.size(), 8 + 8 * 200);
}

// A second SIGTERM ends the server at once, even while an operation ignores cancelling (an image build), but the
// temporary folders such operations registered are removed first.
TEST_F(StdioServerTest, secondSigtermExitsAtOnceAndRemovesTemporaryFolders)
{
    QTemporaryDir parent;
    ASSERT_TRUE(parent.isValid());
    const QString folder = parent.filePath(QStringLiteral("rootfs"));
    ASSERT_TRUE(QDir().mkpath(folder + QStringLiteral("/usr/bin")));
    EXPECT_EXIT(serveAStubbornCallThroughTwoSigterms(folder), ::testing::ExitedWithCode(128 + SIGTERM), "");
    EXPECT_FALSE(QFileInfo::exists(folder));
}

} // namespace
