// Tasks (MCP 2025-11-25): a long tools/call answered at once with a task, then polled, waited for, listed and
// cancelled. A stand-in RunFunction plays the engine and blocks until the test lets it end.
#include "mcp/McpTestSupport.h"
#include "mcp/protocol/JsonRpc.h"
#include "mcp/server/McpDispatcher.h"
#include "mcp/tools/CodeExecutor.h"
#include "mcp/tools/SandboxTools.h"

#include <QJsonArray>
#include <condition_variable>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::mcp;
using namespace sandbox::mcp::test;
using namespace std::chrono_literals;

namespace {

/// A run that waits until released (or stopped), then exits with the exit code it was given.
class HeldRun
{
public:
    RunFunction function()
    {
        return [this](const RunRequest &request, std::stop_token stop, RunObserver *observer) -> Result<RunResult> {
            observer->runStarted(QStringLiteral("run-%1").arg(++m_started), request);
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(lock, stop, 30s, [&] { return m_released; });
            if (stop.stop_requested()) {
                m_stopped = true;
                return Error{QStringLiteral("The run was cancelled."), ErrorCode::Cancelled};
            }
            RunResult result;
            result.exitCode = m_exitCode;
            result.stdoutData = request.code.toUtf8();
            return result;
        };
    }
    void release(int exitCode = 0)
    {
        const std::lock_guard lock(m_mutex);
        m_exitCode = exitCode;
        m_released = true;
        m_wake.notify_all();
    }
    bool stopped()
    {
        const std::lock_guard lock(m_mutex);
        return m_stopped;
    }
    int started() const { return m_started; }

private:
    std::mutex m_mutex;
    std::condition_variable_any m_wake;
    bool m_released = false;
    bool m_stopped = false;
    int m_exitCode = 0;
    std::atomic<int> m_started = 0;
};

QByteArray taskCall(const QJsonValue &id, const QString &code, const QJsonObject &task = {})
{
    return request(id, QStringLiteral("tools/call"),
                   QJsonObject{{QStringLiteral("name"), QStringLiteral("execute_code")},
                               {QStringLiteral("arguments"), QJsonObject{{QStringLiteral("code"), code}}},
                               {QStringLiteral("task"), task}});
}

QJsonObject taskRequest(McpDispatcher &dispatcher, int id, const QString &method, const QString &taskId)
{
    return replyTo(dispatcher, request(id, method, QJsonObject{{QStringLiteral("taskId"), taskId}})).object();
}

struct Fixture
{
    explicit Fixture(DispatcherOptions options = {})
        : dispatcher(SandboxTools::tools(CodeExecutor(held.function())), SandboxTools::resources(), sink.sink(),
                     options)
    {
        initializeSession(dispatcher, QStringLiteral("2025-11-25"));
    }
    /// Starts a task and returns its id.
    QString start(int id, const QString &code = QStringLiteral("print(1)"), const QJsonObject &task = {})
    {
        const QJsonObject reply = replyTo(dispatcher, taskCall(id, code, task)).object();
        return reply.value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("task"))
            .toObject()
            .value(QStringLiteral("taskId"))
            .toString();
    }
    QString status(const QString &taskId)
    {
        return taskRequest(dispatcher, 900, QStringLiteral("tasks/get"), taskId)
            .value(QStringLiteral("result"))
            .toObject()
            .value(QStringLiteral("status"))
            .toString();
    }

    HeldRun held;
    SinkRecorder sink;
    McpDispatcher dispatcher;
};

} // namespace

