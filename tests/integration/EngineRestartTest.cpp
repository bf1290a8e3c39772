// The container engine goes away in the middle of a run and comes back, as when an upgrade restarts dockerd or the
// user restarts Podman's service: the run ends with EngineUnreachable and a sentence that says so, and the runs after
// the engine is back work in the same engine object (no restart of the program), although the warm containers its pool
// held died with the engine or outlived it unanswered. No container of this process is left once it ends.
//
//  - docker: the machine's own dockerd is stopped (SIGTERM, which stops its containers) and started again as
//    scripts/lib/setup.sh starts it. Needs root, and every other test on Docker would fail meanwhile: label
//    `engine-restart`, which scripts/test runs alone after the engine lanes.
//  - podman: a Podman API service of the test's own on a socket of its own (the machine's storage), stopped and
//    started again; its containers outlive it (conmon), as with a real restart of the service.
#include "BackendTestSupport.h"
#include "ScopedEnvironment.h"
#include "WaitUntil.h"
#include "engine/ExecutionEngine.h"
#include "engine/RunObserver.h"

#include <QDir>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <atomic>
#include <csignal>
#include <future>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

/// A container engine's service that the test can stop and start.
class EngineService
{
public:
    virtual ~EngineService() = default;
    virtual bool stop() = 0;
    virtual bool start() = 0;
};

/// The machine's dockerd, started the way scripts/lib/setup.sh's start_docker starts it.
class Dockerd final : public EngineService
{
public:
    bool stop() override
    {
        const qint64 pid = daemonPid();
        if (pid <= 0 || ::kill(pid_t(pid), SIGTERM) != 0) {
            ADD_FAILURE() << "no dockerd process to stop (this test restarts the machine's dockerd; run it as root)";
            return false;
        }
        return test::waitUntil([&] { return ::kill(pid_t(pid), 0) != 0; }, 120s, 200ms);
    }
    bool start() override
    {
        QProcess daemon;
        daemon.setProgram(QStringLiteral("setsid"));
        daemon.setArguments({QStringLiteral("dockerd")});
        daemon.setWorkingDirectory(QDir::rootPath());
        daemon.setStandardInputFile(QProcess::nullDevice());
        daemon.setStandardOutputFile(QStringLiteral("/var/log/llm-sandbox-dockerd.log"), QIODevice::Append);
        daemon.setStandardErrorFile(QStringLiteral("/var/log/llm-sandbox-dockerd.log"), QIODevice::Append);
        return daemon.startDetached();
    }

private:
    static qint64 daemonPid()
    {
        QProcess pidof;
        pidof.start(QStringLiteral("pidof"), {QStringLiteral("-s"), QStringLiteral("dockerd")});
        pidof.waitForFinished(10000);
        return pidof.readAllStandardOutput().trimmed().toLongLong();
    }
};

/// `podman system service` on a socket of the test's own.
class PodmanService final : public EngineService
{
public:
    explicit PodmanService(const QString &socket) : m_socket(socket) {}
    ~PodmanService() override { stop(); }
    bool stop() override
    {
        if (m_service.state() == QProcess::NotRunning) {
            return true;
        }
        m_service.terminate();
        return m_service.waitForFinished(60000);
    }
    bool start() override
    {
        QFile::remove(m_socket);
        m_service.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        // The service itself, not a client of the one CONTAINER_HOST names.
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove(QStringLiteral("CONTAINER_HOST"));
        m_service.setProcessEnvironment(environment);
        m_service.start(QStringLiteral("podman"), {QStringLiteral("system"), QStringLiteral("service"),
                                                   QStringLiteral("--time=0"), QStringLiteral("unix://") + m_socket});
        return m_service.waitForStarted(10000);
    }

private:
    QString m_socket;
    QProcess m_service;
};

/// Says when the run's program has started: its first line of output.
class StartedObserver final : public RunObserver
{
public:
    void runOutput(const QString &, OutputStream, const QByteArray &chunk) override
    {
        if (chunk.contains("started")) {
            started = true;
        }
    }
    std::atomic_bool started = false;
};

class EngineRestartTest : public ::testing::TestWithParam<std::string>
{
};

