// The engine's logic against the in-memory backend (tests/fakes): pool reuse, the retry on a dead container,
// observer order, cancelling, sessions and error codes, without a container engine and without timing.
#include "engine/ExecutionEngine.h"

#include "ScopedEnvironment.h"
#include "WaitUntil.h"
#include "engine/ContainerSpecFactory.h"
#include "fakes/FakeBackend.h"

#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <algorithm>
#include <future>
#include <gtest/gtest.h>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace sandbox;
using namespace sandbox::test;
using namespace std::chrono_literals;

namespace {

/// Records what an observer is told, one line per call (progress lines left out: they are not part of the order).
class RecordingObserver final : public RunObserver
{
public:
    void runStarted(const QString &runId, const RunRequest &) override
    {
        {
            std::lock_guard lock(m_mutex);
            m_runId = runId;
        }
        record(QStringLiteral("started"));
    }
    void runOutput(const QString &, OutputStream stream, const QByteArray &chunk) override
    {
        record(QStringLiteral("%1:%2").arg(stream == OutputStream::Stderr ? QStringLiteral("stderr")
                                                                          : QStringLiteral("stdout"),
                                           QString::fromUtf8(chunk)));
    }
    void runArtifact(const QString &, const Artifact &artifact) override
    {
        record(QStringLiteral("artifact:") + artifact.name);
    }
    void runFinished(const QString &, const RunResult &, const std::optional<Error> &error) override
    {
        record(error ? QStringLiteral("failed") : QStringLiteral("finished"));
    }

    /// The id of the run that started last.
    QString runId() const
    {
        std::lock_guard lock(m_mutex);
        return m_runId;
    }

    /// std::string, so a failing comparison prints readable text.
    std::vector<std::string> events() const
    {
        std::lock_guard lock(m_mutex);
        return m_events;
    }

private:
    void record(const QString &event)
    {
        std::lock_guard lock(m_mutex);
        m_events.push_back(event.toStdString());
    }

    mutable std::mutex m_mutex;
    std::vector<std::string> m_events;
    QString m_runId;
};

RunRequest pythonRun(const QString &code)
{
    RunRequest request;
    request.language = QStringLiteral("python");
    request.code = code;
    return request;
}

class ExecutionEngineTest : public ::testing::Test
{
protected:
    ExecutionEngineTest()
    {
        // The image catalog reads the runner binary to name the images; any file does for the fake backend.
        const QString runner = m_runnerDir.filePath(QStringLiteral("llm-sandbox-runner"));
        QFile file(runner);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("not a runner");
        m_environment.emplace(
            std::initializer_list<std::pair<const char *, QByteArray>>{{"LLM_SANDBOX_RUNNER", runner.toLocal8Bit()}});
    }

    ExecutionEngine &engine(SandboxSettings settings = {})
    {
        m_engine = std::make_unique<ExecutionEngine>(m_backend, std::move(settings));
        return *m_engine;
    }

    /// Runs `request` on a thread of its own (for runs a gate holds open).
    std::future<Result<RunResult>> runInBackground(RunRequest request, const std::stop_token &stop = {},
                                                   RunObserver *observer = nullptr)
    {
        return std::async(std::launch::async, [this, request = std::move(request), stop, observer] {
            return m_engine->run(request, stop, observer);
        });
    }

    QTemporaryDir m_runnerDir;
    std::optional<ScopedEnvironment> m_environment;
    std::shared_ptr<FakeBackend> m_backend = std::make_shared<FakeBackend>();
    std::unique_ptr<ExecutionEngine> m_engine;
};

// --- the pool ---

TEST_F(ExecutionEngineTest, aRunAskingForNetworkGetsOnlyWhatTheUserAllowsAndNoReadOnlyRunOnKubernetesYet)
{
    SandboxSettings settings;
    settings.networkAllow = *NetworkAllowList::parse(QStringLiteral("api.test"));
    RunRequest request;
    request.code = QStringLiteral("print(1)");
    request.network = {QStringLiteral("example.org")};
    auto beyond = engine(settings).run(request);
    ASSERT_FALSE(beyond);
    EXPECT_EQ(beyond.error().code, ErrorCode::BadRequest);
    EXPECT_EQ(m_backend->specs().size(), 0) << "no container for a refused request";

    // A proxy pod cannot give the sandbox pod its authority to trust (its volume): no secrets, no read-only runs.
    m_backend->setEgressProxyReach(ContainerBackend::EgressProxyReach::ContainerAddress);
    settings.networkAllow = *NetworkAllowList::parse(QStringLiteral("api.test, read-only"));
    request.network = {QStringLiteral("api.test")};
    auto kubernetes = engine(settings).run(request);
    ASSERT_FALSE(kubernetes);
    EXPECT_EQ(kubernetes.error().code, ErrorCode::Unavailable);
    EXPECT_TRUE(kubernetes.error().message.contains(QStringLiteral("Kubernetes")))
        << qPrintable(kubernetes.error().message);
    EXPECT_EQ(m_backend->specs().size(), 0);
}

TEST_F(ExecutionEngineTest, twoRunsOfOneLanguageShareOneContainer)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    ExecutionEngine &sandbox = engine();

