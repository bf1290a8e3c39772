// Executing steps: output streams, exit codes, step sequencing, environment, timeouts and the output cap.
#include "RunnerFixture.h"

#include <chrono>
#include <csignal>
#include <set>
#include <sstream>

namespace runner::test {

namespace {

using namespace std::chrono_literals;

class RunnerExecutionTest : public RunnerFixture
{
};

std::set<std::string> lines(const std::string &text)
{
    std::set<std::string> result;
    std::istringstream stream(text);
    std::string line;
    while (std::getline(stream, line)) {
        result.insert(line);
    }
    return result;
}

TEST_F(RunnerExecutionTest, shellHelloWorldSeparatesStdoutAndStderr)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "echo hello; echo oops >&2"));

    EXPECT_EQ(outcome.stdoutData, "hello\n");
    EXPECT_EQ(outcome.stderrData, "oops\n");
    ASSERT_EQ(outcome.steps.size(), 1u);
    EXPECT_EQ(outcome.steps[0]["step"], "step1");
    EXPECT_EQ(outcome.steps[0]["exit_code"], 0);
    EXPECT_TRUE(outcome.steps[0]["wall_ms"].is_number_integer());
    EXPECT_TRUE(outcome.steps[0]["cpu_ms"].is_number_integer());
    EXPECT_GT(outcome.steps[0]["max_rss_kb"].get<std::int64_t>(), 0);
    EXPECT_EQ(outcome.done["exit_code"], 0);
    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_TRUE(outcome.done["failed_step"].is_null());
    EXPECT_EQ(outcome.done["output_truncated"], false);
    EXPECT_EQ(outcome.done["artifacts_dropped"], 0);
    EXPECT_TRUE(outcome.errors.empty());
    for (const nlohmann::json &message : outcome.messages) {
        if (message["ev"] == "output") {
            EXPECT_EQ(message["id"], "r1");
            EXPECT_EQ(message["step"], "step1");
        }
    }
}

TEST_F(RunnerExecutionTest, pythonProgramFoundThroughRequestPath)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("py", {{"python3", "main.py"}});
    request["env"] = {{"PATH", "/nonexistent:/usr/bin:/bin"}};
    request["files"] = {file("main.py", "import sys\nprint('hello from python')\nprint('warn', file=sys.stderr)\n")};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "hello from python\n");
    EXPECT_EQ(outcome.stderrData, "warn\n");
    EXPECT_EQ(outcome.done["exit_code"], 0);
    EXPECT_EQ(outcome.done["reason"], "exit");
}

TEST_F(RunnerExecutionTest, nonZeroExitCodeIsReported)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "exit 3"));

    EXPECT_EQ(outcome.done["exit_code"], 3);
    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_TRUE(outcome.done["failed_step"].is_null());
}

TEST_F(RunnerExecutionTest, deathBySignalReportsExitCode128PlusSignal)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "kill -TERM $$"));

    EXPECT_EQ(outcome.done["exit_code"], 128 + 15);
    EXPECT_EQ(outcome.done["reason"], "exit");
}

TEST_F(RunnerExecutionTest, failingFirstStepStopsRunAndIsNamedAsFailedStep)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"/bin/sh", "-c", "echo compiling; exit 2"}, {"touch", "ran"}});
    request["steps"][0]["name"] = "compile";
    request["steps"][1]["name"] = "run";
    const RunOutcome outcome = client.run(request);

    ASSERT_EQ(outcome.steps.size(), 1u);
    EXPECT_EQ(outcome.steps[0]["step"], "compile");
    EXPECT_EQ(outcome.stdoutData, "compiling\n");
    EXPECT_EQ(outcome.done["exit_code"], 2);
    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_EQ(outcome.done["failed_step"], "compile");
    EXPECT_FALSE(std::filesystem::exists(m_workdir / "ran"));
}

