#include "gui/EngineController.h"

#include "GuiTestSupport.h"

#include <atomic>
#include <gtest/gtest.h>

using namespace sandbox;
using namespace sandbox::gui;
using sandbox::gui::guitest::waitUntil;
using namespace std::chrono_literals;

namespace {

/// Sees every run of the engine from the engine's side, independent of the controller.
class FinishedRuns final : public RunObserver
{
public:
    void runFinished(const QString &, const RunResult &result, const std::optional<Error> &error) override
    {
        reason = result.reason;
        failed = error.has_value();
        ++count;
    }
    std::atomic<int> count{0};
    std::atomic<bool> failed{false};
    std::atomic<StopReason> reason{StopReason::Exited};
};

} // namespace

TEST(EngineController, deliversOutputAndResultOnTheGuiThread)
{
    auto engine = guitest::dockerEngine();
    ASSERT_NE(engine, nullptr);
    EngineController controller([&](const QString &) -> Result<ExecutionEngine *> { return engine.get(); },
                                QStringLiteral("docker"));
    QByteArray output;
    std::optional<RunResult> result;
    bool onGuiThread = true;
    QObject::connect(&controller, &EngineController::runOutput, [&](quint64, OutputStream, const QByteArray &chunk) {
        onGuiThread = onGuiThread && QThread::currentThread() == qApp->thread();
        output += chunk;
    });
    QObject::connect(&controller, &EngineController::runFinished,
                     [&](quint64, const RunResult &finished) { result = finished; });

    RunRequest request;
    request.code = QStringLiteral("print('hello from the sandbox')");
    const quint64 ticket = controller.start(request);
    EXPECT_TRUE(controller.isRunning(ticket));
    EXPECT_EQ(controller.runningCount(), 1);
    ASSERT_TRUE(waitUntil([&] { return result.has_value(); }, 120s));
    EXPECT_EQ(result->exitCode, 0);
    EXPECT_TRUE(output.contains("hello from the sandbox"));
    EXPECT_TRUE(onGuiThread);
    EXPECT_FALSE(controller.isRunning(ticket));
    EXPECT_EQ(controller.runningCount(), 0);
}

TEST(EngineController, destroyedDuringARunCancelsAndWaitsForIt)
{
    auto engine = guitest::dockerEngine();
    ASSERT_NE(engine, nullptr);
    FinishedRuns finished;
    Subscription subscription = engine->subscribe(&finished);
    auto controller = std::make_unique<EngineController>(
        [&](const QString &) -> Result<ExecutionEngine *> { return engine.get(); }, QStringLiteral("docker"));
    QByteArray output;
    QObject::connect(controller.get(), &EngineController::runOutput,
                     [&](quint64, OutputStream, const QByteArray &chunk) { output += chunk; });

    RunRequest request;
    request.code = QStringLiteral("import time\nprint('started', flush=True)\ntime.sleep(300)\n");
    request.timeout = 600s;
    controller->start(request);
    ASSERT_TRUE(waitUntil([&] { return output.contains("started"); }, 120s));
    EXPECT_EQ(finished.count, 0);

    controller.reset();

    // The destructor returned only after the run had ended, and it ended because it was cancelled.
    EXPECT_EQ(finished.count, 1);
    EXPECT_FALSE(finished.failed);
    EXPECT_EQ(finished.reason, StopReason::Cancelled);
}

TEST(EngineController, reportsAnEngineThatCannotBeMadeAsAFailedRun)
{
    EngineController controller(
        [](const QString &backend) -> Result<ExecutionEngine *> {
            return Error{QStringLiteral("no backend %1").arg(backend), ErrorCode::EngineUnreachable};
        },
        QStringLiteral("podman"));
    std::optional<Error> error;
    QObject::connect(&controller, &EngineController::runFailed,
                     [&](quint64, const Error &failure) { error = failure; });
    controller.start(RunRequest{});
    ASSERT_TRUE(waitUntil([&] { return error.has_value(); }, 10s));
    EXPECT_EQ(error->code, ErrorCode::EngineUnreachable);
    EXPECT_EQ(error->message, QStringLiteral("no backend podman"));
    EXPECT_EQ(controller.runningCount(), 0);
}