    auto first = sandbox.run(pythonRun(QStringLiteral("print(1)")));
    auto second = sandbox.run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    ASSERT_TRUE(second.ok()) << second.error().message.toStdString();
    EXPECT_EQ(second->stdoutData, "1\n");
    EXPECT_EQ(m_backend->containersCreated(), 1);
    const QList<FakeRun> runs = m_backend->runs();
    ASSERT_EQ(runs.size(), 2);
    EXPECT_EQ(runs[0].containerId, runs[1].containerId);
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 1);
}

TEST_F(ExecutionEngineTest, drainedPoolRemovesItsWarmContainersAndTheContainersOfRunsInProgressWhenTheyEnd)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    auto gate = std::make_shared<FakeRunGate>();
    m_backend->setScript("held()", FakeRunScript::heldBy(gate));
    ExecutionEngine &sandbox = engine();
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());
    ASSERT_EQ(sandbox.warmContainers(QStringLiteral("python")), 1);
    auto held = runInBackground(pythonRun(QStringLiteral("held()")));
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(gate->waitForArrivals());
    ASSERT_EQ(m_backend->liveContainers().size(), 1) << "the held run took the warm container";
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());
    ASSERT_EQ(sandbox.warmContainers(QStringLiteral("python")), 1);
    ASSERT_EQ(m_backend->liveContainers().size(), 2);

    // Retired (AppContext::reconnect): the warm container goes now; the run in progress goes on.
    sandbox.drainPool();
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 0);
    EXPECT_EQ(m_backend->liveContainers().size(), 1);
    gate->open();
    auto result = held.get();
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::Exited);
    // Its container is not pooled again, and neither is a later run's, nor does a prewarm start one.
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());
    sandbox.prewarm(QStringLiteral("python"));
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 0);
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());
}

TEST_F(ExecutionEngineTest, runsBeyondTheEnginesCapWaitTheirTurnAndSaySo)
{
    // Issue 44, item 9: 64 HTTP sessions of 16 calls each could start 1,024 containers at once.
    class Progress final : public RunObserver
    {
    public:
        void runProgress(const QString &, const RunProgress &progress) override
        {
            const std::lock_guard lock(mutex);
            messages << progress.message;
        }
        QStringList all() const
        {
            const std::lock_guard lock(mutex);
            return messages;
        }
        mutable std::mutex mutex;
        QStringList messages;
    };
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    auto gate = std::make_shared<FakeRunGate>();
    m_backend->setScript("held()", FakeRunScript::heldBy(gate));
    SandboxSettings settings;
    settings.maxRuns = 1;
    engine(settings);
    auto held = runInBackground(pythonRun(QStringLiteral("held()")));
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(gate->waitForArrivals());

    Progress waiting;
    auto next = runInBackground(pythonRun(QStringLiteral("print(1)")), {}, &waiting);
    const auto letItRun = qScopeGuard([&] { gate->open(); }); // before `next` is waited for, should a check fail
    ASSERT_TRUE(test::waitUntil([&] { return !waiting.all().isEmpty(); }, std::chrono::seconds(10)));
    EXPECT_TRUE(
        waiting.all().first().startsWith(QStringLiteral("Waiting for a free place: 1 runs are going, at most 1")))
        << waiting.all().join(u'|').toStdString();
    EXPECT_EQ(next.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout) << "it waits";
    EXPECT_EQ(m_backend->liveContainers().size(), 1) << "no container for the waiting run";

    // One cancelled while it waits ends at once, said so.
    std::stop_source stop;
    auto cancelled = runInBackground(pythonRun(QStringLiteral("print(1)")), stop.get_token());
    stop.request_stop();
    const auto refused = cancelled.get();
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::Cancelled);

    gate->open();
    ASSERT_TRUE(held.get().ok());
    const auto ran = next.get();
    ASSERT_TRUE(ran.ok()) << ran.error().message.toStdString();
    EXPECT_EQ(ran->stdoutData, "1\n");
}