TEST_F(RunnerExecutionTest, stepsRunInOrderAndSumTheirUsage)
{
    RunnerTestClient &client = startRunner();
    const nlohmann::json request =
        runRequest("r1", {{"/bin/sh", "-c", "echo built > artefact"}, {"/bin/sh", "-c", "cat artefact; exit 5"}});
    const RunOutcome outcome = client.run(request);

    ASSERT_EQ(outcome.steps.size(), 2u);
    EXPECT_EQ(outcome.steps[0]["exit_code"], 0);
    EXPECT_EQ(outcome.steps[1]["exit_code"], 5);
    EXPECT_EQ(outcome.stdoutData, "built\n");
    // The last step failing is a run failure, not a failed (compile) step.
    EXPECT_TRUE(outcome.done["failed_step"].is_null());
    EXPECT_EQ(outcome.done["exit_code"], 5);
    EXPECT_EQ(outcome.done["wall_ms"].get<std::int64_t>(),
              outcome.steps[0]["wall_ms"].get<std::int64_t>() + outcome.steps[1]["wall_ms"].get<std::int64_t>());
    EXPECT_EQ(outcome.done["max_rss_kb"].get<std::int64_t>(),
              std::max(outcome.steps[0]["max_rss_kb"].get<std::int64_t>(),
                       outcome.steps[1]["max_rss_kb"].get<std::int64_t>()));
}

TEST_F(RunnerExecutionTest, environmentIsExactlyTheRequestedOne)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"env"}});
    request["env"] = {{"PATH", "/usr/bin:/bin"}, {"GREETING", "hello world"}};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(lines(outcome.stdoutData), (std::set<std::string>{"PATH=/usr/bin:/bin", "GREETING=hello world"}));
}

TEST_F(RunnerExecutionTest, stepRunsInWorkdirWithEmptyStdin)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "pwd; cat; echo end"));

    EXPECT_EQ(outcome.stdoutData, m_workdir.string() + "\nend\n");
    EXPECT_EQ(outcome.done["exit_code"], 0);
}

TEST_F(RunnerExecutionTest, unknownProgramReportsErrorWithExitCode127)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(runRequest("r1", {{"definitely-not-a-program-xyz"}}));

    ASSERT_EQ(outcome.errors.size(), 1u);
    EXPECT_EQ(outcome.errors[0]["id"], "r1");
    EXPECT_NE(outcome.errors[0]["message"].get<std::string>().find("definitely-not-a-program-xyz"), std::string::npos);
    EXPECT_EQ(outcome.done["reason"], "error");
    EXPECT_EQ(outcome.done["exit_code"], 127);
}

TEST_F(RunnerExecutionTest, binaryAndInvalidUtf8OutputIsPreservedByteExact)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"python3", "bytes.py"}});
    // 300 copies of every byte value: larger than one 64 KiB output chunk, and far from valid UTF-8.
    request["files"] = {file("bytes.py", "import sys\n"
                                         "sys.stdout.buffer.write(bytes(range(256)) * 300)\n"
                                         "sys.stderr.buffer.write(b'\\xff\\xfe\\x00\\xc3(')\n")};
    const RunOutcome outcome = client.run(request);

    std::string expected;
    for (int copy = 0; copy < 300; ++copy) {
        for (int byte = 0; byte < 256; ++byte) {
            expected += static_cast<char>(byte);
        }
    }
    EXPECT_EQ(outcome.stdoutData, expected);
    EXPECT_EQ(outcome.stderrData, std::string("\xff\xfe\x00\xc3(", 5));
    EXPECT_EQ(outcome.done["exit_code"], 0);
}

TEST_F(RunnerExecutionTest, timeoutKillsWholeProcessGroup)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "sleep 1000 & echo $! > child.pid; echo $$ > group.pid; sleep 1000");
    request["timeout_ms"] = 300;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.done["reason"], "timeout");
    EXPECT_EQ(outcome.done["exit_code"], 128 + 9);
    const pid_t child = std::stoi(readWorkFile("child.pid"));
    const pid_t group = std::stoi(readWorkFile("group.pid"));
    EXPECT_TRUE(processGone(child)) << "background child " << child << " survived the timeout";
    EXPECT_TRUE(processGone(group));
    EXPECT_NE(::kill(-group, 0), 0) << "a member of process group " << group << " survived";
}