Result<RunResult> runPython(ExecutionEngine &engine, const QString &code)
{
    RunRequest request;
    request.code = code;
    request.timeout = 120s;
    return engine.run(request);
}

} // namespace

TEST_P(EngineRestartTest, runInProgressEndsEngineUnreachableAndTheNextRunsWorkOnceItIsBack)
{
    const std::string backendName = GetParam();
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    const QString podmanSocket = folder.filePath(QStringLiteral("podman.sock"));
    std::unique_ptr<EngineService> service;
    std::optional<test::ScopedEnvironment> environment;
    if (backendName == "docker") {
        service = std::make_unique<Dockerd>();
    } else {
        service = std::make_unique<PodmanService>(podmanSocket);
        environment.emplace(std::initializer_list<std::pair<const char *, QByteArray>>{
            {"CONTAINER_HOST", ("unix://" + podmanSocket).toUtf8()}});
        ASSERT_TRUE(service->start());
    }
    const auto answers = [&] {
        auto probed = test::createBackend(backendName);
        return probed.ok();
    };
    ASSERT_TRUE(test::waitUntil(answers, 60s, 250ms)) << "the engine does not answer before the test";
    auto backend = test::createBackend(backendName);
    ASSERT_TRUE(backend.ok()) << backend.error().message.toStdString();
    {
        ExecutionEngine engine(*backend, test::settingsFor(backendName));
        // Warm containers, as a program that has run for a while holds them.
        ASSERT_TRUE(runPython(engine, QStringLiteral("print(1)")).ok());
        engine.prewarm(QStringLiteral("python"));
        ASSERT_TRUE(test::waitUntil([&] { return engine.warmContainers(QStringLiteral("python")) >= 1; }, 120s, 200ms));

        StartedObserver observer;
        auto inProgress = std::async(std::launch::async, [&] {
            RunRequest request;
            request.code = QStringLiteral("import time\nprint('started', flush=True)\ntime.sleep(300)");
            request.timeout = 300s;
            return engine.run(request, {}, &observer);
        });
        ASSERT_TRUE(test::waitUntil([&] { return observer.started.load(); }, 120s)) << "the long run did not start";

        ASSERT_TRUE(service->stop()) << "the engine did not stop";
        // Whatever fails from here on, the engine is started again: the tests after this one need it.
        const auto restart = qScopeGuard([&] {
            if (!answers()) {
                service->start();
                test::waitUntil(answers, 120s, 500ms);
            }
        });
        ASSERT_EQ(inProgress.wait_for(120s), std::future_status::ready) << "the run did not end with its engine";
        const Result<RunResult> interrupted = inProgress.get();
        ASSERT_FALSE(interrupted.ok()) << "a run whose engine went away cannot have succeeded";
        EXPECT_EQ(interrupted.error().code, ErrorCode::EngineUnreachable) << interrupted.error().message.toStdString();
        EXPECT_TRUE(interrupted.error().message.contains(QStringLiteral("engine"), Qt::CaseInsensitive))
            << interrupted.error().message.toStdString();

        // While it is away, a run says so at once.
        const Result<RunResult> whileAway = runPython(engine, QStringLiteral("print(2)"));
        ASSERT_FALSE(whileAway.ok());
        EXPECT_EQ(whileAway.error().code, ErrorCode::EngineUnreachable) << whileAway.error().message.toStdString();

        ASSERT_TRUE(service->start());
        ASSERT_TRUE(test::waitUntil(answers, 120s, 500ms)) << "the engine did not come back";
        // Every run after it is back works: none gets a container that died with the engine.
        for (int i = 0; i < 3; ++i) {
            const Result<RunResult> after = runPython(engine, QStringLiteral("print(6 * 7)"));
            ASSERT_TRUE(after.ok()) << "run " << i << " after the restart: " << after.error().message.toStdString();
            EXPECT_EQ(after->stdoutData, "42\n");
        }
    }
    // The engine has ended: none of its containers is left, the one of the interrupted run included.
    EXPECT_TRUE(test::waitUntil([&] { return test::containersOwnedBy(**backend, ::getpid()).isEmpty(); }, 60s, 500ms))
        << "left behind: " << test::containersOwnedBy(**backend, ::getpid()).join(' ').toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, EngineRestartTest, ::testing::ValuesIn(test::backendNames()), test::backendTestName);