TEST(TaskTest, serverAnnouncesTasksForToolCallsFrom20251125Only)
{
    HeldRun held;
    McpDispatcher current(SandboxTools::tools(CodeExecutor(held.function())), {}, {});
    const QJsonObject capabilities = replyTo(current, initializeRequest(1, QStringLiteral("2025-11-25")))
                                         .object()
                                         .value(QStringLiteral("result"))
                                         .toObject()
                                         .value(QStringLiteral("capabilities"))
                                         .toObject();
    const QJsonObject tasks = capabilities.value(QStringLiteral("tasks")).toObject();
    EXPECT_TRUE(tasks.contains(QStringLiteral("list")));
    EXPECT_TRUE(tasks.contains(QStringLiteral("cancel")));
    EXPECT_TRUE(tasks.value(QStringLiteral("requests"))
                    .toObject()
                    .value(QStringLiteral("tools"))
                    .toObject()
                    .contains(QStringLiteral("call")));
    // execute_code may run as a task; a tool that answers at once may not.
    const QJsonArray tools = replyTo(current, request(2, QStringLiteral("tools/list")))
                                 .object()
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tools"))
                                 .toArray();
    for (const QJsonValue &tool : tools) {
        const QString name = tool.toObject().value(QStringLiteral("name")).toString();
        const QString support = tool.toObject()
                                    .value(QStringLiteral("execution"))
                                    .toObject()
                                    .value(QStringLiteral("taskSupport"))
                                    .toString();
        if (name == QLatin1String("get_supported_languages") || name == QLatin1String("get_language_details") ||
            name == QLatin1String("list_sessions")) {
            EXPECT_TRUE(support.isEmpty()) << name.toStdString();
        } else {
            EXPECT_EQ(support, QStringLiteral("optional")) << name.toStdString();
        }
    }

    McpDispatcher older(SandboxTools::tools(CodeExecutor(held.function())), {}, {});
    EXPECT_FALSE(replyTo(older, initializeRequest(1, QStringLiteral("2025-06-18")))
                     .object()
                     .value(QStringLiteral("result"))
                     .toObject()
                     .value(QStringLiteral("capabilities"))
                     .toObject()
                     .contains(QStringLiteral("tasks")));
    EXPECT_FALSE(replyTo(older, request(2, QStringLiteral("tools/list"))).toJson().contains("taskSupport"));
}

TEST(TaskTest, taskAnswersAtOnceAndTasksResultWaitsForTheRun)
{
    Fixture fixture;
    const QJsonObject created = replyTo(fixture.dispatcher, taskCall(1, QStringLiteral("print(42)"),
                                                                     QJsonObject{{QStringLiteral("ttl"), 60000}}))
                                    .object()
                                    .value(QStringLiteral("result"))
                                    .toObject();
    const QJsonObject task = created.value(QStringLiteral("task")).toObject();
    const QString taskId = task.value(QStringLiteral("taskId")).toString();
    ASSERT_FALSE(taskId.isEmpty()) << QJsonDocument(created).toJson().toStdString();
    EXPECT_EQ(task.value(QStringLiteral("status")).toString(), QStringLiteral("working"));
    EXPECT_EQ(task.value(QStringLiteral("ttl")).toInteger(), 60000);
    EXPECT_GT(task.value(QStringLiteral("pollInterval")).toInt(), 0);
    EXPECT_TRUE(QDateTime::fromString(task.value(QStringLiteral("createdAt")).toString(), Qt::ISODateWithMs).isValid());
    EXPECT_FALSE(created.value(QStringLiteral("_meta"))
                     .toObject()
                     .value(QStringLiteral("io.modelcontextprotocol/model-immediate-response"))
                     .toString()
                     .isEmpty());
    ASSERT_TRUE(waitUntil([&] { return fixture.held.started() == 1; }));
    const QJsonObject working = taskRequest(fixture.dispatcher, 9, QStringLiteral("tasks/get"), taskId)
                                    .value(QStringLiteral("result"))
                                    .toObject();
    EXPECT_EQ(working.value(QStringLiteral("status")).toString(), QStringLiteral("working"));
    // The run's latest progress, for a client that polls.
    EXPECT_EQ(working.value(QStringLiteral("statusMessage")).toString(), QStringLiteral("Running python code"));
    EXPECT_EQ(fixture.dispatcher.runningCalls(), 1);

    // tasks/result blocks until the run ends; two may wait at once.
    QFuture<QJsonDocument> first = fixture.dispatcher.handle(
        request(2, QStringLiteral("tasks/result"), QJsonObject{{QStringLiteral("taskId"), taskId}}));
    QFuture<QJsonDocument> second = fixture.dispatcher.handle(
        request(3, QStringLiteral("tasks/result"), QJsonObject{{QStringLiteral("taskId"), taskId}}));
    // The run is held: neither may be answered yet.
    EXPECT_FALSE(first.isFinished());
    EXPECT_FALSE(second.isFinished());
    fixture.held.release(0);
    first.waitForFinished();
    second.waitForFinished();
    const QJsonObject answer = first.result().object();
    EXPECT_EQ(answer.value(QStringLiteral("id")).toInt(), 2);
    const QJsonObject result = answer.value(QStringLiteral("result")).toObject();
    EXPECT_EQ(QJsonDocument::fromJson(firstText(result).toUtf8()).object().value(QStringLiteral("stdout")).toString(),
              QStringLiteral("print(42)"));
    EXPECT_EQ(result.value(QStringLiteral("_meta"))
                  .toObject()
                  .value(QStringLiteral("io.modelcontextprotocol/related-task"))
                  .toObject()
                  .value(QStringLiteral("taskId"))
                  .toString(),
              taskId);
    EXPECT_EQ(second.result().object().value(QStringLiteral("id")).toInt(), 3);

    EXPECT_EQ(fixture.status(taskId), QStringLiteral("completed"));
    EXPECT_EQ(fixture.dispatcher.runningCalls(), 0);
    // The status change was told as it happened.
    ASSERT_TRUE(waitUntil([&] {
        const auto notes = fixture.sink.withMethod(QStringLiteral("notifications/tasks/status"));
        return !notes.isEmpty() &&
               notes.last().value(QStringLiteral("params")).toObject().value(QStringLiteral("status")) ==
                   QLatin1String("completed");
    }));
    // A finished task answers tasks/result at once, again.
    EXPECT_TRUE(
        taskRequest(fixture.dispatcher, 4, QStringLiteral("tasks/result"), taskId).contains(QStringLiteral("result")));
}

