// Protocol behaviour: start-up, ping, malformed input, cancel, queued runs and end of input.
#include "RunnerFixture.h"

#include <algorithm>
#include <chrono>
#include <unistd.h>

namespace runner::test {

namespace {

using namespace std::chrono_literals;

class RunnerProtocolTest : public RunnerFixture
{
};

TEST_F(RunnerProtocolTest, announcesReadyWithProtocolVersion)
{
    startRunner(); // asserts the `ready` message and its version
}

TEST_F(RunnerProtocolTest, readyReportsTheLimitsInForce)
{
    m_client = std::make_unique<RunnerTestClient>(std::vector<std::string>{}, std::vector<std::string>{});
    const std::optional<nlohmann::json> ready = m_client->next();
    ASSERT_TRUE(ready.has_value());
    const nlohmann::json &limits = (*ready)["limits"];
    EXPECT_EQ(limits["uid"], ::getuid());
    EXPECT_EQ(limits["gid"], ::getgid());
    EXPECT_TRUE(limits["rlimits"].contains("nofile"));
    EXPECT_TRUE(limits["network_interfaces"].is_array());
    EXPECT_TRUE(limits["read_only_root"].is_boolean());
    EXPECT_TRUE(limits.contains("memory_bytes"));
}

TEST_F(RunnerProtocolTest, pingIsAnsweredWithPong)
{
    RunnerTestClient &client = startRunner();
    client.send({{"op", "ping"}});
    EXPECT_EQ(client.next(), (nlohmann::json{{"ev", "pong"}}));
}

TEST_F(RunnerProtocolTest, malformedLinesGetErrorsAndRunnerContinues)
{
    RunnerTestClient &client = startRunner();
    for (const char *line :
         {"this is not json\n", "[1, 2, 3]\n", "{\"op\": \"bogus\"}\n", "{\"op\": 5}\n", "{\"op\":\"run\"\n"}) {
        client.sendRaw(line);
        const std::optional<nlohmann::json> reply = client.next();
        ASSERT_TRUE(reply.has_value()) << line;
        EXPECT_EQ((*reply)["ev"], "error") << line;
        EXPECT_FALSE((*reply)["message"].get<std::string>().empty());
    }
    client.send({{"op", "ping"}});
    EXPECT_EQ(client.next(), (nlohmann::json{{"ev", "pong"}}));
}

TEST_F(RunnerProtocolTest, invalidRunRequestGetsErrorAndDone)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("bad", "true");
    request.erase("steps");
    const RunOutcome outcome = client.run(request);