TEST_F(ExecutionEngineTest, aBurstOfConcurrentRunsKeepsItsContainersForTheNextBurst)
{
    // Six clients at once, twice: the second burst takes the first one's containers instead of starting six more (the
    // pool keeps as many as runs of the language were going, beyond its two, for a while).
    ExecutionEngine &sandbox = engine();
    const auto burst = [&] {
        auto gate = std::make_shared<FakeRunGate>();
        m_backend->setScript("held()", FakeRunScript::heldBy(gate));
        std::vector<std::future<Result<RunResult>>> runs;
        for (int i = 0; i < 6; ++i) {
            runs.push_back(runInBackground(pythonRun(QStringLiteral("held()"))));
        }
        EXPECT_TRUE(gate->waitForArrivals(6));
        gate->open();
        for (auto &run : runs) {
            const auto result = run.get();
            EXPECT_TRUE(result.ok()) << result.error().message.toStdString();
        }
    };
    burst();
    const int created = m_backend->containersCreated();
    EXPECT_GE(created, 6);
    EXPECT_TRUE(waitUntil([&] { return sandbox.warmContainers(QStringLiteral("python")) >= 5; }))
        << sandbox.warmContainers(QStringLiteral("python"));
    burst();
    EXPECT_LE(m_backend->containersCreated() - created, 1) << "the second burst started its own containers";
}

TEST_F(ExecutionEngineTest, cleanRunOfAWornOutContainerPrewarmsAFreshOne)
{
    SandboxSettings settings;
    settings.poolMaxUses = 1;
    ExecutionEngine &sandbox = engine(settings);

    auto result = sandbox.run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_TRUE(waitUntil([&] { return m_backend->containersRemoved() == 1; }));
    // The replacement starts on the pool's thread.
    EXPECT_TRUE(waitUntil([&] { return sandbox.warmContainers(QStringLiteral("python")) == 1; }));
    EXPECT_EQ(m_backend->containersCreated(), 2);

    const QStringList warm = m_backend->liveContainers();
    ASSERT_EQ(warm.size(), 1);
    auto next = sandbox.run(pythonRun(QStringLiteral("print(2)")));
    ASSERT_TRUE(next.ok());
    // The program's run, not the preload run of the container warmed after it (worn out again), which may follow.
    QString ranIn;
    for (const FakeRun &run : m_backend->runs()) {
        if (run.steps != QStringList{QStringLiteral("preload")}) {
            ranIn = run.containerId;
        }
    }
    EXPECT_EQ(ranIn, warm.first());
}

TEST_F(ExecutionEngineTest, aContainerInTheSecondHalfOfItsUsesHasItsSuccessorWarmedAndServesToTheEnd)
{
    SandboxSettings settings;
    settings.poolMaxUses = 4;
    ExecutionEngine &sandbox = engine(settings);

    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(2)"))).ok());
    // Two of its four uses are gone: the successor starts on the pool's thread, and waits beside it once warm.
    ASSERT_TRUE(waitUntil([&] { return sandbox.warmContainers(QStringLiteral("python")) == 2; }));
    const QString first = m_backend->runs().first().containerId;
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(3)"))).ok());
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(4)"))).ok());
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(5)"))).ok());

    QList<FakeRun> runs;
    QString successorPreloaded;
    for (const FakeRun &run : m_backend->runs()) {
        if (run.steps == QStringList{QStringLiteral("preload")}) {
            successorPreloaded = run.containerId; // its preloaded interpreter, started while it was warmed
        } else {
            runs.append(run);
        }
    }
    ASSERT_EQ(runs.size(), 5);
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(runs[i].containerId, first) << "run " << i + 1 << " went to the successor before its turn";
    }
    EXPECT_NE(runs[4].containerId, first);
    EXPECT_FALSE(successorPreloaded.isEmpty()) << "the successor's preloaded interpreters were not started";
    EXPECT_EQ(m_backend->containersCreated(), 2) << "the fifth run waited for a cold start";
}

TEST_F(ExecutionEngineTest, runThatDidNotEndCleanlyDoesNotReturnItsContainer)
{
    FakeRunScript refused;
    refused.errorMessage = QStringLiteral("cannot prepare the workdir");
    refused.reason = QStringLiteral("error");
    refused.exitCode = -1;
    m_backend->setScript("print(1)", refused);
    ExecutionEngine &sandbox = engine();

    auto result = sandbox.run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_TRUE(result->stderrData.contains("cannot prepare the workdir"));
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 0);
    // Removed on the pool's thread, after the run has answered.
    EXPECT_TRUE(waitUntil([&] { return m_backend->containersRemoved() == 1; }));
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());

    auto next = sandbox.run(pythonRun(QStringLiteral("print(2)")));
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(m_backend->containersCreated(), 2);
}

