#include "BackendTestSupport.h"
#include "WaitUntil.h"
#include "engine/ExecutionEngine.h"

#include <QDir>
#include <atomic>
#include <gtest/gtest.h>
#include <thread>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class EngineTest : public ::testing::TestWithParam<std::string>
{
protected:
    Result<RunResult> run(const QString &code, std::chrono::milliseconds timeout = 30s, std::stop_token stop = {})
    {
        RunRequest request;
        request.language = "python";
        request.code = code;
        request.timeout = timeout;
        return m_engine->run(request, stop, &m_recorder);
    }

    /// Remembers what an observer sees.
    struct Recorder final : RunObserver
    {
        QString startedId;
        QString finishedId;
        QByteArray streamed;
        /// Set from the run's thread: another thread may wait for the first output.
        std::atomic<bool> sawOutput = false;
        void runStarted(const QString &id, const RunRequest &) override { startedId = id; }
        void runOutput(const QString &, OutputStream, const QByteArray &chunk) override
        {
            streamed += chunk;
            sawOutput = true;
        }
        void runFinished(const QString &id, const RunResult &, const std::optional<Error> &) override
        {
            finishedId = id;
        }
    };

    std::unique_ptr<ExecutionEngine> m_engine = test::engineFor(GetParam());

    Recorder m_recorder;
};

} // namespace

TEST_P(EngineTest, stdoutAndStderrAreSeparate)
{
    auto result = run("import sys\nprint('to out')\nprint('to err', file=sys.stderr)\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "to out\n");
    EXPECT_EQ(result->stderrData, "to err\n");
    EXPECT_EQ(result->exitCode, 0);
    EXPECT_EQ(result->reason, StopReason::Exited);
}

TEST_P(EngineTest, exitCodeIsTheProgramsOwn)
{
    auto result = run("import sys; sys.exit(3)");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 3);
    EXPECT_EQ(result->reason, StopReason::Exited);
}

TEST_P(EngineTest, unicodeOutputSurvivesTheRoundTrip)
{
    auto result = run("print('héllo wörld ✓ 你好 🎉')");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(QString::fromUtf8(result->stdoutData), QString::fromUtf8("héllo wörld ✓ 你好 🎉\n"));
}

TEST_P(EngineTest, syntaxErrorIsReportedOnStderrWithExitCode1)
{
    auto result = run("print('ok')\ndef broken(:\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->exitCode, 1);
    EXPECT_TRUE(result->stderrData.contains("SyntaxError")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stderrData.contains("line 2")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stdoutData.isEmpty());
}

TEST_P(EngineTest, tracebackPointsAtTheUsersLine)
{
    auto result = run("x = 1\ny = 2\nraise ValueError('boom')\n");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->exitCode, 1);
    EXPECT_TRUE(result->stderrData.contains("line 3")) << result->stderrData.toStdString();
    EXPECT_TRUE(result->stdoutData.isEmpty()) << "nothing injected into stdout";
}

TEST_P(EngineTest, timeoutKillsTheWholeProcessTree)
{
    const QByteArray marker = "llm_sandbox_timeout_marker_7f3a";
    // A child that would outlive its parent if only the parent were killed.
    auto result = run("import subprocess\nsubprocess.Popen(['sleep', '1000'])\n"
                      "import time\nwhile True: pass  # " +
                          QString::fromLatin1(marker) + "\n",
                      2s);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::TimedOut);
    EXPECT_TRUE(result->timedOut());
    EXPECT_EQ(test::hostProcessesMatching("sleep 1000"), 0) << "a process of the run survived";
}

TEST_P(EngineTest, noContainerOutlivesTheEngine)
{
    // This process's containers, by their owner label: other processes' sandboxes don't count.
    const auto ours = [](ContainerBackend &backend) {
        return backend.listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
    };
    auto shared = test::backendFor(GetParam());
    auto before = ours(*shared);
    ASSERT_TRUE(before.ok());
    ASSERT_TRUE(run("print(1)").ok());
    ASSERT_TRUE(run("while True: pass", 1s).ok());
    m_engine->prewarm("python");
    auto during = ours(*shared);
    ASSERT_TRUE(during.ok());
    EXPECT_GT(during->size(), before->size()) << "the engine keeps a warm container while it lives";
    m_engine.reset();
    auto after = ours(*shared);
    ASSERT_TRUE(after.ok());
    for (const QString &id : *after) {
        EXPECT_TRUE(before->contains(id)) << "container left behind: " << id.toStdString();
    }
}

TEST_P(EngineTest, pooledContainerKeepsNothingFromThePreviousRun)
{
    const QByteArray marker = "llm_sandbox_daemon_marker_51c2";
    auto first = run("import os, subprocess, matplotlib.pyplot as plt\n"
                     "open('/sandbox/secret.txt', 'w').write('s1')\n"
                     "open('/tmp/secret.txt', 'w').write('s2')\n"
                     "open('/dev/shm/secret.txt', 'w').write('s3')\n"
                     "subprocess.Popen(['setsid', 'sh', '-c', 'sleep 1000; echo " +
                     QString::fromLatin1(marker) +
                     "'])\n"
                     "plt.plot([1, 2]); plt.show()\n");
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    EXPECT_EQ(first->artifacts.size(), 1);
    EXPECT_EQ(test::hostProcessesMatching(marker), 0) << "a daemon outlived its run";
    ASSERT_EQ(m_engine->warmContainers("python"), 1) << "the container went back to the pool";

    auto second = run(QString::fromLatin1(test::kCommandLinesPython) +
                      "print([p for p in ('/sandbox/secret.txt', '/tmp/secret.txt', '/dev/shm/secret.txt') "
                      "if os.path.exists(p)])\n"
                      "print(sorted(os.listdir('/sandbox')))\n"
                      "print(any(b'sleep' in c for c in command_lines()))\n");
    ASSERT_TRUE(second.ok()) << second.error().message.toStdString();
    EXPECT_EQ(second->stdoutData, "[]\n['main.py', 'output']\nFalse\n") << second->stderrData.toStdString();
    EXPECT_TRUE(second->artifacts.isEmpty()) << "an artifact of the first run came back";
    EXPECT_EQ(m_engine->warmContainers("python"), 1);
}