TEST_F(RunnerExecutionTest, busyLoopEndsAtItsCpuLimitBeforeTheTimeout)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "while :; do :; done");
    request["timeout_ms"] = 30000;
    request["cpu_limit_ms"] = 1000;
    const RunOutcome outcome = client.run(request, 60s);

    // "timeout" would say the CPU limit did not end the loop.
    EXPECT_EQ(outcome.done["reason"], "cpu_limit");
    EXPECT_EQ(outcome.done["exit_code"], 128 + SIGXCPU);
    // wait4()'s usage is sampled from ticks: it can fall short of the second the kernel counted, by a quarter of it
    // on a loaded machine (721 ms was seen while two test suites shared two cores).
    EXPECT_GE(outcome.done["cpu_ms"].get<std::int64_t>(), 500);
    // The runner itself was not limited: it goes on serving runs.
    EXPECT_EQ(client.run(shellRun("r2", "echo still here")).stdoutData, "still here\n");
}

TEST_F(RunnerExecutionTest, programIgnoringSigxcpuIsKilledAtTheHardCpuLimit)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "trap '' XCPU; while :; do :; done");
    request["timeout_ms"] = 30000;
    request["cpu_limit_ms"] = 1000;
    const RunOutcome outcome = client.run(request, 20s);

    EXPECT_EQ(outcome.done["reason"], "cpu_limit");
    EXPECT_EQ(outcome.done["exit_code"], 137);
    EXPECT_GE(outcome.done["cpu_ms"].get<std::int64_t>(), 1600);
}

TEST_F(RunnerExecutionTest, cpuLimitCountsCpuTimeNotWallTime)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "sleep 2; echo slept");
    request["cpu_limit_ms"] = 1000;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "slept\n");
    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_EQ(outcome.done["exit_code"], 0);
}

TEST_F(RunnerExecutionTest, timeoutShorterThanTheCpuLimitStaysATimeout)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "while :; do :; done");
    request["timeout_ms"] = 500;
    request["cpu_limit_ms"] = 10000;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.done["reason"], "timeout");
    EXPECT_EQ(outcome.done["exit_code"], 137);
}

TEST_F(RunnerExecutionTest, sigxcpuWithoutACpuLimitIsAnOrdinarySignal)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "kill -XCPU $$"));

    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_EQ(outcome.done["exit_code"], 128 + SIGXCPU);
}

TEST_F(RunnerExecutionTest, timeoutIsOneDeadlineForAllSteps)
{
    RunnerTestClient &client = startRunner();
    // The third step alone would fit in the timeout; after the first two it does not. (Margins for a loaded machine:
    // the first two have 0.9 s of overhead to spare.)
    nlohmann::json request =
        runRequest("r1", {{"sleep", "0.3"}, {"sleep", "0.3"}, {"sleep", "1.2"}, {"touch", "never"}});
    request["timeout_ms"] = 1500;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.done["reason"], "timeout");
    EXPECT_EQ(outcome.steps.size(), 3u);
    EXPECT_EQ(outcome.done["failed_step"], "step3");
    EXPECT_FALSE(std::filesystem::exists(m_workdir / "never"));
}

TEST_F(RunnerExecutionTest, outputLimitTruncatesAtCapAndKillsStep)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"yes", "0123456789"}});
    request["max_output_bytes"] = 1000;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData.size(), 1000u);
    EXPECT_EQ(outcome.stdoutData.substr(0, 11), "0123456789\n");
    EXPECT_EQ(outcome.done["reason"], "output_limit");
    EXPECT_EQ(outcome.done["output_truncated"], true);
    EXPECT_EQ(outcome.done["exit_code"], 128 + 9);
}

