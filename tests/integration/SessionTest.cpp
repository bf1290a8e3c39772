// Sessions against the real engines: one container kept across runs, Python and R keeping
// their variables, files kept and exchanged, expiry, limits, and nothing left behind.
#include "BackendTestSupport.h"
#include "WaitUntil.h"
#include "backend/ContainerBackend.h"
#include "engine/ExecutionEngine.h"

#include <gtest/gtest.h>

using namespace sandbox;
using namespace std::chrono_literals;

namespace {

class SessionTest : public ::testing::TestWithParam<std::string>
{
protected:
    std::unique_ptr<ExecutionEngine> engine(SandboxSettings settings = {})
    {
        auto backend = test::backendFor(GetParam());
        settings.policy = QStringLiteral("permissive");
        return backend ? std::make_unique<ExecutionEngine>(backend, settings) : nullptr;
    }

    static SessionInfo open(ExecutionEngine &engine, const QString &language)
    {
        SessionRequest request;
        request.language = language;
        auto session = engine.createSession(request);
        EXPECT_TRUE(session.ok()) << (session ? "" : session.error().message.toStdString());
        return session ? *session : SessionInfo{};
    }

    static RunResult run(ExecutionEngine &engine, const QString &session, const QString &code,
                         std::chrono::milliseconds timeout = 0ms)
    {
        RunRequest request;
        request.language.clear(); // the session's
        request.sessionId = session;
        request.code = code;
        request.timeout = timeout;
        auto result = engine.run(request);
        EXPECT_TRUE(result.ok()) << (result ? "" : result.error().message.toStdString());
        return result ? *result : RunResult{};
    }

    /// Containers of ours that still exist on the engine.
    int containersOf(ExecutionEngine &engine)
    {
        auto containers =
            engine.backend().listContainers(ExecutionEngine::ownerLabel(), ExecutionEngine::ownerIdentity());
        EXPECT_TRUE(containers.ok());
        return containers ? int(containers->size()) : -1;
    }
};

} // namespace

TEST_P(SessionTest, pythonVariablesImportsAndFunctionsSurviveBetweenRuns)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    EXPECT_TRUE(session.keepsVariables);
    EXPECT_EQ(run(*sandbox, session.id, "import math\ntotal = 40\ndef twice(x):\n    return 2 * x\n").exitCode, 0);
    const RunResult second = run(*sandbox, session.id, "total += 2\nprint(total, twice(total), round(math.pi, 2))");
    EXPECT_EQ(second.stdoutData, "42 84 3.14\n") << second.stderrData.toStdString();

    // An error ends that run only; sys.exit gives the run its status; neither ends the session.
    const RunResult failed = run(*sandbox, session.id, "undefined_name");
    EXPECT_EQ(failed.exitCode, 1);
    EXPECT_TRUE(failed.stderrData.contains("NameError")) << failed.stderrData.toStdString();
    EXPECT_FALSE(failed.stderrData.contains("kernel.py")) << "the traceback starts at the user's code";
    EXPECT_EQ(run(*sandbox, session.id, "import sys\nsys.exit(3)").exitCode, 3);
    EXPECT_EQ(run(*sandbox, session.id, "print(total)").stdoutData, "42\n");

    // The code's module is __main__, as in a script: pickle finds its classes there.
    run(*sandbox, session.id, "import pickle\nclass Point:\n    def __init__(self, x):\n        self.x = x\n");
    const RunResult pickled = run(*sandbox, session.id, "print(pickle.loads(pickle.dumps(Point(7))).x, __name__)");
    EXPECT_EQ(pickled.stdoutData, "7 __main__\n") << pickled.stderrData.toStdString();

    // A cell ending in a DataFrame shows it as a notebook does, and it comes back as a table (issue 50); a cell ending
    // in any other value prints nothing, as a script.
    const RunResult frame = run(*sandbox, session.id, "import pandas as pd\npd.DataFrame({'n': [1, 2, 3]})");
    EXPECT_EQ(frame.stdoutData, "   n\n0  1\n1  2\n2  3\n") << frame.stderrData.toStdString();
    ASSERT_EQ(frame.artifacts.size(), 1);
    EXPECT_EQ(frame.artifacts[0].table.value(QStringLiteral("rows")).toInt(), 3);
    EXPECT_EQ(run(*sandbox, session.id, "total * 2").stdoutData, "");
    // A frame printed in a later cell is that cell's table alone.
    const RunResult printed = run(*sandbox, session.id, "print(pd.DataFrame({'m': [4, 5]}))");
    ASSERT_EQ(printed.artifacts.size(), 1) << printed.stderrData.toStdString();
    EXPECT_EQ(printed.artifacts[0].table.value(QStringLiteral("rows")).toInt(), 2);
}