    ASSERT_EQ(outcome.errors.size(), 1u);
    EXPECT_EQ(outcome.errors[0]["id"], "bad");
    EXPECT_EQ(outcome.done["reason"], "error");
    EXPECT_TRUE(outcome.steps.empty());
}

TEST_F(RunnerProtocolTest, overlongRequestLineIsRejectedAndRunnerContinues)
{
    RunnerTestClient &client = startRunner({"--max-line-bytes", "1024"});
    // Sent in pieces, as a pipe would deliver a huge line.
    const std::string piece(700, 'x');
    client.sendRaw("{\"op\":\"ping\",\"padding\":\"" + piece);
    client.sendRaw(piece);
    client.sendRaw(piece + "\"}\n");
    const std::optional<nlohmann::json> reply = client.next();
    ASSERT_TRUE(reply.has_value());
    EXPECT_EQ((*reply)["ev"], "error");

    client.send({{"op", "ping"}});
    EXPECT_EQ(client.next(), (nlohmann::json{{"ev", "pong"}}));
}

TEST_F(RunnerProtocolTest, pingIsAnsweredWhileStepRunsAndCancelStopsIt)
{
    RunnerTestClient &client = startRunner();
    client.send(shellRun("r1", "echo $$ > step.pid; echo started; exec sleep 1000"));
    RunOutcome outcome;
    const std::optional<nlohmann::json> started = client.waitFor("output");
    ASSERT_TRUE(started.has_value());
    addToOutcome(outcome, *started);
    ASSERT_EQ(outcome.stdoutData, "started\n");

    client.send({{"op", "ping"}});
    EXPECT_EQ(client.next(), (nlohmann::json{{"ev", "pong"}}));

    client.send({{"op", "cancel"}, {"id", "r1"}});
    outcome = client.collectRun("r1");
    EXPECT_EQ(outcome.done["reason"], "cancelled");
    EXPECT_EQ(outcome.done["exit_code"], 128 + 9);
    EXPECT_TRUE(processGone(std::stoi(readWorkFile("step.pid"))));
}

TEST_F(RunnerProtocolTest, cancelForAnotherRunIsIgnored)
{
    RunnerTestClient &client = startRunner();
    client.send(shellRun("r1", "sleep 0.2; echo finished"));
    client.send({{"op", "cancel"}, {"id", "other"}});
    const RunOutcome outcome = client.collectRun("r1");

    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_EQ(outcome.stdoutData, "finished\n");
}

TEST_F(RunnerProtocolTest, runsSentBackToBackExecuteInOrder)
{
    RunnerTestClient &client = startRunner();
    client.send(shellRun("first", "sleep 0.1; echo one"));
    client.send(shellRun("second", "echo two"));
    const RunOutcome first = client.collectRun("first");
    const RunOutcome second = client.collectRun("second");

    EXPECT_EQ(first.stdoutData, "one\n");
    EXPECT_EQ(second.stdoutData, "two\n");
    for (const nlohmann::json &message : first.messages) {
        EXPECT_EQ(message["id"], "first");
    }
}

TEST_F(RunnerProtocolTest, cancellingQueuedRunEndsItWithoutRunning)
{
    RunnerTestClient &client = startRunner();
    client.send(shellRun("first", "sleep 0.3"));
    client.send(shellRun("second", "touch second-ran"));
    client.send({{"op", "cancel"}, {"id", "second"}});

    // The queued run is answered at once, while the first one is still running.
    const RunOutcome second = client.collectRun("second");
    EXPECT_EQ(second.done["reason"], "cancelled");
    EXPECT_TRUE(second.steps.empty());
    const RunOutcome first = client.collectRun("first");
    EXPECT_EQ(first.done["reason"], "exit");
    EXPECT_FALSE(std::filesystem::exists(m_workdir / "second-ran"));
}

TEST_F(RunnerProtocolTest, endOfInputMakesRunnerExitCleanly)
{
    RunnerTestClient &client = startRunner();
    client.closeInput();
    EXPECT_EQ(client.waitForExit(), 0);
}

TEST_F(RunnerProtocolTest, endOfInputDuringRunKillsStepAndExits)
{
    RunnerTestClient &client = startRunner();
    client.send(shellRun("r1", "sleep 1000 & echo $! > child.pid; echo started; sleep 1000"));
    ASSERT_TRUE(client.waitFor("output").has_value());

    client.closeInput();
    EXPECT_EQ(client.waitForExit(), 0);
    EXPECT_TRUE(processGone(std::stoi(readWorkFile("child.pid"))));
}

TEST_F(RunnerProtocolTest, asPid1KillsDaemonsThatLeftTheProcessGroup)
{
    RunnerTestClient *runner = nullptr;
    startRunnerAsPid1({"--pid"}, runner);
    if (!runner) {
        return;
    }
    RunnerTestClient &client = *runner;
    const std::string pidFile = (m_root / "daemon.pid").string();
    const RunOutcome first = client.run(shellRun("r1", "setsid sleep 1000 & echo $! > " + pidFile + "; echo $$"));
    EXPECT_EQ(first.done["reason"], "exit");
    EXPECT_EQ(first.stdoutData, "2\n") << "the step should be the first child of the runner as PID 1";

    // PIDs are namespace-local, so check from inside the namespace with the next run.
    const RunOutcome second = client.run(
        shellRun("r2", "if kill -0 $(cat " + pidFile + ") 2>/dev/null; then echo alive; else echo gone; fi"));
    EXPECT_EQ(second.stdoutData, "gone\n");
}

TEST_F(RunnerProtocolTest, asPid1KeepProcessesSparesSessionDaemonsAndInterruptsThemAfterATimeout)
{
    RunnerTestClient *runner = nullptr;
    startRunnerAsPid1({"--pid"}, runner);
    if (!runner) {
        return;
    }
    RunnerTestClient &client = *runner;
    const std::string pidFile = (m_root / "daemon.pid").string();
    const std::string marker = (m_root / "interrupted").string();
    // A stand-in for a session's interpreter: lives in its own session and survives SIGINT.
    // (Not a shell: an asynchronous list of a non-interactive shell starts with SIGINT ignored, untrappable.)
    const std::string daemon = "import signal, time\n"
                               "signal.signal(signal.SIGINT, lambda *_: open('" +
                               marker +
                               "', 'a').write('x'))\n"
                               "while True: time.sleep(0.05)\n";
    nlohmann::json start =
        shellRun("r1", "setsid python3 daemon.py </dev/null >/dev/null 2>&1 & echo $! > " + pidFile + "; sleep 0.3");
    start["files"] = {file("daemon.py", daemon)};
    start["keep_processes"] = true;
    EXPECT_EQ(client.run(start).done["reason"], "exit");

    const std::string probe = "if kill -0 $(cat " + pidFile + ") 2>/dev/null; then echo alive; else echo gone; fi";
    nlohmann::json check = shellRun("r2", probe);
    check["keep_processes"] = true;
    EXPECT_EQ(client.run(check).stdoutData, "alive\n");
    EXPECT_FALSE(std::filesystem::exists(marker)) << "a run that ended by itself interrupts nothing";

    nlohmann::json slow = shellRun("r3", "sleep 30");
    slow["keep_processes"] = true;
    slow["timeout_ms"] = 300;
    EXPECT_EQ(client.run(slow).done["reason"], "timeout");
    nlohmann::json after = shellRun("r4", "sleep 0.3; " + probe);
    after["keep_processes"] = true;
    EXPECT_EQ(client.run(after).stdoutData, "alive\n");
    EXPECT_TRUE(std::filesystem::exists(marker)) << "the daemon should have received SIGINT after the timeout";

    // Without keep_processes the next run ends it like any leftover.
    client.run(shellRun("r5", "true"));
    EXPECT_EQ(client.run(shellRun("r6", probe)).stdoutData, "gone\n");
}

TEST_F(RunnerProtocolTest, asPid1RemovesSysvIpcObjectsBetweenRuns)
{
    // Needs its own PID and IPC namespaces: the runner must never touch the host's IPC objects.
    RunnerTestClient *runner = nullptr;
    startRunnerAsPid1({"--pid", "--ipc"}, runner);
    if (!runner) {
        return;
    }
    RunnerTestClient &client = *runner;
    const RunOutcome first = client.run(shellRun("r1", "ipcmk -M 4096 && ipcmk -S 1 && ipcmk -Q"));
    ASSERT_EQ(first.done["exit_code"], 0) << first.stderrData;

    // Shared memory holds data with no process attached; the next run must not find it.
    const RunOutcome second = client.run(shellRun("r2", "cat /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg"));
    EXPECT_EQ(std::count(second.stdoutData.begin(), second.stdoutData.end(), '\n'), 3) << second.stdoutData;
}

} // namespace

} // namespace runner::test