TEST_F(RunnerExecutionTest, outputLimitCountsStdoutAndStderrTogether)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "printf 12345; printf 67890 >&2; sleep 0.1; printf abc; sleep 10");
    request["max_output_bytes"] = 12;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData.size() + outcome.stderrData.size(), 12u);
    EXPECT_EQ(outcome.stderrData, "67890");
    EXPECT_EQ(outcome.stdoutData, "12345ab");
    EXPECT_EQ(outcome.done["reason"], "output_limit");
}

TEST_F(RunnerExecutionTest, outputExactlyAtCapIsNotTruncated)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = shellRun("r1", "printf 1234567890");
    request["max_output_bytes"] = 10;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "1234567890");
    EXPECT_EQ(outcome.done["reason"], "exit");
    EXPECT_EQ(outcome.done["output_truncated"], false);
}

TEST_F(RunnerExecutionTest, backgroundProcessHoldingOutputDoesNotDelayRun)
{
    RunnerTestClient &client = startRunner();
    // A run waiting for the background process would never end: collecting it fails at its deadline.
    const RunOutcome outcome = client.run(shellRun("r1", "sleep 1000 & echo $! > child.pid; echo main"));

    EXPECT_EQ(outcome.stdoutData, "main\n");
    EXPECT_EQ(outcome.done["exit_code"], 0);
    EXPECT_TRUE(processGone(std::stoi(readWorkFile("child.pid"))));
}

TEST_F(RunnerExecutionTest, userCodeClosingItsStreamsDoesNotDisturbRunner)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(shellRun("r1", "echo before; exec >&- 2>&-; sleep 0.2; exit 4"));

    EXPECT_EQ(outcome.stdoutData, "before\n");
    EXPECT_EQ(outcome.done["exit_code"], 4);
    EXPECT_GE(outcome.done["wall_ms"].get<std::int64_t>(), 150);

    // And the runner still serves the next run.
    EXPECT_EQ(client.run(shellRun("r2", "echo again")).stdoutData, "again\n");
}

TEST_F(RunnerExecutionTest, sigpipeIsDefaultForUserCode)
{
    RunnerTestClient &client = startRunner();
    // `yes` only terminates when SIGPIPE has its default action; with an inherited SIG_IGN it would loop forever.
    nlohmann::json request = shellRun("r1", "yes | head -n 2");
    request["timeout_ms"] = 5000;
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.stdoutData, "y\ny\n");
    EXPECT_EQ(outcome.done["reason"], "exit");
}

TEST_F(RunnerExecutionTest, cpuTimeIsMeasured)
{
    RunnerTestClient &client = startRunner();
    const RunOutcome outcome = client.run(runRequest("r1", {{"python3", "-c",
                                                             "import time\nt=time.process_time()\n"
                                                             "while time.process_time()-t < 0.2: pass"}}));

    EXPECT_GE(outcome.done["cpu_ms"].get<std::int64_t>(), 150);
    EXPECT_GE(outcome.done["wall_ms"].get<std::int64_t>(), outcome.done["cpu_ms"].get<std::int64_t>() - 20);
}

TEST_F(RunnerExecutionTest, maxRssOfStepExcludesLargeRequestPayload)
{
    RunnerTestClient &client = startRunner();
    nlohmann::json request = runRequest("r1", {{"true"}});
    // The kernel carries the resident size at fork() over into the step's max RSS; 16 MiB of file data still in
    // the runner's memory would make a trivial step look large.
    request["files"] = {file("payload.bin", std::string(16 * 1024 * 1024, 'p'))};
    const RunOutcome outcome = client.run(request);

    EXPECT_EQ(outcome.done["exit_code"], 0);
    EXPECT_LT(outcome.done["max_rss_kb"].get<std::int64_t>(), 8 * 1024);
    EXPECT_EQ(std::filesystem::file_size(m_workdir / "payload.bin"), 16u * 1024 * 1024);
}

} // namespace

} // namespace runner::test