TEST_F(ExecutionEngineTest, runWhoseProcessesSurvivedSigkillDoesNotReturnItsContainer)
{
    // A fork bomb under gVisor can outlast the runner's kills: its leftovers would hold the task limit of the next run.
    FakeRunScript bomb;
    bomb.reason = QStringLiteral("timeout");
    bomb.exitCode = 137;
    bomb.processesSurvived = true;
    m_backend->setScript("print(1)", bomb);
    ExecutionEngine &sandbox = engine();

    auto result = sandbox.run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::TimedOut);
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 0);
    // Removed on the pool's thread, after the run has answered.
    EXPECT_TRUE(waitUntil([&] { return m_backend->containersRemoved() == 1; }));
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());
}

TEST_F(ExecutionEngineTest, pooledContainerThatDiedWhileIdleIsReplacedForTheNextRun)
{
    m_backend->setScript("print(2)", FakeRunScript::printing("2\n"));
    ExecutionEngine &sandbox = engine();
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());
    ASSERT_EQ(sandbox.warmContainers(QStringLiteral("python")), 1);
    const QString pooled = m_backend->runs().first().containerId;

    ASSERT_TRUE(m_backend->killContainer(pooled));
    auto result = sandbox.run(pythonRun(QStringLiteral("print(2)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "2\n");
    EXPECT_EQ(m_backend->containersCreated(), 2);
    EXPECT_NE(m_backend->runs().last().containerId, pooled);
    // Removed on the pool's thread, which may come after the run has answered.
    EXPECT_TRUE(waitUntil([&] { return !m_backend->liveContainers().contains(pooled); }));
}

TEST_F(ExecutionEngineTest, containersAreCreatedHardened)
{
    ExecutionEngine &sandbox = engine();
    ASSERT_TRUE(sandbox.run(pythonRun(QStringLiteral("print(1)"))).ok());

    const QList<ContainerSpec> specs = m_backend->specs();
    ASSERT_EQ(specs.size(), 1);
    EXPECT_TRUE(specs[0].network.isNone());
    EXPECT_TRUE(specs[0].noNewPrivileges);
    EXPECT_EQ(specs[0].capDrop, QStringList{QStringLiteral("ALL")});
    EXPECT_TRUE(specs[0].readOnlyRootfs);
    EXPECT_FALSE(specs[0].privileged);
    EXPECT_TRUE(specs[0].labels.contains(ExecutionEngine::ownerLabel()));
}

// --- observers ---

TEST_F(ExecutionEngineTest, observerSeesStartOutputInOrderArtifactsThenOneFinish)
{
    FakeRunScript script;
    script.output = {{QStringLiteral("stdout"), "one"}, {QStringLiteral("stderr"), "two"}};
    script.outputAfterGate = {{QStringLiteral("stdout"), "three"}};
    script.artifacts = {{QStringLiteral("report.html"), "<html></html>"}};
    m_backend->setScript("draw()", script);
    ExecutionEngine &sandbox = engine();
    RecordingObserver observer;
    Subscription subscription = sandbox.subscribe(&observer);

    auto result = sandbox.run(pythonRun(QStringLiteral("draw()")));
    subscription.reset();

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(observer.events(), (std::vector<std::string>{"started", "stdout:one", "stderr:two", "stdout:three",
                                                           "artifact:report.html", "finished"}));
    ASSERT_EQ(result->artifacts.size(), 1);
    EXPECT_EQ(result->artifacts[0].mimeType, QStringLiteral("text/html"));
}

TEST_F(ExecutionEngineTest, outputBeyondTheCapIsCutByTheHostWhateverTheRunnerClaims)
{
    // A runner (code in the sandbox's image) that ignores the output limit and says it cut nothing: 200 MB.
    FakeRunScript flood;
    const QByteArray chunk(64 * 1024, 'x');
    for (int i = 0; i < 200 * 16; ++i) {
        flood.output.append({i % 2 ? QStringLiteral("stderr") : QStringLiteral("stdout"), chunk});
    }
    m_backend->setScript("flood()", flood);
    SandboxSettings settings;
    settings.maxOutputBytes = 1024 * 1024;
    ExecutionEngine &sandbox = engine(settings);
    RecordingObserver observer;
    Subscription subscription = sandbox.subscribe(&observer);

    auto result = sandbox.run(pythonRun(QStringLiteral("flood()")));
    subscription.reset();

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData.size() + result->stderrData.size(), settings.maxOutputBytes);
    EXPECT_TRUE(result->outputTruncated);
    // The observers (journal, live log, MCP progress) get no more than the result holds.
    EXPECT_EQ(observer.events().size(), 2u + 16u);
}

TEST_F(ExecutionEngineTest, observerSeesOneFinishWhenTheEngineRefusesTheContainer)
{
    m_backend->setCreateError(Error{QStringLiteral("the engine said no"), ErrorCode::EngineFailed});
    ExecutionEngine &sandbox = engine();
    RecordingObserver observer;

    auto result = sandbox.run(pythonRun(QStringLiteral("print(1)")), {}, &observer);

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::EngineFailed);
    EXPECT_EQ(observer.events(), (std::vector<std::string>{"started", "failed"}));
}