TEST_P(EngineTest, observersSeeStartOutputAndEnd)
{
    auto result = run("print('streamed')");
    ASSERT_TRUE(result.ok());
    EXPECT_FALSE(m_recorder.startedId.isEmpty());
    EXPECT_EQ(m_recorder.startedId, m_recorder.finishedId);
    EXPECT_EQ(m_recorder.streamed, "streamed\n");
}

TEST_P(EngineTest, cancellationKillsTheRun)
{
    std::stop_source stop;
    // Cancels once the program is running; a run that never gets there ends at its timeout instead (TimedOut).
    std::thread canceller([&] {
        test::waitUntil([&] { return m_recorder.sawOutput.load(); }, 60s);
        stop.request_stop();
    });
    auto result = run("import time\nprint('running', flush=True)\ntime.sleep(600)\n", 120s, stop.get_token());
    canceller.join();
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->reason, StopReason::Cancelled) << "a run that is not cancelled ends at its timeout";
    EXPECT_EQ(result->stdoutData, "running\n");
}

TEST_P(EngineTest, sandboxHasNoNetworkAndRunsUnprivileged)
{
    auto result =
        run("import os, pwd, socket\n"
            "print(20000 <= os.getuid() < 60000, os.getgid() == os.getuid(), pwd.getpwuid(os.getuid()).pw_dir)\n"
            "print(sorted(os.listdir('/sys/class/net')))\n"
            "try:\n"
            "    socket.create_connection(('172.17.0.1', 2375), timeout=2)\n"
            "    print('connected')\n"
            "except OSError:\n"
            "    print('no route')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    // A uid of its own, which programs that look up their user find (pwd, Java's user.home, R, pip).
    EXPECT_EQ(result->stdoutData, "True True /tmp\n['lo']\nno route\n") << result->stderrData.toStdString();
}

TEST_P(EngineTest, hostEnvironmentDoesNotLeakIntoTheSandbox)
{
    qputenv("LLM_SANDBOX_TEST_SECRET", "hunter2");
    auto result = run("import os\nprint('hunter2' in str(os.environ))\n");
    qunsetenv("LLM_SANDBOX_TEST_SECRET");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->stdoutData, "False\n");
}

TEST_P(EngineTest, matplotlibFigureComesBackAsAPng)
{
    auto result = run("import matplotlib.pyplot as plt\n"
                      "plt.scatter([1, 2, 3], [3, 1, 2])\n"
                      "plt.show()\n"
                      "print('done')\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "done\n") << result->stderrData.toStdString();
    ASSERT_EQ(result->artifacts.size(), 1);
    const Artifact &png = result->artifacts.first();
    EXPECT_EQ(png.mimeType, "image/png");
    EXPECT_TRUE(png.data.startsWith("\x89PNG\r\n\x1a\n"));
    // IHDR: width and height as big-endian 32-bit numbers at offsets 16 and 20.
    ASSERT_GT(png.data.size(), 24);
    EXPECT_EQ(png.data.mid(12, 4), "IHDR");
    const auto be32 = [&](int at) {
        const auto *p = reinterpret_cast<const unsigned char *>(png.data.constData() + at);
        return (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
    };
    EXPECT_GT(be32(16), 100u);
    EXPECT_GT(be32(20), 100u);
}

TEST_P(EngineTest, unknownLanguageIsAnError)
{
    RunRequest request;
    request.language = "cobol";
    request.code = "DISPLAY 'HI'.";
    auto result = m_engine->run(request);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains("python"));
}

TEST_P(EngineTest, preinstalledLibrariesNeedNoInstall)
{
    RunRequest request;
    request.code = "import numpy\nprint(numpy.__name__)";
    request.libraries = {"numpy", "Matplotlib"};
    auto result = m_engine->run(request);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "numpy\n");
}

TEST_P(EngineTest, rootFilesystemIsReadOnlyAndScratchSpaceBelongsToTheSandboxUser)
{
    // The tmpfs mounts carry the sandbox user as owner and a size (Docker: uid=/gid=/size=
    // options; Podman: its own ownership option), nothing else is writable (Podman would mount
    // /run and /var/tmp writable), and the ulimits hold (Podman's defaults exceed the host's).
    auto result = run("import os, resource\n"
                      "for path in ('/usr/x', '/var/tmp/x', '/run/x', '/sandbox/x', '/tmp/x', '/sandbox/output/x'):\n"
                      "    try:\n"
                      "        open(path, 'w').close()\n"
                      "        print(path, 'writable')\n"
                      "    except OSError:\n"
                      "        print(path, 'read-only')\n"
                      "scratch = os.statvfs('/sandbox')\n"
                      "print(os.stat('/sandbox').st_uid == os.getuid(), scratch.f_blocks * scratch.f_frsize)\n"
                      "print(resource.getrlimit(resource.RLIMIT_NOFILE), resource.getrlimit(resource.RLIMIT_CORE))\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result->stdoutData, "/usr/x read-only\n/var/tmp/x read-only\n/run/x read-only\n/sandbox/x writable\n"
                                  "/tmp/x writable\n/sandbox/output/x writable\nTrue 268435456\n(1024, 1024) (0, 0)\n")
        << result->stderrData.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, EngineTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
