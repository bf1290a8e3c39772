// Long tool calls run beside other requests and can be cancelled; a stand-in tool blocks until stopped.
#include "mcp/McpTestSupport.h"
#include "mcp/server/McpDispatcher.h"

#include <atomic>
#include <condition_variable>
#include <gtest/gtest.h>

using namespace sandbox::mcp;
using namespace sandbox::mcp::test;

namespace {

/// A long-running tool that blocks until the call is cancelled or `release()` is called.
class BlockingTool final
{
public:
    Tool tool()
    {
        return Tool{.name = QStringLiteral("block"),
                    .title = {},
                    .description = QStringLiteral("Blocks until released or cancelled."),
                    .inputSchema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")}},
                    .outputSchema = {},
                    .annotations = {},
                    .longRunning = true,
                    .handler = [this](const ToolCall &call) {
                        ++m_started;
                        call.progress(QStringLiteral("blocking"));
                        std::unique_lock lock(m_mutex);
                        std::stop_callback wake(call.stop, [this] { m_condition.notify_all(); });
                        m_condition.wait(lock, [&] { return m_released || call.stop.stop_requested(); });
                        if (call.stop.stop_requested()) {
                            ++m_stopped;
                        }
                        return textToolResult(QStringLiteral("done"));
                    }};
    }
    void release()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_released = true;
        }
        m_condition.notify_all();
    }
    int started() const { return m_started; }
    int stopped() const { return m_stopped; }

private:
    std::mutex m_mutex;
    std::condition_variable m_condition;
    bool m_released = false;
    std::atomic<int> m_started = 0;
    std::atomic<int> m_stopped = 0;
};

class ConcurrencyTest : public ::testing::Test
{
protected:
    ConcurrencyTest() : dispatcher(ToolRegistry({blocking.tool()}), {}, recorder.sink())
    {
        initializeSession(dispatcher);
    }
    ~ConcurrencyTest() override { blocking.release(); }

    BlockingTool blocking;
    SinkRecorder recorder;
    McpDispatcher dispatcher;
};

TEST_F(ConcurrencyTest, pingAnswersWhileALongCallRuns)
{
    QFuture<QJsonDocument> call = dispatcher.handle(toolCall(1, QStringLiteral("block"), {}));
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 1; }));
    QFuture<QJsonDocument> ping = dispatcher.handle(request(2, QStringLiteral("ping")));
    EXPECT_TRUE(ping.isFinished());
    EXPECT_TRUE(ping.result().object().contains(QStringLiteral("result")));
    EXPECT_FALSE(call.isFinished());

    blocking.release();
    call.waitForFinished();
    EXPECT_EQ(call.result().object().value(QStringLiteral("id")).toInt(), 1);
}

TEST_F(ConcurrencyTest, twoLongCallsRunAtTheSameTime)
{
    QFuture<QJsonDocument> first = dispatcher.handle(toolCall(1, QStringLiteral("block"), {}));
    QFuture<QJsonDocument> second = dispatcher.handle(toolCall(2, QStringLiteral("block"), {}));
    EXPECT_TRUE(waitUntil([&] { return blocking.started() == 2; }));
    EXPECT_EQ(dispatcher.runningCalls(), 2);
    blocking.release();
    first.waitForFinished();
    second.waitForFinished();
    EXPECT_EQ(dispatcher.runningCalls(), 0);
}

TEST_F(ConcurrencyTest, cancelledCallStopsAndIsNotAnswered)
{
    QFuture<QJsonDocument> call = dispatcher.handle(toolCall(QStringLiteral("run-1"), QStringLiteral("block"), {}));
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 1; }));
    EXPECT_TRUE(replyTo(dispatcher, notification(QStringLiteral("notifications/cancelled"),
                                                 {{QStringLiteral("requestId"), QStringLiteral("run-1")},
                                                  {QStringLiteral("reason"), QStringLiteral("user pressed stop")}}))
                    .isNull());
    call.waitForFinished();
    EXPECT_EQ(blocking.stopped(), 1);
    EXPECT_TRUE(call.result().isNull());
    EXPECT_TRUE(replyTo(dispatcher, request(2, QStringLiteral("ping"))).object().contains(QStringLiteral("result")));
}

TEST_F(ConcurrencyTest, cancellingAnotherIdLeavesTheCallRunning)
{
    QFuture<QJsonDocument> call = dispatcher.handle(toolCall(1, QStringLiteral("block"), {}));
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 1; }));
    // The string "1" is a different id from the number 1.
    replyTo(dispatcher, notification(QStringLiteral("notifications/cancelled"),
                                     {{QStringLiteral("requestId"), QStringLiteral("1")}}));
    EXPECT_FALSE(call.isFinished());
    blocking.release();
    call.waitForFinished();
    EXPECT_FALSE(call.result().isNull());
    EXPECT_EQ(blocking.stopped(), 0);
}

TEST_F(ConcurrencyTest, cancelAllStopsEveryRunningCall)
{
    QFuture<QJsonDocument> first = dispatcher.handle(toolCall(1, QStringLiteral("block"), {}));
    QFuture<QJsonDocument> second = dispatcher.handle(toolCall(2, QStringLiteral("block"), {}));
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 2; }));
    dispatcher.cancelAll();
    dispatcher.waitForDone();
    EXPECT_EQ(blocking.stopped(), 2);
    EXPECT_TRUE(first.result().isNull());
    EXPECT_TRUE(second.result().isNull());
}

TEST_F(ConcurrencyTest, reusingTheIdOfARunningCallIsInvalidRequest)
{
    QFuture<QJsonDocument> call = dispatcher.handle(toolCall(1, QStringLiteral("block"), {}));
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 1; }));
    EXPECT_EQ(replyTo(dispatcher, toolCall(1, QStringLiteral("block"), {}))
                  .object()
                  .value(QStringLiteral("error"))
                  .toObject()
                  .value(QStringLiteral("code"))
                  .toInt(),
              -32600);
    blocking.release();
    call.waitForFinished();
}

TEST_F(ConcurrencyTest, progressNotificationsCarryTheRequestsToken)
{
    QFuture<QJsonDocument> call =
        dispatcher.handle(toolCall(1, QStringLiteral("block"), {}, {{QStringLiteral("progressToken"), 17}}));
    ASSERT_TRUE(waitUntil([&] { return !recorder.withMethod(QStringLiteral("notifications/progress")).isEmpty(); }));
    const QJsonObject params = recorder.withMethod(QStringLiteral("notifications/progress"))
                                   .first()
                                   .value(QStringLiteral("params"))
                                   .toObject();
    EXPECT_EQ(params.value(QStringLiteral("progressToken")).toInt(), 17);
    EXPECT_EQ(params.value(QStringLiteral("progress")).toInt(), 1);
    EXPECT_EQ(params.value(QStringLiteral("message")).toString(), QStringLiteral("blocking"));
    blocking.release();
    call.waitForFinished();
}

TEST_F(ConcurrencyTest, batchWithALongCallAnswersWhenAllAreDone)
{
    initializeSession(dispatcher, QStringLiteral("2025-03-26")); // the last revision with batches
    QFuture<QJsonDocument> batch = dispatcher.handle("[" + toolCall(1, QStringLiteral("block"), {}) + "," +
                                                     request(2, QStringLiteral("ping")) + "]");
    ASSERT_TRUE(waitUntil([&] { return blocking.started() == 1; }));
    EXPECT_FALSE(batch.isFinished());
    blocking.release();
    batch.waitForFinished();
    EXPECT_EQ(batch.result().array().size(), 2);
}

} // namespace