TEST_F(ExecutionEngineTest, observerSeesOneFinishWhenTheContainerDiesDuringTheRun)
{
    FakeRunScript dies = FakeRunScript::printing("partial");
    dies.containerDies = true;
    m_backend->setScript("crash()", dies);
    ExecutionEngine &sandbox = engine();
    RecordingObserver observer;

    auto result = sandbox.run(pythonRun(QStringLiteral("crash()")), {}, &observer);

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::SandboxFailed);
    EXPECT_EQ(observer.events(), (std::vector<std::string>{"started", "stdout:partial", "failed"}));
    EXPECT_EQ(sandbox.warmContainers(QStringLiteral("python")), 0);
    EXPECT_TRUE(waitUntil([&] { return m_backend->liveContainers().isEmpty(); })); // removed on the pool's thread
}

TEST_F(ExecutionEngineTest, observerRemovedDuringARunIsNotCalledAgain)
{
    auto gate = std::make_shared<FakeRunGate>();
    FakeRunScript held = FakeRunScript::heldBy(gate);
    held.output = {{QStringLiteral("stdout"), "before"}};
    held.outputAfterGate = {{QStringLiteral("stdout"), "after"}};
    held.artifacts = {{QStringLiteral("late.html"), "<html></html>"}};
    m_backend->setScript("held()", held);
    ExecutionEngine &sandbox = engine();
    RecordingObserver observer;
    Subscription subscription = sandbox.subscribe(&observer);

    auto run = runInBackground(pythonRun(QStringLiteral("held()")));
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(gate->waitForArrivals());
    ASSERT_TRUE(waitUntil([&] { return std::ranges::count(observer.events(), "stdout:before") == 1; }));
    subscription.reset();
    const std::vector<std::string> seenBeforeRemoval = observer.events();
    gate->open();
    ASSERT_TRUE(run.get().ok());

    // The run in progress went on (output, an artifact, its end) without calling the unsubscribed observer.
    EXPECT_EQ(observer.events(), seenBeforeRemoval);
}

// --- cancelling ---

TEST_F(ExecutionEngineTest, stopRequestEndsAHeldRunAsCancelled)
{
    auto gate = std::make_shared<FakeRunGate>();
    m_backend->setScript("while True: pass", FakeRunScript::heldBy(gate));
    engine();
    RecordingObserver observer;
    std::stop_source stop;

    auto run = runInBackground(pythonRun(QStringLiteral("while True: pass")), stop.get_token(), &observer);
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(gate->waitForArrivals());
    stop.request_stop();
    auto result = run.get();

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::Cancelled);
    EXPECT_FALSE(gate->isOpen());
    EXPECT_EQ(observer.events(), (std::vector<std::string>{"started", "finished"}));
}

TEST_F(ExecutionEngineTest, aRunAPersonStoppedEndsAsStoppedByThemWhateverItsCallerWaitsFor)
{
    auto gate = std::make_shared<FakeRunGate>();
    m_backend->setScript("while True: pass", FakeRunScript::heldBy(gate));
    ExecutionEngine &sandbox = engine();
    RecordingObserver observer;
    EXPECT_FALSE(sandbox.userStops().lock()->stop(QStringLiteral("no-such-run")));

    auto run = runInBackground(pythonRun(QStringLiteral("while True: pass")), {}, &observer);
    const auto release = qScopeGuard([&] { gate->open(); });
    ASSERT_TRUE(gate->waitForArrivals());
    // The desktop app's Stop, as the journal recorder hands it on from whichever window asked.
    EXPECT_TRUE(sandbox.userStops().lock()->stop(observer.runId()));
    auto result = run.get();

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::StoppedByUser);
    EXPECT_EQ(toString(result->reason), QStringLiteral("stopped_by_user"));
    // What the assistant reads, besides stop_reason: who stopped it and when.
    EXPECT_TRUE(result->stderrData.contains("the user stopped this run from the LLM Sandbox app after"))
        << result->stderrData.toStdString();
    EXPECT_FALSE(gate->isOpen());
    EXPECT_FALSE(sandbox.userStops().lock()->stop(observer.runId())) << "an ended run is no longer known";
}