TEST(TaskTest, cancelStopsTheRunAndTheTaskStaysCancelled)
{
    Fixture fixture;
    const QString taskId = fixture.start(1);
    ASSERT_TRUE(waitUntil([&] { return fixture.held.started() == 1; }));

    const QJsonObject cancelled = taskRequest(fixture.dispatcher, 2, QStringLiteral("tasks/cancel"), taskId);
    EXPECT_EQ(cancelled.value(QStringLiteral("result")).toObject().value(QStringLiteral("status")).toString(),
              QStringLiteral("cancelled"));
    ASSERT_TRUE(waitUntil([&] { return fixture.held.stopped(); }));
    // The result is what the call would have answered: the cancelled run, as a tool error.
    const QJsonObject result = taskRequest(fixture.dispatcher, 3, QStringLiteral("tasks/result"), taskId)
                                   .value(QStringLiteral("result"))
                                   .toObject();
    EXPECT_TRUE(result.value(QStringLiteral("isError")).toBool());
    EXPECT_TRUE(firstText(result).contains(QStringLiteral("cancelled")));
    EXPECT_EQ(fixture.status(taskId), QStringLiteral("cancelled"));

    // A task that ended cannot be cancelled again.
    EXPECT_EQ(taskRequest(fixture.dispatcher, 4, QStringLiteral("tasks/cancel"), taskId)
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::InvalidParams);
}