TEST_P(SessionTest, rVariablesSurviveBetweenRunsAndQuitSetsTheStatus)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "r");
    EXPECT_EQ(run(*sandbox, session.id, "x <- 41").exitCode, 0);
    EXPECT_EQ(run(*sandbox, session.id, "x <- x + 1\nprint(x)").stdoutData, "[1] 42\n");
    const RunResult failed = run(*sandbox, session.id, "stop('boom')");
    EXPECT_EQ(failed.exitCode, 1);
    EXPECT_TRUE(failed.stderrData.contains("Error: boom")) << failed.stderrData.toStdString();
    EXPECT_EQ(run(*sandbox, session.id, "quit(status = 4)").exitCode, 4);
    EXPECT_EQ(run(*sandbox, session.id, "cat(x, '\\n')").stdoutData, "42 \n");
    // A data frame a call shows comes back as a table (issue 50).
    const RunResult frame = run(*sandbox, session.id, "data.frame(n = 1:3)");
    EXPECT_EQ(frame.stdoutData, "  n\n1 1\n2 2\n3 3\n") << frame.stderrData.toStdString();
    ASSERT_EQ(frame.artifacts.size(), 1);
    EXPECT_EQ(frame.artifacts[0].table.value(QStringLiteral("rows")).toInt(), 3);
}

TEST_P(SessionTest, aTimeoutInterruptsTheCodeButKeepsTheVariables)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    run(*sandbox, session.id, "kept = 'yes'");
    const RunResult stopped = run(*sandbox, session.id, "print('partial', flush=True)\nwhile True:\n    pass", 2s);
    EXPECT_EQ(stopped.reason, StopReason::TimedOut);
    const RunResult after = run(*sandbox, session.id, "print(kept)");
    EXPECT_EQ(after.stdoutData, "yes\n");
    EXPECT_EQ(after.stderrData, "") << "nothing of the stopped run reaches the next one: "
                                    << after.stderrData.toStdString();
}

TEST_P(SessionTest, codeThatIgnoresTheInterruptCostsTheVariablesNotTheSession)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    run(*sandbox, session.id, "kept = 1");
    const RunResult stopped = run(
        *sandbox, session.id, "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass", 2s);
    EXPECT_EQ(stopped.reason, StopReason::TimedOut);
    const RunResult after = run(*sandbox, session.id, "print(globals().get('kept', 'lost'))", 20s);
    EXPECT_EQ(after.exitCode, 0) << after.stderrData.toStdString();
    EXPECT_EQ(after.stdoutData, "lost\n");
    EXPECT_TRUE(after.stderrData.contains("restarted")) << after.stderrData.toStdString();
}

TEST_P(SessionTest, anInterpreterKilledForMemoryIsReplacedAndSaysSo)
{
    SandboxSettings settings;
    settings.memoryBytes = 256LL * 1024 * 1024;
    auto sandbox = engine(settings);
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    run(*sandbox, session.id, "kept = 1");
    const RunResult bomb =
        run(*sandbox, session.id, "hog = []\nwhile True:\n    hog.append(bytearray(16 * 1024 * 1024))", 60s);
    EXPECT_NE(bomb.exitCode, 0);
    EXPECT_TRUE(bomb.stderrData.contains("variables are lost")) << bomb.stderrData.toStdString();
    const RunResult after = run(*sandbox, session.id, "print(globals().get('kept', 'lost'))");
    EXPECT_EQ(after.stdoutData, "lost\n") << after.stderrData.toStdString();
    EXPECT_EQ(after.exitCode, 0);
}

TEST_P(SessionTest, filesPersistForLanguagesWithoutAPersistentInterpreter)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "javascript");
    EXPECT_FALSE(session.keepsVariables);
    run(*sandbox, session.id, "require('fs').writeFileSync('state.json', JSON.stringify({n: 41}))");
    const RunResult second = run(
        *sandbox, session.id, "const s = JSON.parse(require('fs').readFileSync('state.json')); console.log(s.n + 1)");
    EXPECT_EQ(second.stdoutData, "42\n") << second.stderrData.toStdString();
}

TEST_P(SessionTest, uploadedFilesAreReadByCodeAndWrittenFilesDownloaded)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    QByteArray binary;
    for (int i = 0; i < 256; ++i) {
        binary.append(char(i));
    }
    auto written = sandbox->writeSessionFile(session.id, "data/in.bin", binary);
    ASSERT_TRUE(written.ok()) << written.error().message.toStdString();
    EXPECT_EQ(*written, 256);
    run(*sandbox, session.id, "data = open('data/in.bin', 'rb').read()\nopen('out.bin', 'wb').write(data[::-1])");
    auto read = sandbox->readSessionFile(session.id, "/sandbox/out.bin");
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    std::reverse(binary.begin(), binary.end());
    EXPECT_EQ(*read, binary);
}