// --- a sandbox that ends under a run ---

/// Runs held code, kills its container as `end` says the engine recorded it, and returns what the run answered.
class SandboxEndTest : public ExecutionEngineTest
{
protected:
    Result<RunResult> runEndedBy(const ContainerEnd &end)
    {
        auto gate = std::make_shared<FakeRunGate>();
        m_backend->setScript("held()", FakeRunScript::heldBy(gate));
        engine();
        auto run = runInBackground(pythonRun(QStringLiteral("held()")));
        const auto release = qScopeGuard([&] { gate->open(); });
        EXPECT_TRUE(gate->waitForArrivals());
        EXPECT_TRUE(m_backend->killContainer(m_backend->runs().value(0).containerId, end));
        return run.get();
    }
};

TEST_F(SandboxEndTest, aKillNobodyAskedTheEngineForIsTheOomKillerEvenWhenTheEngineRecordsNone)
{
    // Podman records no OOM kill for a gVisor sandbox the host's OOM killer ended: exit 137, OOMKilled false.
    auto result = runEndedBy({.oomKilled = false, .exitCode = 137, .killedThroughEngine = false});

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::OutOfMemory);
    EXPECT_EQ(result->exitCode, 137);
    EXPECT_TRUE(result->stderrData.contains("reached its memory limit")) << result->stderrData.toStdString();
}

TEST_F(SandboxEndTest, anOomKillTheEngineRecordedIsOutOfMemory)
{
    auto result = runEndedBy({.oomKilled = true, .exitCode = 137, .killedThroughEngine = false});

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::OutOfMemory);
}

TEST_F(SandboxEndTest, aKillAskedOfTheEngineIsNotOutOfMemory)
{
    auto result = runEndedBy({.oomKilled = false, .exitCode = 137, .killedThroughEngine = true});

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::SandboxFailed);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("killed from outside the run")))
        << result.error().message.toStdString();
}

TEST_F(SandboxEndTest, aSandboxThatCrashedSaysItsExitStatus)
{
    auto result = runEndedBy({.oomKilled = false, .exitCode = 2, .killedThroughEngine = false});

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::SandboxFailed);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("exit status 2")))
        << result.error().message.toStdString();
}

// --- sessions ---

TEST_F(ExecutionEngineTest, aSessionServesOnlyTheOwnerThatOpenedIt)
{
    ExecutionEngine &sandbox = engine();
    SessionRequest request;
    request.owner = QStringLiteral("mcp-session-a");
    auto session = sandbox.createSession(request);
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    ASSERT_TRUE(sandbox.writeSessionFile(session->id, QStringLiteral("secret.txt"), "a's data", request.owner).ok());

    // Another MCP session: not listed, not readable, not writable, no runs in it, cannot close it.
    const QString other = QStringLiteral("mcp-session-b");
    EXPECT_TRUE(sandbox.sessions(other).isEmpty());
    EXPECT_EQ(sandbox.sessions(request.owner).size(), 1);
    auto read = sandbox.readSessionFile(session->id, QStringLiteral("secret.txt"), other);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, ErrorCode::NotFound);
    EXPECT_EQ(sandbox.writeSessionFile(session->id, QStringLiteral("x"), "b", other).error().code, ErrorCode::NotFound);
    RunRequest run = pythonRun(QStringLiteral("print(1)"));
    run.sessionId = session->id;
    run.sessionOwner = other;
    auto ran = sandbox.run(run);
    ASSERT_FALSE(ran.ok());
    EXPECT_EQ(ran.error().code, ErrorCode::NotFound);
    EXPECT_EQ(sandbox.closeSession(session->id, other).error().code, ErrorCode::NotFound);

    auto own = sandbox.readSessionFile(session->id, QStringLiteral("secret.txt"), request.owner);
    ASSERT_TRUE(own.ok()) << own.error().message.toStdString();
    EXPECT_EQ(*own, "a's data");
    EXPECT_TRUE(sandbox.closeSession(session->id, request.owner).ok());
}