TEST(TaskTest, toolErrorMakesTheTaskFailed)
{
    // No backend: execute_code answers with a tool error.
    SinkRecorder sink;
    McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor(RunFunction())), {}, sink.sink());
    initializeSession(dispatcher);
    const QString taskId = replyTo(dispatcher, taskCall(1, QStringLiteral("print(1)")))
                               .object()
                               .value(QStringLiteral("result"))
                               .toObject()
                               .value(QStringLiteral("task"))
                               .toObject()
                               .value(QStringLiteral("taskId"))
                               .toString();
    const QJsonObject result =
        taskRequest(dispatcher, 2, QStringLiteral("tasks/result"), taskId).value(QStringLiteral("result")).toObject();
    EXPECT_TRUE(result.value(QStringLiteral("isError")).toBool());
    const QJsonObject task =
        taskRequest(dispatcher, 3, QStringLiteral("tasks/get"), taskId).value(QStringLiteral("result")).toObject();
    EXPECT_EQ(task.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    EXPECT_FALSE(task.value(QStringLiteral("statusMessage")).toString().isEmpty());
    EXPECT_FALSE(task.contains(QStringLiteral("pollInterval")));
}

TEST(TaskTest, listShowsTheClientsTasksNewestFirst)
{
    Fixture fixture;
    const QString first = fixture.start(1, QStringLiteral("a"));
    const QString second = fixture.start(2, QStringLiteral("b"));
    const QJsonArray tasks = replyTo(fixture.dispatcher, request(3, QStringLiteral("tasks/list")))
                                 .object()
                                 .value(QStringLiteral("result"))
                                 .toObject()
                                 .value(QStringLiteral("tasks"))
                                 .toArray();
    ASSERT_EQ(tasks.size(), 2);
    EXPECT_EQ(tasks[0].toObject().value(QStringLiteral("taskId")).toString(), second);
    EXPECT_EQ(tasks[1].toObject().value(QStringLiteral("taskId")).toString(), first);
    // Another client (another MCP session) has tasks of its own.
    HeldRun otherRun;
    McpDispatcher other(SandboxTools::tools(CodeExecutor(otherRun.function())), {}, {});
    initializeSession(other);
    EXPECT_TRUE(replyTo(other, request(1, QStringLiteral("tasks/list")))
                    .object()
                    .value(QStringLiteral("result"))
                    .toObject()
                    .value(QStringLiteral("tasks"))
                    .toArray()
                    .isEmpty());
    EXPECT_EQ(taskRequest(other, 2, QStringLiteral("tasks/get"), first)
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::InvalidParams);
    fixture.held.release();
}

TEST(TaskTest, badRequestsGetClearErrors)
{
    Fixture fixture;
    // An unknown task.
    const QJsonObject unknown = taskRequest(fixture.dispatcher, 1, QStringLiteral("tasks/get"), QStringLiteral("nope"));
    EXPECT_EQ(unknown.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::InvalidParams);
    // A tool that answers at once is not run as a task.
    const QJsonObject quick =
        replyTo(fixture.dispatcher,
                request(2, QStringLiteral("tools/call"),
                        QJsonObject{{QStringLiteral("name"), QStringLiteral("get_supported_languages")},
                                    {QStringLiteral("task"), QJsonObject()}}))
            .object();
    EXPECT_EQ(quick.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::MethodNotFound);
    // A ttl that is no number of milliseconds.
    const QJsonObject badTtl =
        replyTo(fixture.dispatcher, taskCall(3, QStringLiteral("x"), QJsonObject{{QStringLiteral("ttl"), -5}}))
            .object();
    EXPECT_EQ(badTtl.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
              jsonrpc::InvalidParams);
    EXPECT_EQ(fixture.held.started(), 0);
}

TEST(TaskTest, olderSessionsIgnoreTheTaskMemberAndHaveNoTaskMethods)
{
    HeldRun held;
    held.release();
    McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor(held.function())), {}, {});
    initializeSession(dispatcher, QStringLiteral("2025-06-18"));
    // The receiver did not declare tasks to this client: the call runs as an ordinary one.
    const QJsonObject result = replyTo(dispatcher, taskCall(1, QStringLiteral("print(1)")))
                                   .object()
                                   .value(QStringLiteral("result"))
                                   .toObject();
    EXPECT_FALSE(result.contains(QStringLiteral("task")));
    EXPECT_TRUE(result.contains(QStringLiteral("content")));
    EXPECT_EQ(taskRequest(dispatcher, 2, QStringLiteral("tasks/get"), QStringLiteral("x"))
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              jsonrpc::MethodNotFound);
}

