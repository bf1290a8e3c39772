// Resource use of running sandboxes on each backend (Kubernetes: the metrics API of the test API server, which
// measures its pods' Docker containers): a session's interpreter holds 50 MB and the stats see it, with the
// configured limit; a busy loop shows as CPU use.
#include "BackendTestSupport.h"
#include "WaitUntil.h"
#include "engine/ExecutionEngine.h"

#include <gtest/gtest.h>
#include <thread>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

constexpr qint64 kMiB = 1024 * 1024;

class ContainerStatsTest : public ::testing::TestWithParam<std::string>
{
};

} // namespace

TEST_P(ContainerStatsTest, statsSeeTheMemoryASessionHoldsItsLimitAndABusyLoop)
{
    auto backend = test::backendFor(GetParam());
    ASSERT_TRUE(backend);
    SandboxSettings settings = test::settingsFor(GetParam());
    settings.poolSize = 0;
    settings.memoryBytes = 256 * kMiB;
    ExecutionEngine engine(backend, settings);
    const QDateTime opened = QDateTime::currentDateTimeUtc().addSecs(-1);
    const test::MemoryHoldingSession session = test::openMemoryHoldingSession(engine, 50);
    ASSERT_FALSE(session.containerId.isEmpty());

    auto stats = backend->containerStats(session.containerId);
    ASSERT_TRUE(stats.ok()) << stats.error().message.toStdString();
    EXPECT_GT(stats->memoryBytes, 50 * kMiB) << "the 50 MB the interpreter holds";
    EXPECT_LT(stats->memoryBytes, settings.memoryBytes);
    EXPECT_EQ(stats->memoryLimitBytes, settings.memoryBytes);
    if (GetParam() == "kubernetes") {
        EXPECT_EQ(stats->pids, -1) << "the metrics API does not count processes";
    } else {
        EXPECT_GE(stats->pids, 2) << "the runner and the session's interpreter";
    }
    EXPECT_GE(stats->sampledAt, opened);

    auto summaries = backend->listContainerSummaries(ExecutionEngine::ownerLabel());
    ASSERT_TRUE(summaries.ok()) << summaries.error().message.toStdString();
    const auto summary = std::find_if(summaries->begin(), summaries->end(),
                                      [&](const ContainerSummary &each) { return each.id == session.containerId; });
    ASSERT_NE(summary, summaries->end());
    EXPECT_EQ(summary->state, QStringLiteral("running"));
    EXPECT_TRUE(summary->image.contains(QStringLiteral("llm-sandbox/python"))) << summary->image.toStdString();
    EXPECT_EQ(summary->labels.value(ExecutionEngine::ownerLabel()), ExecutionEngine::ownerIdentity());
    EXPECT_GE(summary->created, opened.addSecs(-1));

    // CPU: a busy loop in the session, cancelled once the stats have seen it (Podman sends one reading per answer:
    // two answers a second apart).
    std::stop_source stop;
    std::thread busy([&] {
        RunRequest loop;
        loop.language.clear();
        loop.sessionId = session.sessionId;
        loop.code = QStringLiteral("while True:\n    pass\n");
        loop.timeout = 120s;
        (void)engine.run(loop, stop.get_token());
    });
    double seen = 0;
    EXPECT_TRUE(test::waitUntil(
        [&] {
            auto sample = backend->containerStats(session.containerId);
            seen = sample ? sample->cpuCores : -1;
            return seen > 0.2;
        },
        90s, 200ms))
        << "CPU use never above 0.2 cores; last " << seen;
    EXPECT_LT(seen, 1.2) << "one thread uses one core at most";
    stop.request_stop();
    busy.join();

    ASSERT_TRUE(engine.closeSession(session.sessionId).ok());
    auto gone = backend->containerStats(session.containerId);
    ASSERT_FALSE(gone.ok());
    EXPECT_EQ(gone.error().code, ErrorCode::NotFound) << gone.error().message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, ContainerStatsTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