TEST_F(ExecutionEngineTest, sessionKeepsItsFilesBetweenRunsAndFileOperations)
{
    m_backend->setRunHandler([](const FakeRun &run) {
        FakeRunScript script;
        if (run.code == "total()") {
            // Reads what the upload left, writes a result the next download finds.
            script.output = {{QStringLiteral("stdout"), run.files.value(QStringLiteral("/sandbox/data/in.csv"))}};
            script.writesFiles = {{QStringLiteral("out/total.txt"), "3"}};
        }
        return script;
    });
    ExecutionEngine &sandbox = engine();
    SessionRequest request;
    request.language = QStringLiteral("python");
    auto session = sandbox.createSession(request);
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    EXPECT_TRUE(session->keepsVariables);

    auto written = sandbox.writeSessionFile(session->id, QStringLiteral("data/in.csv"), "1,2");
    ASSERT_TRUE(written.ok()) << written.error().message.toStdString();
    EXPECT_EQ(*written, 3);
    RunRequest run = pythonRun(QStringLiteral("total()"));
    run.sessionId = session->id;
    auto result = sandbox.run(run);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "1,2");

    auto total = sandbox.readSessionFile(session->id, QStringLiteral("out/total.txt"));
    ASSERT_TRUE(total.ok()) << total.error().message.toStdString();
    EXPECT_EQ(*total, "3");
    auto input = sandbox.readSessionFile(session->id, QStringLiteral("/sandbox/data/in.csv"));
    ASSERT_TRUE(input.ok());
    EXPECT_EQ(*input, "1,2");

    // One container for the session; its interpreter outlives each run.
    EXPECT_EQ(m_backend->containersCreated(), 1);
    const FakeRun sessionRun = m_backend->runs().last();
    EXPECT_TRUE(sessionRun.keepFiles);
    EXPECT_TRUE(sessionRun.keepProcesses);
    EXPECT_EQ(sandbox.sessions().value(0).runs, 1);
}

TEST_F(ExecutionEngineTest, missingSessionFileIsAnErrorNotAnEmptyFile)
{
    ExecutionEngine &sandbox = engine();
    auto session = sandbox.createSession(SessionRequest{});
    ASSERT_TRUE(session.ok());

    auto missing = sandbox.readSessionFile(session->id, QStringLiteral("nothing.txt"));

    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().code, ErrorCode::BadRequest);
}

TEST_F(ExecutionEngineTest, sessionsBeyondTheLimitAreLimitReached)
{
    SandboxSettings settings;
    settings.maxSessions = 1;
    ExecutionEngine &sandbox = engine(settings);
    ASSERT_TRUE(sandbox.createSession(SessionRequest{}).ok());

    auto second = sandbox.createSession(SessionRequest{});

    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().code, ErrorCode::LimitReached);
    EXPECT_EQ(m_backend->containersCreated(), 1);
}

TEST_F(ExecutionEngineTest, closingASessionRemovesItsContainer)
{
    ExecutionEngine &sandbox = engine();
    auto session = sandbox.createSession(SessionRequest{});
    ASSERT_TRUE(session.ok());
    ASSERT_EQ(m_backend->liveContainers().size(), 1);

    ASSERT_TRUE(sandbox.closeSession(session->id).ok());

    EXPECT_EQ(m_backend->containersRemoved(), 1);
    EXPECT_TRUE(m_backend->liveContainers().isEmpty());
    EXPECT_TRUE(sandbox.sessions().isEmpty());
    RunRequest run = pythonRun(QStringLiteral("print(1)"));
    run.sessionId = session->id;
    auto result = sandbox.run(run);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::NotFound);
    auto closedAgain = sandbox.closeSession(session->id);
    ASSERT_FALSE(closedAgain.ok());
    EXPECT_EQ(closedAgain.error().code, ErrorCode::NotFound);
}

TEST_F(ExecutionEngineTest, sessionWhoseContainerDiedIsClosed)
{
    ExecutionEngine &sandbox = engine();
    auto session = sandbox.createSession(SessionRequest{});
    ASSERT_TRUE(session.ok());
    ASSERT_TRUE(m_backend->killContainer(m_backend->liveContainers().value(0)));

    RunRequest run = pythonRun(QStringLiteral("print(1)"));
    run.sessionId = session->id;
    auto result = sandbox.run(run);

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::SandboxFailed);
    EXPECT_TRUE(sandbox.sessions().isEmpty());
    EXPECT_TRUE(waitUntil([&] { return m_backend->liveContainers().isEmpty(); })); // removed on the pool's thread
}

// --- error codes ---