TEST(TaskTest, finishedTasksMakeRoomForNewOnes)
{
    DispatcherOptions options;
    options.taskLimits.maxTasks = 2;
    Fixture fixture(options);
    const QString oldest = fixture.start(1, QStringLiteral("a"));
    const QString second = fixture.start(2, QStringLiteral("b"));
    // Both run: a third finds no room.
    const QJsonObject refused = replyTo(fixture.dispatcher, taskCall(3, QStringLiteral("c"))).object();
    EXPECT_TRUE(refused.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("tasks/cancel")));
    fixture.held.release();
    ASSERT_TRUE(waitUntil([&] { return fixture.dispatcher.runningCalls() == 0; }));
    // The oldest finished task makes room.
    const QString third = fixture.start(4, QStringLiteral("d"));
    EXPECT_FALSE(third.isEmpty());
    EXPECT_TRUE(
        taskRequest(fixture.dispatcher, 5, QStringLiteral("tasks/get"), oldest).contains(QStringLiteral("error")));
    EXPECT_TRUE(
        taskRequest(fixture.dispatcher, 6, QStringLiteral("tasks/get"), second).contains(QStringLiteral("result")));
}

TEST(TaskTest, resultsBeyondTheRetainedCapAreLetGoOldestFirst)
{
    // Issue 44, item 9: every result was kept whole in memory for up to 24 h.
    DispatcherOptions options;
    options.taskLimits.maxRetainedBytes = 1;
    Fixture fixture(options);
    fixture.held.release();
    const QString older = fixture.start(1, QStringLiteral("a"));
    ASSERT_TRUE(waitUntil([&] { return fixture.dispatcher.runningCalls() == 0; }));
    const QString newer = fixture.start(2, QStringLiteral("b"));
    ASSERT_TRUE(waitUntil([&] { return fixture.dispatcher.runningCalls() == 0; }));

    const QJsonObject gone = taskRequest(fixture.dispatcher, 3, QStringLiteral("tasks/result"), older);
    EXPECT_TRUE(gone.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("no longer kept")))
        << QJsonDocument(gone).toJson().toStdString();
    EXPECT_EQ(gone.value(QStringLiteral("id")).toInt(), 3);
    // The task itself is still known, and the newest result is there.
    EXPECT_EQ(fixture.status(older), QStringLiteral("completed"));
    EXPECT_TRUE(
        taskRequest(fixture.dispatcher, 4, QStringLiteral("tasks/result"), newer).contains(QStringLiteral("result")));
}

TEST(TaskTest, finishedTaskGoesWhenItsTtlHasPassed)
{
    Fixture fixture;
    fixture.held.release();
    // The shortest ttl a client gets is a second, counted from the creation.
    const QString taskId = fixture.start(1, QStringLiteral("a"), QJsonObject{{QStringLiteral("ttl"), 1}});
    const QJsonObject task = taskRequest(fixture.dispatcher, 2, QStringLiteral("tasks/get"), taskId)
                                 .value(QStringLiteral("result"))
                                 .toObject();
    EXPECT_EQ(task.value(QStringLiteral("ttl")).toInteger(), 1000);
    EXPECT_TRUE(waitUntil(
        [&] {
            return taskRequest(fixture.dispatcher, 3, QStringLiteral("tasks/get"), taskId)
                .contains(QStringLiteral("error"));
        },
        10s, 50ms));
}

TEST(TaskTest, dispatcherGoingAwayStopsItsTasks)
{
    HeldRun held;
    {
        McpDispatcher dispatcher(SandboxTools::tools(CodeExecutor(held.function())), {}, {});
        initializeSession(dispatcher);
        replyTo(dispatcher, taskCall(1, QStringLiteral("x")));
        ASSERT_TRUE(waitUntil([&] { return held.started() == 1; }));
    }
    EXPECT_TRUE(held.stopped());
}