TEST_P(SessionTest, filePathsCannotLeaveTheWorkingDirectory)
{
    SandboxSettings settings;
    settings.maxSessionFileBytes = 1000;
    auto sandbox = engine(settings);
    ASSERT_TRUE(sandbox);
    const SessionInfo session = open(*sandbox, "python");
    run(*sandbox, session.id,
        "import os\nos.symlink('/etc/passwd', 'link')\nos.symlink('/etc', 'dir')\n"
        "open('big', 'wb').write(b'x' * 2000)");
    for (const QString &path :
         {QStringLiteral("../etc/passwd"), QStringLiteral("/etc/passwd"), QStringLiteral("a/../../x"),
          QStringLiteral("link"), QStringLiteral("dir/passwd"), QStringLiteral("big"), QStringLiteral("missing")}) {
        auto read = sandbox->readSessionFile(session.id, path);
        EXPECT_FALSE(read.ok()) << path.toStdString();
    }
    EXPECT_FALSE(sandbox->writeSessionFile(session.id, "../escape", "x").ok());
    EXPECT_FALSE(sandbox->writeSessionFile(session.id, "dir/planted", "x").ok());
    EXPECT_FALSE(sandbox->writeSessionFile(session.id, "large", QByteArray(2000, 'x')).ok());
    const RunResult check = run(*sandbox, session.id, "import os\nprint(os.path.exists('/etc/planted'))");
    EXPECT_EQ(check.stdoutData, "False\n");
}

TEST_P(SessionTest, sessionsAreListedClosedAndLimited)
{
    SandboxSettings settings;
    settings.maxSessions = 2;
    auto sandbox = engine(settings);
    ASSERT_TRUE(sandbox);
    const int before = containersOf(*sandbox);
    const SessionInfo first = open(*sandbox, "python");
    const SessionInfo second = open(*sandbox, "ruby");
    EXPECT_EQ(sandbox->sessions().size(), 2);
    SessionRequest third;
    auto refused = sandbox->createSession(third);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains("close_session")) << refused.error().message.toStdString();

    RunRequest wrongLanguage;
    wrongLanguage.sessionId = first.id;
    wrongLanguage.language = "javascript";
    wrongLanguage.code = "console.log(1)";
    EXPECT_FALSE(sandbox->run(wrongLanguage).ok());

    ASSERT_TRUE(sandbox->closeSession(first.id).ok());
    ASSERT_TRUE(sandbox->closeSession(second.id).ok());
    EXPECT_FALSE(sandbox->closeSession(second.id).ok());
    EXPECT_TRUE(sandbox->sessions().isEmpty());
    EXPECT_EQ(containersOf(*sandbox), before) << "closing a session removes its container";
    RunRequest closed;
    closed.sessionId = first.id;
    closed.code = "print(1)";
    EXPECT_FALSE(sandbox->run(closed).ok());
}

TEST_P(SessionTest, anIdleSessionExpiresAndItsContainerGoes)
{
    SandboxSettings settings;
    settings.sessionIdleTimeout = 2s;
    auto sandbox = engine(settings);
    ASSERT_TRUE(sandbox);
    const int before = containersOf(*sandbox);
    const SessionInfo session = open(*sandbox, "python");
    EXPECT_EQ(containersOf(*sandbox), before + 1);
    // A run longer than the idle timeout does not expire it: a session in use is not idle.
    EXPECT_EQ(run(*sandbox, session.id, "import time\ntime.sleep(3)\nprint('done')").stdoutData, "done\n");
    EXPECT_EQ(sandbox->sessions().size(), 1);
    // Left alone, it expires: the deadline only ends the wait for an expiry that never comes.
    EXPECT_TRUE(test::waitUntil([&] { return sandbox->sessions().isEmpty(); }, 60s, 100ms));
    EXPECT_TRUE(test::waitUntil([&] { return containersOf(*sandbox) == before; }, 60s, 200ms))
        << "the expired session's container is still there";
}

TEST_P(SessionTest, librariesAreInstalledOnceWhenTheSessionOpens)
{
    auto sandbox = engine();
    ASSERT_TRUE(sandbox);
    SessionRequest request;
    request.language = "javascript";
    request.libraries = {"is-number@7.0.0"};
    auto session = sandbox->createSession(request);
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    const RunResult first = run(*sandbox, session->id, "console.log(require('is-number')(5))");
    EXPECT_EQ(first.stdoutData, "true\n") << first.stderrData.toStdString();
    const RunResult network =
        run(*sandbox, session->id, "console.log(require('fs').readdirSync('/sys/class/net').join(','))");
    EXPECT_EQ(network.stdoutData, "lo\n") << "the install's network is gone before any code runs";
    RunRequest more;
    more.sessionId = session->id;
    more.language = "javascript";
    more.code = "console.log(1)";
    more.libraries = {"is-odd@3.0.1"};
    auto refused = sandbox->run(more);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains("create_session")) << refused.error().message.toStdString();
}

INSTANTIATE_TEST_SUITE_P(Backends, SessionTest, ::testing::ValuesIn(test::backendNamesWithKubernetes()),
                         test::backendTestName);