TEST_F(ExecutionEngineTest, unknownLanguageIsBadRequest)
{
    ExecutionEngine &sandbox = engine();
    RunRequest request = pythonRun(QStringLiteral("DISPLAY 'HI'."));
    request.language = QStringLiteral("cobol");

    auto result = sandbox.run(request);

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::BadRequest);
    EXPECT_EQ(m_backend->containersCreated(), 0);
}

TEST_F(ExecutionEngineTest, engineRefusingTheContainerPassesItsCodeOn)
{
    m_backend->setCreateError(Error{QStringLiteral("Cannot connect to the engine"), ErrorCode::EngineUnreachable});
    ExecutionEngine &sandbox = engine();

    auto run = sandbox.run(pythonRun(QStringLiteral("print(1)")));
    auto session = sandbox.createSession(SessionRequest{});

    ASSERT_FALSE(run.ok());
    EXPECT_EQ(run.error().code, ErrorCode::EngineUnreachable);
    ASSERT_FALSE(session.ok());
    EXPECT_EQ(session.error().code, ErrorCode::EngineUnreachable);
}

TEST_F(ExecutionEngineTest, runnerOfAnotherProtocolVersionIsImageMissing)
{
    m_backend->setRunnerProtocolVersion(2);
    ExecutionEngine &sandbox = engine();

    auto result = sandbox.run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::ImageMissing);
    EXPECT_TRUE(waitUntil([&] { return m_backend->liveContainers().isEmpty(); })); // removed on the pool's thread
}

} // namespace

// --- verified limits ---

TEST_F(ExecutionEngineTest, resultCarriesTheLimitsInForce)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    SandboxSettings settings;
    auto result = engine(settings).run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const EnforcedLimits &limits = result->enforcedLimits;
    ASSERT_TRUE(limits.reported);
    EXPECT_EQ(limits.memoryBytes, settings.memoryBytes);
    EXPECT_EQ(limits.pids, settings.pidsLimit);
    EXPECT_EQ(limits.networkInterfaces, QStringList{"lo"});
    EXPECT_GE(limits.uid, ContainerSpecFactory::kFirstSandboxUid);
    EXPECT_TRUE(limits.readOnlyRoot);
}

TEST_F(ExecutionEngineTest, sandboxWithoutItsLimitsIsRefusedByDefault)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    m_backend->setDroppedLimits({QStringLiteral("memory"), QStringLiteral("pids")}, true, 1);

    auto result = engine().run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::LimitsNotEnforced);
    const QString message = result.error().message;
    EXPECT_TRUE(message.contains(QStringLiteral("memory (asked for 512 MiB, found no limit)")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("pids"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("fake (rootless)"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("the host needs cgroup v2 with the memory, pids and cpu controllers "
                                                "delegated to the user")))
        << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("SANDBOX_ALLOW_UNENFORCED_LIMITS=memory,pids")))
        << message.toStdString();
    EXPECT_TRUE(m_backend->runs().isEmpty());                                      // the code never reached the sandbox
    EXPECT_TRUE(waitUntil([&] { return m_backend->liveContainers().isEmpty(); })); // removed on the pool's thread
}

TEST_F(ExecutionEngineTest, acceptedUnenforcedLimitsLetTheRunProceed)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    m_backend->setDroppedLimits({QStringLiteral("memory"), QStringLiteral("pids")}, true, 1);
    SandboxSettings settings;
    settings.allowUnenforcedLimits = {QStringLiteral("memory"), QStringLiteral("pids")};

    auto result = engine(settings).run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "1\n");
    EXPECT_FALSE(result->enforcedLimits.memoryBytes.has_value());
    EXPECT_FALSE(result->enforcedLimits.pids.has_value());
    EXPECT_EQ(result->enforcedLimits.cgroupVersion, 1);
}

TEST_F(ExecutionEngineTest, acceptingSomeLimitsStillRefusesTheOthers)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    m_backend->setDroppedLimits({QStringLiteral("memory"), QStringLiteral("read_only_root")});
    SandboxSettings settings;
    settings.allowUnenforcedLimits = {QStringLiteral("memory")};

    auto result = engine(settings).run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::LimitsNotEnforced);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("read_only_root")))
        << result.error().message.toStdString();
}

TEST_F(ExecutionEngineTest, runnerThatReportsNoLimitsIsRefused)
{
    m_backend->setScript("print(1)", FakeRunScript::printing("1\n"));
    m_backend->setRunnerReportsLimits(false);

    auto result = engine().run(pythonRun(QStringLiteral("print(1)")));

    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, ErrorCode::LimitsNotEnforced);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("rebuild the images")))
        << result.error().message.toStdString();
}
